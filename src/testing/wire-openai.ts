import type { JsonSchema } from '../llm/types.js';
import type { FakeUsage } from './fake-types.js';
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
    const forced = forcedFunction(b);
    return {
      ...(typeof b.model === 'string' ? { model: b.model } : {}),
      ...(system === undefined ? {} : { system }),
      messages,
      stream: b.stream === true,
      ...(isRecord(jsonSchema) ? { schema: jsonSchema as JsonSchema } : {}),
      ...(forced ? { schema: forced.schema, toolName: forced.name } : {}),
    };
  },

  encode(reply: ReplyContent): EncodedBody {
    const id = `chatcmpl-fake${reply.request.seq}`;
    const toolName = reply.request.toolName;
    const useTool = reply.isJson && toolName !== undefined;
    const callId = `call_fake${reply.request.seq}`;
    const finish = reply.finishReason ?? (useTool ? 'tool_calls' : 'stop');
    const usage = openAiUsage(reply.usage);
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
            message: useTool
              ? {
                  role: 'assistant',
                  content: null,
                  tool_calls: [
                    {
                      id: callId,
                      type: 'function',
                      function: { name: toolName, arguments: reply.text },
                    },
                  ],
                  refusal: null,
                }
              : { role: 'assistant', content: reply.text, refusal: null },
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
    const pieces = [
      chunk({ role: 'assistant', content: useTool ? null : '', refusal: null }, null),
    ];
    if (useTool) {
      pieces.push(
        chunk(
          {
            tool_calls: [
              {
                index: 0,
                id: callId,
                type: 'function',
                function: { name: toolName, arguments: '' },
              },
            ],
          },
          null,
        ),
      );
    }
    for (const delta of streamDeltas(reply.text)) {
      pieces.push(
        chunk(
          useTool
            ? { tool_calls: [{ index: 0, function: { arguments: delta } }] }
            : { content: delta },
          null,
        ),
      );
    }
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

/**
 * A reply's usage as OpenAI writes it: the prompt counts every input token, cache reads and
 * writes included; the cache reads are also given apart, when there are any to tell.
 */
function openAiUsage(usage: FakeUsage): Record<string, unknown> {
  const cached = usage.cachedInputTokens;
  const prompt = usage.inputTokens + (cached ?? 0) + (usage.cacheCreationInputTokens ?? 0);
  return {
    prompt_tokens: prompt,
    completion_tokens: usage.outputTokens,
    total_tokens: prompt + usage.outputTokens,
    ...(cached === undefined ? {} : { prompt_tokens_details: { cached_tokens: cached } }),
  };
}

/** The function a request forces (`tool_choice: { type: 'function', function: { name } }`). */
function forcedFunction(
  body: Record<string, unknown>,
): { name: string; schema: JsonSchema } | undefined {
  const choice = body.tool_choice;
  if (!isRecord(choice) || !isRecord(choice.function)) return;
  const name = choice.function.name;
  if (typeof name !== 'string' || !Array.isArray(body.tools)) return;
  for (const tool of body.tools) {
    if (isRecord(tool) && isRecord(tool.function) && tool.function.name === name) {
      const parameters = tool.function.parameters;
      return { name, schema: (isRecord(parameters) ? parameters : {}) as JsonSchema };
    }
  }
  return;
}

function openAiErrorType(status: number): string {
  if (status === 429) return 'rate_limit_exceeded';
  if (status === 401) return 'invalid_api_key';
  if (status >= 500) return 'server_error';
  return 'invalid_request_error';
}
