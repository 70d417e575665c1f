import type { Target } from '../catalog.js';
import { AnthropicToOpenAiStream, chatCompletionFromMessage } from './anthropic-to-openai.js';
import type { ClientProtocol, WireFormat } from './client-protocol.js';
import { messageFromChatCompletion, OpenAiToAnthropicStream } from './openai-to-anthropic.js';
import { jsonData, sseEvents } from './sse-events.js';
import { mergeUsage, type Usage, usageFromAnthropic, usageFromOpenAi } from './usage.js';

/**
 * What the proxy does with an upstream's answer on its way to the client: passes it through (and
 * reads its usage), or translates it from the upstream's wire format to the client's. One relay
 * per attempt. A streamed answer reaches it in pieces of complete events (the proxy's framer
 * cuts them), so no translator ever sees half an event.
 */
export interface AnswerRelay {
  /** The upstream path the request goes to (e.g. `/v1/messages`). */
  readonly path: string;
  /**
   * A whole 2xx answer as the client gets it: its bytes, and the JSON object they hold (parsed
   * once by the caller, which checks that an answer is one).
   */
  whole(payload: Buffer, answer: Record<string, unknown>): Buffer;
  /** An upstream's error answer (a status the proxy relays) as the client gets it. */
  error(status: number, payload: Buffer, target: Target): Buffer;
  /** Complete events of a stream as the client gets them (empty: nothing to send for them). */
  events(chunk: Buffer): Buffer;
  /** The last bytes of a stream that ended (`undefined`: none). */
  end(): Buffer | undefined;
  /** The event that ends a stream broken after its start. */
  streamError(message: string, code: string): Buffer;
  /** The usage the answer reported, once read. */
  readonly usage: Usage | undefined;
}

const USAGE_KEY = Buffer.from('"usage"');
const NULL_USAGE = Buffer.from(',"usage":null');

/**
 * Passes an answer through byte for byte, reading its usage: from the JSON body, or from the
 * events that carry one (found by a byte search first: most events carry none). With
 * `stripUsageChunk`, what an OpenAI stream adds when asked for usage (asked for upstream by the
 * server when the client did not) is left out of what the client gets: the usage-only last chunk,
 * and the `"usage":null` field of the others. (A quote inside a JSON string is escaped, so the
 * bytes `,"usage":null` are always that field.)
 */
export class PassThroughRelay implements AnswerRelay {
  readonly path: string;
  readonly #format: WireFormat;
  readonly #client: ClientProtocol;
  readonly #strip: boolean;
  #usage: Usage | undefined;

  constructor(path: string, format: WireFormat, client: ClientProtocol, stripUsageChunk = false) {
    this.path = path;
    this.#format = format;
    this.#client = client;
    this.#strip = stripUsageChunk;
  }

  get usage(): Usage | undefined {
    return this.#usage;
  }

  whole(payload: Buffer, answer: Record<string, unknown>): Buffer {
    const usage = answer.usage;
    if (usage !== undefined) {
      this.#usage =
        this.#format === 'anthropic' ? usageFromAnthropic(usage) : usageFromOpenAi(usage);
    }
    return payload;
  }

  error(status: number, payload: Buffer, target: Target): Buffer {
    return this.#client.upstreamError(status, payload, target);
  }

  events(chunk: Buffer): Buffer {
    if (this.#strip) chunk = withoutNullUsage(chunk);
    if (chunk.indexOf(USAGE_KEY) < 0) return chunk;
    let stripped = false;
    let kept = '';
    for (const { event, data } of sseEvents(chunk.toString('utf8'))) {
      const value = data.includes('"usage"') ? jsonData(data) : undefined;
      if (value === undefined) {
        kept += event ? `event: ${event}\ndata: ${data}\n\n` : `data: ${data}\n\n`;
        continue;
      }
      if (this.#format === 'anthropic') {
        const message = value.message as { usage?: unknown } | undefined;
        const usage = usageFromAnthropic(
          value.type === 'message_start' ? message?.usage : value.usage,
        );
        this.#usage = mergeUsage(this.#usage, usage);
      } else {
        // The Responses API's last event carries the usage of its whole response.
        const response = value.response as { usage?: unknown } | undefined;
        const usage = usageFromOpenAi(value.usage ?? response?.usage);
        if (usage) this.#usage = usage;
        if (this.#strip && usage && Array.isArray(value.choices) && value.choices.length === 0) {
          stripped = true;
          continue;
        }
      }
      kept += event ? `event: ${event}\ndata: ${data}\n\n` : `data: ${data}\n\n`;
    }
    // Unchanged unless a chunk was left out: the client gets the upstream's own bytes.
    return stripped ? Buffer.from(kept) : chunk;
  }

  end(): Buffer | undefined {
    return undefined;
  }

  streamError(message: string, code: string): Buffer {
    return this.#client.streamError(message, code);
  }
}

/** `chunk` without its `,"usage":null` fields (the same buffer when it has none). */
function withoutNullUsage(chunk: Buffer): Buffer {
  let at = chunk.indexOf(NULL_USAGE);
  if (at < 0) return chunk;
  const pieces: Buffer[] = [];
  let from = 0;
  while (at >= 0) {
    pieces.push(chunk.subarray(from, at));
    from = at + NULL_USAGE.length;
    at = chunk.indexOf(NULL_USAGE, from);
  }
  pieces.push(chunk.subarray(from));
  return Buffer.concat(pieces);
}

/** Translates an answer between wire formats: Anthropic → OpenAI, or OpenAI → Anthropic. */
export class TranslatingRelay implements AnswerRelay {
  readonly path: string;
  readonly #client: ClientProtocol;
  readonly #stream: AnthropicToOpenAiStream | OpenAiToAnthropicStream;
  #usage: Usage | undefined;

  /**
   * `client` is the client's protocol (the answer is translated into its format from the other);
   * `includeUsage`: an OpenAI client asked for the usage chunk of a stream.
   */
  constructor(path: string, client: ClientProtocol, includeUsage: boolean) {
    this.path = path;
    this.#client = client;
    this.#stream =
      client.format === 'openai'
        ? new AnthropicToOpenAiStream(includeUsage)
        : new OpenAiToAnthropicStream();
  }

  get usage(): Usage | undefined {
    return this.#usage ?? this.#stream.usage;
  }

  whole(_payload: Buffer, value: Record<string, unknown>): Buffer {
    const translated =
      this.#client.format === 'openai'
        ? chatCompletionFromMessage(value)
        : messageFromChatCompletion(value);
    this.#usage = translated.usage;
    return Buffer.from(JSON.stringify(translated.body));
  }

  error(status: number, payload: Buffer, target: Target): Buffer {
    return this.#client.upstreamError(status, payload, target);
  }

  events(chunk: Buffer): Buffer {
    return this.#stream.pushBytes(chunk);
  }

  end(): Buffer | undefined {
    const out = this.#stream.end();
    return out.length === 0 ? undefined : Buffer.from(out);
  }

  streamError(message: string, code: string): Buffer {
    return this.#client.streamError(message, code);
  }
}
