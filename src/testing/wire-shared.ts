import type { JsonSchema } from '../llm/types.js';
import type { FakeMessage, FakeRequest, FakeUsage } from './fake-types.js';

/** What a wire format reads from a request body, for the record and for handlers. */
export interface ParsedChat {
  readonly model?: string;
  readonly system?: string;
  readonly messages: readonly FakeMessage[];
  readonly stream: boolean;
  readonly schema?: JsonSchema;
  readonly toolName?: string;
}

/** The reply to encode, resolved from a behaviour. */
export interface ReplyContent {
  readonly request: FakeRequest;
  readonly model: string;
  /** The reply text (for a JSON reply, the serialised value). */
  readonly text: string;
  /** Set when the behaviour gave `json`. */
  readonly json?: unknown;
  readonly isJson: boolean;
  readonly usage: FakeUsage;
  readonly finishReason?: string;
}

/** An encoded body: one piece for a JSON answer, one piece per event for a stream. */
export interface EncodedBody {
  readonly contentType: string;
  readonly pieces: readonly string[];
  /** Streams are sent chunked; JSON bodies with a Content-Length. */
  readonly streamed: boolean;
}

/** One wire format, server side. */
export interface WireFormatEncoder {
  parse(body: unknown): ParsedChat;
  encode(reply: ReplyContent): EncodedBody;
  /** A provider-style error body. */
  error(status: number, message: string, type?: string): string;
}

/**
 * Timestamps in replies are fixed, so that the same script yields the same bytes on every run
 * (a routing server's tests compare streamed output byte for byte).
 */
export const FAKE_CREATED = 1_700_000_000;
export const FAKE_CREATED_AT = '2023-11-14T22:13:20Z';

const MAX_PIECE_CHARS = 16;

/**
 * Cuts a reply into stream deltas the way tokenisers do: words with their leading whitespace,
 * long words cut every 16 code points (never inside a surrogate pair). Deterministic.
 */
export function streamDeltas(text: string): string[] {
  const deltas: string[] = [];
  for (const word of text.match(/\s*\S+|\s+/gu) ?? []) {
    const chars = Array.from(word);
    for (let i = 0; i < chars.length; i += MAX_PIECE_CHARS) {
      deltas.push(chars.slice(i, i + MAX_PIECE_CHARS).join(''));
    }
  }
  return deltas;
}

/** A rough token count (4 characters a token), so that usage figures look plausible. */
export function estimateTokens(text: string): number {
  return Math.ceil(text.length / 4);
}

/** The text of a message content: a string, or an array of parts whose text parts are joined. */
export function contentText(content: unknown): string {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  const texts: string[] = [];
  for (const part of content) {
    if (isRecord(part) && typeof part.text === 'string') texts.push(part.text);
  }
  return texts.join('\n');
}

export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Reads `messages`, moving system messages into a joined system prompt (OpenAI, Ollama). */
export function splitSystemMessages(raw: unknown): {
  system?: string;
  messages: FakeMessage[];
} {
  const messages: FakeMessage[] = [];
  const system: string[] = [];
  if (Array.isArray(raw)) {
    for (const message of raw) {
      if (!isRecord(message)) continue;
      const role = typeof message.role === 'string' ? message.role : 'user';
      const content = contentText(message.content);
      if (role === 'system' || role === 'developer') system.push(content);
      else messages.push({ role, content });
    }
  }
  return system.length > 0 ? { system: system.join('\n'), messages } : { messages };
}

/** The text of the last user message. */
export function lastUserText(messages: readonly FakeMessage[]): string {
  for (let i = messages.length - 1; i >= 0; i--) {
    if (messages[i]?.role === 'user') return messages[i]?.content ?? '';
  }
  return '';
}

/** `data: …\n\n`, the SSE framing both OpenAI and Anthropic use. */
export function sseData(value: unknown): string {
  return `data: ${JSON.stringify(value)}\n\n`;
}
