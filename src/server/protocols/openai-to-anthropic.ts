import { chatTextLiteral } from './chat-text-delta.js';
import {
  type ByteTranslator,
  type EventSpan,
  newSpan,
  type TranslatedBytes,
  translateBytes,
} from './event-bytes.js';
import { jsonData, namedEvent, sseEvents } from './sse-events.js';
import { anthropicStopReason } from './stop-reasons.js';
import { anthropicUsage, NO_USAGE, type Usage, usageFromOpenAi } from './usage.js';

/**
 * An OpenAI chat completion as an Anthropic Messages answer, for an Anthropic-style client whose
 * request went to an OpenAI-compatible upstream: the whole JSON completion, or its chunks
 * translated into Anthropic's events (`message_start`, a `content_block_start`/`_delta`/`_stop`
 * per text or tool-use block, `message_delta` with the stop reason and usage, `message_stop`).
 */

type Json = Record<string, unknown>;

function isRecord(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function parsedInput(value: unknown): unknown {
  if (typeof value !== 'string' || value.length === 0) return {};
  try {
    return JSON.parse(value);
  } catch {
    return {};
  }
}

/** `msg_…`: Anthropic's ids, which some clients check the prefix of. */
function messageId(id: unknown): string {
  return typeof id === 'string' && id.startsWith('msg_') ? id : `msg_${String(id ?? 'triage')}`;
}

/** A whole chat completion as an Anthropic message, and the usage it reported. */
export function messageFromChatCompletion(completion: Json): { body: Json; usage?: Usage } {
  const choice = Array.isArray(completion.choices) ? completion.choices[0] : undefined;
  const message = isRecord(choice) && isRecord(choice.message) ? choice.message : {};
  const content: Json[] = [];
  if (typeof message.content === 'string' && message.content.length > 0) {
    content.push({ type: 'text', text: message.content });
  }
  if (Array.isArray(message.tool_calls)) {
    for (const call of message.tool_calls) {
      if (!isRecord(call) || !isRecord(call.function)) continue;
      content.push({
        type: 'tool_use',
        id: call.id,
        name: call.function.name,
        input: parsedInput(call.function.arguments),
      });
    }
  }
  const usage = usageFromOpenAi(completion.usage);
  const body: Json = {
    id: messageId(completion.id),
    type: 'message',
    role: 'assistant',
    model: completion.model,
    content,
    stop_reason: anthropicStopReason(isRecord(choice) ? choice.finish_reason : undefined),
    stop_sequence: null,
    usage: anthropicUsage(usage ?? NO_USAGE),
  };
  return usage ? { body, usage } : { body };
}

/** Translates chat-completion chunks into Anthropic events, one piece of complete events at a time. */
export class OpenAiToAnthropicStream implements ByteTranslator {
  #started = false;
  #done = false;
  /** Index of the next content block; the open block's kind and, for a tool, its call index. */
  #blocks = 0;
  #open: { kind: 'text' } | { kind: 'tool'; call: number } | undefined;
  #finish: string | undefined;
  #usage: Usage | undefined;
  /** A text delta event of the open block up to its text, and the block index it was made for. */
  #textHead = Buffer.alloc(0);
  #textHeadBlock = -1;
  /** Where the event being read lies (reused: one per stream, not one per event). */
  readonly #span = newSpan();

  /** The usage reported so far. */
  get usage(): Usage | undefined {
    return this.#usage;
  }

  /** The events of a piece of the upstream stream (complete chunks): the general path. */
  push(text: string): string {
    let out = '';
    for (const { data } of sseEvents(text)) out += this.event('', data);
    return out;
  }

  /**
   * The events of a piece of the upstream stream (complete chunks), from its bytes and as bytes:
   * byte for byte what {@link push} writes for the same piece, with the text chunks of an open
   * text block read without decoding or parsing them.
   */
  pushBytes(chunk: Buffer): Buffer {
    return translateBytes(chunk, this.#span, this);
  }

  /** The fast path of {@link pushBytes}: a text chunk while a text block is open. */
  fastEvent(chunk: Buffer, span: EventSpan, out: TranslatedBytes): boolean {
    if (this.#open?.kind !== 'text' || this.#done) return false;
    const text = chatTextLiteral(chunk, span.dataStart, span.dataEnd);
    if (text === undefined) return false;
    // An empty text says nothing, as in the general path.
    if (text.length > 2) {
      out.add(this.#textDeltaHead());
      out.add(text);
      out.add(EVENT_TAIL);
    }
    return true;
  }

  /** A text delta event of the open block up to its text: as `namedEvent` writes it. */
  #textDeltaHead(): Buffer {
    const block = this.#blocks - 1;
    if (this.#textHeadBlock !== block) {
      this.#textHeadBlock = block;
      this.#textHead = Buffer.from(
        'event: content_block_delta\ndata: {"type":"content_block_delta",' +
          `"index":${block},"delta":{"type":"text_delta","text":`,
      );
    }
    return this.#textHead;
  }

  /** The general path for one event (its name is not read: chunks have none). */
  event(_name: string, data: string): string {
    if (data === '[DONE]') return this.end();
    const chunk = jsonData(data);
    return chunk === undefined ? '' : this.#chunk(chunk);
  }

  /** What is left to send when the upstream stream ended. */
  end(): string {
    if (this.#done || !this.#started) return '';
    this.#done = true;
    return (
      this.#close() +
      namedEvent({
        type: 'message_delta',
        delta: { stop_reason: anthropicStopReason(this.#finish), stop_sequence: null },
        usage: anthropicUsage(this.#usage ?? NO_USAGE),
      }) +
      namedEvent({ type: 'message_stop' })
    );
  }

  #chunk(chunk: Json): string {
    if (this.#done) return '';
    if (isRecord(chunk.error)) {
      this.#done = true;
      const message = typeof chunk.error.message === 'string' ? chunk.error.message : 'error';
      return namedEvent({ type: 'error', error: { type: 'api_error', message } });
    }
    let out = '';
    if (!this.#started) {
      this.#started = true;
      out += namedEvent({
        type: 'message_start',
        message: {
          id: messageId(chunk.id),
          type: 'message',
          role: 'assistant',
          model: chunk.model,
          content: [],
          stop_reason: null,
          stop_sequence: null,
          usage: { input_tokens: 0, output_tokens: 0 },
        },
      });
    }
    const usage = usageFromOpenAi(chunk.usage);
    if (usage) this.#usage = usage;
    const choice = Array.isArray(chunk.choices) ? chunk.choices[0] : undefined;
    if (!isRecord(choice)) return out;
    const delta = isRecord(choice.delta) ? choice.delta : {};
    if (typeof delta.content === 'string' && delta.content.length > 0) {
      if (this.#open?.kind !== 'text') {
        out += this.#close();
        out += this.#start({ type: 'text', text: '' });
        this.#open = { kind: 'text' };
      }
      out += namedEvent({
        type: 'content_block_delta',
        index: this.#blocks - 1,
        delta: { type: 'text_delta', text: delta.content },
      });
    }
    if (Array.isArray(delta.tool_calls)) {
      for (const call of delta.tool_calls) {
        if (!isRecord(call)) continue;
        const index = typeof call.index === 'number' ? call.index : 0;
        const fn = isRecord(call.function) ? call.function : {};
        if (this.#open?.kind !== 'tool' || this.#open.call !== index) {
          out += this.#close();
          out += this.#start({ type: 'tool_use', id: call.id, name: fn.name, input: {} });
          this.#open = { kind: 'tool', call: index };
        }
        if (typeof fn.arguments === 'string' && fn.arguments.length > 0) {
          out += namedEvent({
            type: 'content_block_delta',
            index: this.#blocks - 1,
            delta: { type: 'input_json_delta', partial_json: fn.arguments },
          });
        }
      }
    }
    if (typeof choice.finish_reason === 'string') this.#finish = choice.finish_reason;
    return out;
  }

  #start(block: Json): string {
    return namedEvent({ type: 'content_block_start', index: this.#blocks++, content_block: block });
  }

  #close(): string {
    if (this.#open === undefined) return '';
    this.#open = undefined;
    return namedEvent({ type: 'content_block_stop', index: this.#blocks - 1 });
  }
}

/** What follows a text delta event's text. */
const EVENT_TAIL = Buffer.from('}}\n\n');
