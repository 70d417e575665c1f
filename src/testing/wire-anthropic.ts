import type { JsonSchema } from '../llm/types.js';
import type { FakeMessage, FakeUsage } from './fake-types.js';
import {
  contentText,
  type EncodedBody,
  isRecord,
  type ParsedChat,
  type ReplyContent,
  streamDeltas,
  type WireFormatEncoder,
} from './wire-shared.js';

/** Anthropic Messages (`POST /v1/messages`), JSON and the SSE event stream. */
export const anthropicWire: WireFormatEncoder = {
  parse(body: unknown): ParsedChat {
    const b = isRecord(body) ? body : {};
    const messages: FakeMessage[] = [];
    if (Array.isArray(b.messages)) {
      for (const m of b.messages) {
        if (!isRecord(m)) continue;
        messages.push({
          role: typeof m.role === 'string' ? m.role : 'user',
          content: contentText(m.content),
        });
      }
    }
    const system = b.system === undefined ? undefined : contentText(b.system);
    const forced = forcedTool(b);
    return {
      ...(typeof b.model === 'string' ? { model: b.model } : {}),
      ...(system === undefined ? {} : { system }),
      messages,
      stream: b.stream === true,
      ...(forced ? { schema: forced.schema, toolName: forced.name } : {}),
    };
  },

  encode(reply: ReplyContent): EncodedBody {
    const id = `msg_fake${reply.request.seq}`;
    const toolName = reply.request.toolName;
    const useTool = reply.isJson && toolName !== undefined;
    const stopReason = useTool ? 'tool_use' : (reply.finishReason ?? 'end_turn');
    const block = useTool
      ? {
          type: 'tool_use',
          id: `toolu_fake${reply.request.seq}`,
          name: toolName,
          input: reply.json,
        }
      : { type: 'text', text: reply.text };
    if (!reply.request.stream) {
      const body = {
        id,
        type: 'message',
        role: 'assistant',
        model: reply.model,
        content: [block],
        stop_reason: stopReason,
        stop_sequence: null,
        usage: { ...inputUsage(reply.usage), output_tokens: reply.usage.outputTokens },
      };
      return { contentType: 'application/json', pieces: [JSON.stringify(body)], streamed: false };
    }
    const pieces = [
      event('message_start', {
        type: 'message_start',
        message: {
          id,
          type: 'message',
          role: 'assistant',
          model: reply.model,
          content: [],
          stop_reason: null,
          stop_sequence: null,
          usage: { ...inputUsage(reply.usage), output_tokens: 1 },
        },
      }),
      event('content_block_start', {
        type: 'content_block_start',
        index: 0,
        content_block: useTool ? { ...block, input: {} } : { type: 'text', text: '' },
      }),
      event('ping', { type: 'ping' }),
    ];
    for (const delta of streamDeltas(reply.text)) {
      pieces.push(
        event('content_block_delta', {
          type: 'content_block_delta',
          index: 0,
          delta: useTool
            ? { type: 'input_json_delta', partial_json: delta }
            : { type: 'text_delta', text: delta },
        }),
      );
    }
    pieces.push(
      event('content_block_stop', { type: 'content_block_stop', index: 0 }),
      event('message_delta', {
        type: 'message_delta',
        delta: { stop_reason: stopReason, stop_sequence: null },
        // The current API repeats the input counts here; shown when the reply names cache counts.
        usage: {
          ...(hasCacheCounts(reply.usage) ? inputUsage(reply.usage) : {}),
          output_tokens: reply.usage.outputTokens,
        },
      }),
      event('message_stop', { type: 'message_stop' }),
    );
    return { contentType: 'text/event-stream; charset=utf-8', pieces, streamed: true };
  },

  error(status: number, message: string, type?: string): string {
    return JSON.stringify({
      type: 'error',
      error: { type: type ?? anthropicErrorType(status), message },
    });
  },
};

/** The input counts of a usage, as Anthropic writes them (cache counts only when given). */
function inputUsage(usage: FakeUsage): Record<string, number> {
  return {
    input_tokens: usage.inputTokens,
    ...(usage.cacheCreationInputTokens === undefined
      ? {}
      : { cache_creation_input_tokens: usage.cacheCreationInputTokens }),
    ...(usage.cachedInputTokens === undefined
      ? {}
      : { cache_read_input_tokens: usage.cachedInputTokens }),
  };
}

function hasCacheCounts(usage: FakeUsage): boolean {
  return usage.cachedInputTokens !== undefined || usage.cacheCreationInputTokens !== undefined;
}

function forcedTool(
  body: Record<string, unknown>,
): { name: string; schema: JsonSchema } | undefined {
  const choice = body.tool_choice;
  if (!isRecord(choice) || choice.type !== 'tool' || typeof choice.name !== 'string') return;
  if (!Array.isArray(body.tools)) return;
  for (const tool of body.tools) {
    if (isRecord(tool) && tool.name === choice.name && isRecord(tool.input_schema)) {
      return { name: choice.name, schema: tool.input_schema as JsonSchema };
    }
  }
  return;
}

function event(name: string, data: unknown): string {
  return `event: ${name}\ndata: ${JSON.stringify(data)}\n\n`;
}

function anthropicErrorType(status: number): string {
  switch (status) {
    case 400:
      return 'invalid_request_error';
    case 401:
      return 'authentication_error';
    case 403:
      return 'permission_error';
    case 404:
      return 'not_found_error';
    case 413:
      return 'request_too_large';
    case 429:
      return 'rate_limit_error';
    case 529:
      return 'overloaded_error';
    default:
      return status >= 500 ? 'api_error' : 'invalid_request_error';
  }
}
