import type { JsonSchema } from '../llm/types.js';
import {
  type EncodedBody,
  FAKE_CREATED,
  isRecord,
  type ParsedChat,
  type ReplyContent,
  splitSystemMessages,
  sseData,
  streamDeltas,
  type WireFormatEncoder,
} from './wire-shared.js';

/** OpenAI chat completions (`POST /v1/chat/completions`), JSON and SSE. */
export const openAiWire: WireFormatEncoder = {
  parse(body: unknown): ParsedChat {
    const b = isRecord(body) ? body : {};
    const { system, messages } = splitSystemMessages(b.messages);
    const format = isRecord(b.response_format) ? b.response_format : undefined;
    const jsonSchema =
      format?.type === 'json_schema' && isRecord(format.json_schema)
        ? format.json_schema.schema
        : undefined;
    return {
      ...(typeof b.model === 'string' ? { model: b.model } : {}),
      ...(system === undefined ? {} : { system }),
      messages,
      stream: b.stream === true,
      ...(isRecord(jsonSchema) ? { schema: jsonSchema as JsonSchema } : {}),
    };
  },

  encode(reply: ReplyContent): EncodedBody {
    const id = `chatcmpl-fake${reply.request.seq}`;
    const finish = reply.finishReason ?? 'stop';
    const usage = {
      prompt_tokens: reply.usage.inputTokens,
      completion_tokens: reply.usage.outputTokens,
      total_tokens: reply.usage.inputTokens + reply.usage.outputTokens,
    };
    if (!reply.request.stream) {
      const body = {
        id,
        object: 'chat.completion',
        created: FAKE_CREATED,
        model: reply.model,
        system_fingerprint: 'fp_fake',
        choices: [
          {
            index: 0,
            message: { role: 'assistant', content: reply.text, refusal: null },
            logprobs: null,
            finish_reason: finish,
          },
        ],
        usage,
      };
      return { contentType: 'application/json', pieces: [JSON.stringify(body)], streamed: false };
    }
    const options = isRecord(reply.request.body) ? reply.request.body.stream_options : undefined;
    const includeUsage = isRecord(options) && options.include_usage === true;
    const chunk = (delta: Record<string, unknown>, finishReason: string | null) =>
      sseData({
        id,
        object: 'chat.completion.chunk',
        created: FAKE_CREATED,
        model: reply.model,
        system_fingerprint: 'fp_fake',
        choices: [{ index: 0, delta, logprobs: null, finish_reason: finishReason }],
        ...(includeUsage ? { usage: null } : {}),
      });
    const pieces = [chunk({ role: 'assistant', content: '', refusal: null }, null)];
    for (const delta of streamDeltas(reply.text)) pieces.push(chunk({ content: delta }, null));
    pieces.push(chunk({}, finish));
    if (includeUsage) {
      pieces.push(
        sseData({
          id,
          object: 'chat.completion.chunk',
          created: FAKE_CREATED,
          model: reply.model,
          system_fingerprint: 'fp_fake',
          choices: [],
          usage,
        }),
      );
    }
    pieces.push('data: [DONE]\n\n');
    return { contentType: 'text/event-stream; charset=utf-8', pieces, streamed: true };
  },

  error(status: number, message: string, type?: string): string {
    return JSON.stringify({
      error: { message, type: type ?? openAiErrorType(status), param: null, code: null },
    });
  },
};

function openAiErrorType(status: number): string {
  if (status === 429) return 'rate_limit_exceeded';
  if (status === 401) return 'invalid_api_key';
  if (status >= 500) return 'server_error';
  return 'invalid_request_error';
}
