import type { JsonSchema } from '../llm/types.js';
import {
  type EncodedBody,
  FAKE_CREATED_AT,
  isRecord,
  type ParsedChat,
  type ReplyContent,
  splitSystemMessages,
  streamDeltas,
  type WireFormatEncoder,
} from './wire-shared.js';

/**
 * Ollama's native chat (`POST /api/chat`), JSON and NDJSON. As in Ollama, a request streams
 * unless it says `"stream": false`.
 */
export const ollamaWire: WireFormatEncoder = {
  parse(body: unknown): ParsedChat {
    const b = isRecord(body) ? body : {};
    const { system, messages } = splitSystemMessages(b.messages);
    return {
      ...(typeof b.model === 'string' ? { model: b.model } : {}),
      ...(system === undefined ? {} : { system }),
      messages,
      stream: b.stream !== false,
      ...(isRecord(b.format) ? { schema: b.format as JsonSchema } : {}),
    };
  },

  encode(reply: ReplyContent): EncodedBody {
    const done = {
      done_reason: reply.finishReason ?? 'stop',
      done: true,
      total_duration: 1_000_000,
      load_duration: 100_000,
      prompt_eval_count: reply.usage.inputTokens,
      prompt_eval_duration: 200_000,
      eval_count: reply.usage.outputTokens,
      eval_duration: 700_000,
    };
    const line = (content: string, extra?: object) =>
      `${JSON.stringify({
        model: reply.model,
        created_at: FAKE_CREATED_AT,
        message: { role: 'assistant', content },
        ...(extra ?? { done: false }),
      })}\n`;
    if (!reply.request.stream) {
      return {
        contentType: 'application/json; charset=utf-8',
        pieces: [line(reply.text, done).trimEnd()],
        streamed: false,
      };
    }
    const pieces = streamDeltas(reply.text).map((delta) => line(delta));
    pieces.push(line('', done));
    return { contentType: 'application/x-ndjson', pieces, streamed: true };
  },

  error(_status: number, message: string): string {
    return JSON.stringify({ error: message });
  },
};
