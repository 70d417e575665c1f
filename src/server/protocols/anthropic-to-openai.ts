import {
  type ByteTranslator,
  type EventSpan,
  newSpan,
  type TranslatedBytes,
  translateBytes,
} from './event-bytes.js';
import { dataEvent, jsonData, sseEvents } from './sse-events.js';
import { openAiFinishReason } from './stop-reasons.js';
import { isSilentEvent, textDeltaLiteral } from './text-delta.js';
import { mergeUsage, openAiUsage, type Usage, usageFromAnthropic } from './usage.js';

/**
 * An Anthropic Messages answer as an OpenAI chat completion, for a chat client whose request went
 * to an Anthropic upstream: the whole JSON message, or its event stream translated event by event
 * into chat-completion chunks. Text blocks become `content`, `tool_use` blocks `tool_calls`,
 * `stop_reason` the `finish_reason`, usage the OpenAI usage; thinking blocks are left out.
 */

type Json = Record<string, unknown>;

function isRecord(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function created(): number {
  return Math.floor(Date.now() / 1000);
}

/** A whole Anthropic message as a chat completion, and the usage it reported. */
export function chatCompletionFromMessage(message: Json): { body: Json; usage?: Usage } {
  let text = '';
  const toolCalls: Json[] = [];
  if (Array.isArray(message.content)) {
    for (const block of message.content) {
      if (!isRecord(block)) continue;
      if (block.type === 'text' && typeof block.text === 'string') text += block.text;
      else if (block.type === 'tool_use') {
        toolCalls.push({
          id: block.id,
          type: 'function',
          function: { name: block.name, arguments: JSON.stringify(block.input ?? {}) },
        });
      }
    }
  }
  const usage = usageFromAnthropic(message.usage);
  const body: Json = {
    id: message.id,
    object: 'chat.completion',
    created: created(),
    model: message.model,
    choices: [
      {
        index: 0,
        message: {
          role: 'assistant',
          content: text.length > 0 || toolCalls.length === 0 ? text : null,
          ...(toolCalls.length > 0 ? { tool_calls: toolCalls } : {}),
          refusal: null,
        },
        logprobs: null,
        finish_reason: openAiFinishReason(message.stop_reason),
      },
    ],
    ...(usage ? { usage: openAiUsage(usage) } : {}),
  };
  return usage ? { body, usage } : { body };
}

/**
 * Translates an Anthropic event stream into chat-completion chunks, one piece of complete events
 * at a time. `includeUsage`: the client asked for the usage chunk (`stream_options`); the usage
 * is read either way.
 */
export class AnthropicToOpenAiStream implements ByteTranslator {
  readonly #includeUsage: boolean;
  #id = 'chatcmpl-triage';
  #model = '';
  #created = 0;
  #usage: Usage | undefined;
  #finish: string | undefined;
  /** Tool-call index of each content block index that is a `tool_use`. */
  readonly #tools = new Map<number, number>();
  #done = false;
  /** A chunk up to its delta (set with the id, creation time and model). */
  #head = DEFAULT_HEAD;
  /** A text chunk up to its content. */
  #textHead = DEFAULT_TEXT_HEAD;
  /** Where the event being read lies (reused: one per stream, not one per event). */
  readonly #span = newSpan();

  constructor(includeUsage: boolean) {
    this.#includeUsage = includeUsage;
  }

  /** The usage reported so far. */
  get usage(): Usage | undefined {
    return this.#usage;
  }

  /** The chunks of a piece of the upstream stream (complete events): the general path. */
  push(text: string): string {
    let out = '';
    for (const { event, data } of sseEvents(text)) out += this.event(event, data);
    return out;
  }

  /**
   * The chunks of a piece of the upstream stream (complete events), from its bytes and as bytes:
   * byte for byte what {@link push} writes for the same piece, with the common events (text
   * deltas, and those that translate to nothing) read without decoding or parsing them.
   */
  pushBytes(chunk: Buffer): Buffer {
    return translateBytes(chunk, this.#span, this);
  }

  /** The fast path of {@link pushBytes}: a text delta, or an event that translates to nothing. */
  fastEvent(chunk: Buffer, span: EventSpan, out: TranslatedBytes): boolean {
    const text = textDeltaLiteral(chunk, span.dataStart, span.dataEnd);
    if (text === undefined) return isSilentEvent(chunk, span.dataStart, span.dataEnd);
    out.add(this.#textHead);
    out.add(text);
    out.add(TEXT_TAIL);
    return true;
  }

  /** What is left to send when the upstream stream ended. */
  end(): string {
    return this.#done ? '' : this.#finishChunks();
  }

  /** A chunk: what `dataEvent` writes for it (same fields, same order), from a prepared head. */
  #chunk(delta: Json, finish: string | null = null): string {
    return `${this.#head}${JSON.stringify(delta)},"logprobs":null,"finish_reason":${JSON.stringify(finish)}}]}\n\n`;
  }

  /** The general path for one event: its name (`''` for none) and its data. */
  event(event: string, data: string): string {
    const value = jsonData(data);
    if (value === undefined) return '';
    const type = typeof value.type === 'string' ? value.type : event;
    switch (type) {
      case 'message_start': {
        const message = isRecord(value.message) ? value.message : {};
        if (typeof message.id === 'string') this.#id = message.id;
        if (typeof message.model === 'string') this.#model = message.model;
        this.#created = created();
        this.#head = chunkHead(this.#id, this.#created, this.#model);
        this.#textHead = Buffer.from(`${this.#head}{"content":`);
        this.#usage = mergeUsage(this.#usage, usageFromAnthropic(message.usage));
        return this.#chunk({ role: 'assistant', content: '' });
      }
      case 'content_block_start': {
        const block = isRecord(value.content_block) ? value.content_block : {};
        if (block.type !== 'tool_use') return '';
        const index = this.#tools.size;
        this.#tools.set(Number(value.index), index);
        return this.#chunk({
          tool_calls: [
            {
              index,
              id: block.id,
              type: 'function',
              function: { name: block.name, arguments: '' },
            },
          ],
        });
      }
      case 'content_block_delta': {
        const delta = isRecord(value.delta) ? value.delta : {};
        if (delta.type === 'text_delta' && typeof delta.text === 'string') {
          return this.#chunk({ content: delta.text });
        }
        if (delta.type === 'input_json_delta' && typeof delta.partial_json === 'string') {
          const index = this.#tools.get(Number(value.index));
          if (index === undefined || delta.partial_json.length === 0) return '';
          return this.#chunk({
            tool_calls: [{ index, function: { arguments: delta.partial_json } }],
          });
        }
        return '';
      }
      case 'message_delta': {
        const delta = isRecord(value.delta) ? value.delta : {};
        if (delta.stop_reason !== undefined && delta.stop_reason !== null) {
          this.#finish = openAiFinishReason(delta.stop_reason);
        }
        this.#usage = mergeUsage(this.#usage, usageFromAnthropic(value.usage));
        return '';
      }
      case 'message_stop':
        return this.#finishChunks();
      case 'error': {
        this.#done = true;
        const error = isRecord(value.error) ? value.error : {};
        const message = typeof error.message === 'string' ? error.message : 'upstream error';
        const kind = typeof error.type === 'string' ? error.type : 'api_error';
        return dataEvent({ error: { message, type: kind, param: null, code: 'upstream_error' } });
      }
      default:
        return '';
    }
  }

  #finishChunks(): string {
    this.#done = true;
    let out = this.#chunk({}, this.#finish ?? 'stop');
    if (this.#includeUsage && this.#usage) {
      out += dataEvent({
        id: this.#id,
        object: 'chat.completion.chunk',
        created: this.#created,
        model: this.#model,
        choices: [],
        usage: openAiUsage(this.#usage),
      });
    }
    return `${out}data: [DONE]\n\n`;
  }
}

/** What follows a text chunk's content: as `dataEvent` writes a chunk (same fields, same order). */
const TEXT_TAIL = Buffer.from('},"logprobs":null,"finish_reason":null}]}\n\n');

/** What precedes a chunk's delta, as `dataEvent` writes a chunk. */
function chunkHead(id: string, createdAt: number, model: string): string {
  return (
    `data: {"id":${JSON.stringify(id)},"object":"chat.completion.chunk","created":${createdAt},` +
    `"model":${JSON.stringify(model)},"choices":[{"index":0,"delta":`
  );
}

const DEFAULT_HEAD = chunkHead('chatcmpl-triage', 0, '');
const DEFAULT_TEXT_HEAD = Buffer.from(`${DEFAULT_HEAD}{"content":`);
