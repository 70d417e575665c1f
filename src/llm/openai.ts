import { schemaInstruction } from './output.js';
import type { CompletionRequest } from './types.js';
import { bearer, defined, isRecord, usageOf, type WireAdapter, type WireReply } from './wire.js';

/**
 * How structured output is asked of an OpenAI-compatible server:
 * - `json_schema`: `response_format: {type: "json_schema"}` with the schema (OpenAI, vLLM,
 *   LM Studio, Ollama /v1, most OpenRouter models);
 * - `json_object`: `response_format: {type: "json_object"}` plus the schema in the system prompt
 *   (older servers and models that only have JSON mode);
 * - `prompt`: the schema in the system prompt only (servers that reject `response_format`).
 * Whatever the mode, the reply is parsed and validated against the schema.
 */
export type OpenAiStructuredOutput = 'json_schema' | 'json_object' | 'prompt';

/** Options of the OpenAI-compatible wire format. */
export interface OpenAiWireOptions {
  readonly structuredOutput?: OpenAiStructuredOutput;
  /**
   * Sets `strict: true` on the JSON schema (OpenAI then guarantees the shape, but accepts only
   * schemas where every property is required and `additionalProperties` is false).
   */
  readonly strictSchema?: boolean;
  /** The field the token limit goes in: newer OpenAI models want `max_completion_tokens`. */
  readonly maxTokensField?: 'max_tokens' | 'max_completion_tokens';
}

/** OpenAI chat completions: `POST {baseUrl}/chat/completions`, key as a Bearer token. */
export function openAiWire(options: OpenAiWireOptions = {}): WireAdapter {
  const mode = options.structuredOutput ?? 'json_schema';
  const maxTokensField = options.maxTokensField ?? 'max_tokens';
  return {
    path: '/chat/completions',
    headers: bearer,
    body(request: CompletionRequest, model: string): unknown {
      const schema = request.schema;
      const system =
        schema && mode !== 'json_schema'
          ? [request.system, schemaInstruction(schema)].filter(Boolean).join('\n\n')
          : request.system;
      const messages: { role: string; content: string }[] = system
        ? [{ role: 'system', content: system }]
        : [];
      for (const message of request.messages) messages.push(message);
      let responseFormat: unknown;
      if (schema && mode === 'json_schema') {
        responseFormat = {
          type: 'json_schema',
          json_schema: {
            name: schemaName(request.schemaName),
            schema,
            ...(options.strictSchema ? { strict: true } : {}),
          },
        };
      } else if (schema && mode === 'json_object') responseFormat = { type: 'json_object' };
      return {
        model,
        messages,
        ...defined(maxTokensField, request.maxTokens),
        ...defined('temperature', request.temperature),
        ...defined('seed', request.seed),
        ...defined('response_format', responseFormat),
        stream: false,
      };
    },
    read(body: unknown): WireReply {
      const choice = isRecord(body) && Array.isArray(body.choices) ? body.choices[0] : undefined;
      const message = isRecord(choice) ? choice.message : undefined;
      if (!isRecord(body) || !isRecord(message))
        throw new Error('response has no choices[0].message');
      const finishReason =
        isRecord(choice) && typeof choice.finish_reason === 'string'
          ? choice.finish_reason
          : undefined;
      if (typeof message.content !== 'string') {
        throw new Error(
          typeof message.refusal === 'string' ? 'the model refused to answer' : 'reply has no text',
        );
      }
      const usage = isRecord(body.usage)
        ? usageOf(body.usage.prompt_tokens, body.usage.completion_tokens)
        : undefined;
      return {
        text: message.content,
        ...defined('usage', usage),
        ...defined('model', typeof body.model === 'string' ? body.model : undefined),
        ...defined('finishReason', finishReason),
      };
    },
  };
}

/** A schema / tool name the wire formats accept: `[A-Za-z0-9_-]{1,64}`. */
export function schemaName(name: string | undefined): string {
  const cleaned = (name ?? 'answer').replace(/[^A-Za-z0-9_-]/g, '_').slice(0, 64);
  return cleaned.length > 0 ? cleaned : 'answer';
}
