import type { CompletionRequest } from './types.js';
import { bearer, defined, isRecord, usageOf, type WireAdapter, type WireReply } from './wire.js';

/**
 * Ollama's native chat: `POST {baseUrl}/api/chat` with `stream: false`. The JSON Schema goes in
 * `format`, which Ollama enforces with constrained decoding; sampling settings go in `options`
 * (`num_predict` is the token limit), over the configured `options` (`num_ctx`, `top_p`, …). A key,
 * when configured (an Ollama behind a proxy), is sent as a Bearer token.
 */
export function ollamaWire(configured: Readonly<Record<string, unknown>> = {}): WireAdapter {
  return {
    path: '/api/chat',
    headers: bearer,
    body(request: CompletionRequest, model: string): unknown {
      const messages: { role: string; content: string }[] = request.system
        ? [{ role: 'system', content: request.system }]
        : [];
      for (const message of request.messages) messages.push(message);
      const options = {
        ...configured,
        ...defined('temperature', request.temperature),
        ...defined('seed', request.seed),
        ...defined('num_predict', request.maxTokens),
      };
      return {
        model,
        messages,
        stream: false,
        ...defined('format', request.schema),
        ...(Object.keys(options).length > 0 ? { options } : {}),
      };
    },
    read(body: unknown): WireReply {
      const message = isRecord(body) ? body.message : undefined;
      if (!isRecord(body) || !isRecord(message) || typeof message.content !== 'string') {
        throw new Error('response has no message.content');
      }
      return {
        text: message.content,
        ...defined('usage', usageOf(body.prompt_eval_count, body.eval_count)),
        ...defined('model', typeof body.model === 'string' ? body.model : undefined),
        ...defined(
          'finishReason',
          typeof body.done_reason === 'string' ? body.done_reason : undefined,
        ),
      };
    },
  };
}
