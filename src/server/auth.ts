import { createHash, timingSafeEqual } from 'node:crypto';
import type { IncomingHttpHeaders } from 'node:http';

/**
 * Client keys: a request must carry one as `Authorization: Bearer <key>` (or `x-api-key`, as
 * Anthropic-style clients send it). Keys are compared as SHA-256 digests in constant time, so
 * neither their length nor a matching prefix leaks through timing.
 */
export class ClientKeys {
  readonly #digests: readonly Buffer[];

  constructor(keys: readonly string[]) {
    this.#digests = keys.map(digest);
  }

  /** Whether any key is configured (none: every request is let in). */
  get enabled(): boolean {
    return this.#digests.length > 0;
  }

  /** Whether the request's headers carry a configured key. */
  allows(headers: IncomingHttpHeaders): boolean {
    return this.matches(presentedKey(headers));
  }

  /** Whether `presented` is one of the configured keys. */
  matches(presented: string | undefined): boolean {
    if (presented === undefined || presented.length === 0) return false;
    const candidate = digest(presented);
    let match = false;
    // No early exit: every key is compared whatever the outcome.
    for (const known of this.#digests) match = timingSafeEqual(known, candidate) || match;
    return match;
  }
}

/** The client key a request presents (`Authorization: Bearer`, else `x-api-key`), if any. */
export function presentedKey(headers: IncomingHttpHeaders): string | undefined {
  const authorization = headers.authorization;
  if (authorization !== undefined) {
    const match = /^Bearer\s+(\S+)\s*$/i.exec(authorization);
    return match?.[1];
  }
  const apiKey = headers['x-api-key'];
  return typeof apiKey === 'string' && apiKey.length > 0 ? apiKey : undefined;
}

function digest(key: string): Buffer {
  return createHash('sha256').update(key).digest();
}
