import type { OutgoingHttpHeaders } from 'node:http';

/**
 * The keys triage knows (upstream keys, the classifier LLM's key, client keys), and their
 * removal from everything it relays or logs. An upstream may echo the key it was sent (in a 401
 * body, an error message, a debugging header): what leaves triage never carries it on.
 */

/** What a key is replaced with. */
export const REDACTED = '[redacted]';

/**
 * Shorter keys are not redacted: replacing every occurrence of a short string would mangle
 * answers, and a key that short guards nothing (client keys in the file need 8 characters too).
 */
export const MIN_SECRET_CHARS = 8;

/** A set of secrets, and the redaction of text, bytes and headers. */
export class Secrets {
  readonly #texts: readonly string[];
  readonly #bytes: readonly Buffer[];
  readonly #marker = Buffer.from(REDACTED);

  /** `values` may hold duplicates and unset entries; each secret is also matched as encoded. */
  constructor(values: Iterable<string | undefined>) {
    const forms = new Set<string>();
    for (const value of values) {
      if (value === undefined || value.length < MIN_SECRET_CHARS) continue;
      // As written, JSON-escaped (a key with `/` or `"` in a JSON body), and URL-encoded.
      forms.add(value);
      forms.add(JSON.stringify(value).slice(1, -1));
      forms.add(JSON.stringify(value).slice(1, -1).replaceAll('/', '\\/'));
      forms.add(encodeURIComponent(value));
    }
    // Longest first: a key that contains another is replaced whole.
    this.#texts = [...forms].sort((a, b) => b.length - a.length);
    this.#bytes = this.#texts.map((text) => Buffer.from(text));
  }

  /** Whether there is anything to redact. */
  get isEmpty(): boolean {
    return this.#texts.length === 0;
  }

  /** `text` without any secret. */
  redactText(text: string): string {
    let out = text;
    for (const secret of this.#texts) {
      if (out.includes(secret)) out = out.replaceAll(secret, REDACTED);
    }
    return out;
  }

  /** `bytes` without any secret: the same buffer when there was none. */
  redactBytes(bytes: Buffer): Buffer {
    let out = bytes;
    for (const secret of this.#bytes) {
      let at = out.indexOf(secret);
      if (at < 0) continue;
      const pieces: Buffer[] = [];
      let from = 0;
      while (at >= 0) {
        pieces.push(out.subarray(from, at), this.#marker);
        from = at + secret.length;
        at = out.indexOf(secret, from);
      }
      pieces.push(out.subarray(from));
      out = Buffer.concat(pieces);
    }
    return out;
  }

  /** Removes secrets from the values of `headers`, in place; returns it. */
  redactHeaders(headers: OutgoingHttpHeaders): OutgoingHttpHeaders {
    if (this.isEmpty) return headers;
    for (const name in headers) {
      const value = headers[name];
      if (typeof value === 'string') headers[name] = this.redactText(value);
      else if (Array.isArray(value)) headers[name] = value.map((v) => this.redactText(v));
    }
    return headers;
  }
}
