import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { proxiedHandler } from './chat-endpoint.js';
import { withModel } from './model-field.js';
import { anthropicErrorBody, isOpenAiError } from './protocols/client-protocol.js';
import { estimateInputTokens } from './protocols/count-tokens.js';
import { MESSAGES } from './protocols/messages-inbound.js';
import type { ServerContext } from './server-context.js';

/**
 * `POST /v1/messages` (Anthropic Messages) and `POST /v1/messages/count_tokens`: what
 * Anthropic-style clients (Claude's SDKs, coding agents taking a base URL) send. Messages are
 * decided and proxied like chat completions; every error reaches the client in Anthropic's shape.
 */
export function registerMessages(app: FastifyInstance, ctx: ServerContext): void {
  const options = { preSerialization: inAnthropicShape };
  app.post('/v1/messages', options, proxiedHandler(ctx, MESSAGES));
  app.post('/v1/messages/count_tokens', options, (request, reply) =>
    countTokens(ctx, request, reply),
  );
}

/** The server's OpenAI-shaped errors (refusals, 400s, 401s, limits) in Anthropic's shape. */
function inAnthropicShape(
  _request: FastifyRequest,
  reply: FastifyReply,
  payload: unknown,
  done: (error: null, payload: unknown) => void,
): void {
  if (!isOpenAiError(payload)) done(null, payload);
  else done(null, anthropicErrorBody(payload.error.message, payload.error.type, reply.statusCode));
}

/**
 * Counts a Messages request's input tokens: forwarded to the model the request would be sent to
 * first, when its upstream is Anthropic's (its `/messages/count_tokens`), else estimated locally
 * ({@link estimateInputTokens}; the answer then carries `x-triage-estimate: true`).
 */
async function countTokens(
  ctx: ServerContext,
  request: FastifyRequest,
  reply: FastifyReply,
): Promise<unknown> {
  const inbound = MESSAGES.read(request.body);
  const routing = await ctx.router.route(inbound.chat, new AbortController());
  const target = routing.targets[0];
  if (target !== undefined && ctx.upstreams.get(target.model.provider).api === 'anthropic') {
    const upstream = ctx.upstreams.get(target.model.provider);
    const { raw, modelValue } = request.body as { raw: Buffer; modelValue: never };
    try {
      const answer = await upstream.pool.request({
        path: `${upstream.basePath}/messages/count_tokens`,
        method: 'POST',
        headers: upstream.headers,
        body: withModel(raw, target.model.model, modelValue),
        headersTimeout: target.model.timeoutMs,
      });
      const text = upstream.secrets.redactText(await answer.body.text());
      return reply
        .code(answer.statusCode)
        .header('content-type', 'application/json')
        .header('x-triage-model', target.model.id)
        .send(text);
    } catch {
      // The upstream could not be reached: the local estimate is better than no answer.
    }
  }
  return reply
    .header('x-triage-estimate', 'true')
    .send({ input_tokens: estimateInputTokens(inbound.chat) });
}
