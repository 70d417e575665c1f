import { schemaName } from './openai.js';
import type { CompletionRequest, JsonSchema } from './types.js';
import { defined, isRecord, usageOf, type WireAdapter, type WireReply } from './wire.js';

/** The Messages API version sent in `anthropic-version` (override it through `headers`). */
export const ANTHROPIC_VERSION = '2023-06-01';
/** Anthropic requires `max_tokens`; this is sent when a request gives none. */
export const ANTHROPIC_DEFAULT_MAX_TOKENS = 1024;

/**
 * Anthropic Messages: `POST {baseUrl}/v1/messages`, key in `x-api-key`.
 *
 * Structured output is a forced tool call: the schema becomes the input schema of one tool and
 * `tool_choice` forces the model to call it, so the answer arrives as the tool's `input`, already
 * parsed, with no prose or code fences around it. This works on every Claude model with tool use
 * (an instruction in the prompt would leave the model free to add prose, and is kept only as the
 * fallback: a reply without the tool call has JSON read from its text). Tool input is not
 * guaranteed to match the schema, so it is validated like any other reply. Tool input must be an
 * object: a schema whose root is not an object is wrapped as `{value: …}` and unwrapped on
 * return. (Forced tool use cannot be combined with extended thinking.)
 */
export function anthropicWire(): WireAdapter {
  return {
    path: '/v1/messages',
    headers: (apiKey) => ({
      'anthropic-version': ANTHROPIC_VERSION,
      ...(apiKey ? { 'x-api-key': apiKey } : {}),
    }),
    body(request: CompletionRequest, model: string): unknown {
      const schema = request.schema;
      const tool = schema ? schemaName(request.schemaName) : undefined;
      return {
        model,
        max_tokens: request.maxTokens ?? ANTHROPIC_DEFAULT_MAX_TOKENS,
        ...defined('system', request.system || undefined),
        messages: request.messages,
        ...defined('temperature', request.temperature),
        ...(schema && tool
          ? {
              tools: [
                {
                  name: tool,
                  description: 'Report the answer in this structure.',
                  input_schema: toolSchema(schema),
                },
              ],
              tool_choice: { type: 'tool', name: tool },
            }
          : {}),
      };
    },
    read(body: unknown, request: CompletionRequest): WireReply {
      if (!isRecord(body) || !Array.isArray(body.content))
        throw new Error('response has no content');
      const texts: string[] = [];
      let input: unknown;
      let called = false;
      for (const block of body.content) {
        if (!isRecord(block)) continue;
        if (block.type === 'text' && typeof block.text === 'string') texts.push(block.text);
        else if (block.type === 'tool_use' && !called && request.schema) {
          called = true;
          input =
            wrapsRoot(request.schema) && isRecord(block.input) ? block.input.value : block.input;
        }
      }
      const usage = isRecord(body.usage)
        ? usageOf(body.usage.input_tokens, body.usage.output_tokens)
        : undefined;
      return {
        text: called ? JSON.stringify(input ?? null) : texts.join(''),
        ...(called ? { json: input ?? null } : {}),
        ...defined('usage', usage),
        ...defined('model', typeof body.model === 'string' ? body.model : undefined),
        ...defined(
          'finishReason',
          typeof body.stop_reason === 'string' ? body.stop_reason : undefined,
        ),
      };
    },
  };
}

function wrapsRoot(schema: JsonSchema): boolean {
  return schema.type !== 'object';
}

function toolSchema(schema: JsonSchema): JsonSchema {
  return wrapsRoot(schema)
    ? { type: 'object', properties: { value: schema }, required: ['value'] }
    : schema;
}
