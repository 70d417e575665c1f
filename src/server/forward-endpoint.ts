import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ParsedBody } from './body.js';
import type { Target } from './catalog.js';
import type { TierModel } from './config.js';
import { type ForwardedEndpoint, forwardedModels } from './config-endpoints.js';
import { HttpError } from './errors.js';
import { Exchange } from './exchange.js';
import { withModel } from './model-field.js';
import { OPENAI_CLIENT } from './protocols/client-protocol.js';
import { PassThroughRelay } from './protocols/relay.js';
import { type ProxyResult, proxyChat } from './proxy.js';
import { requestDeadline } from './request-deadline.js';
import type { Routing } from './routing.js';
import type { ServerContext } from './server-context.js';

/**
 * `POST /v1/embeddings` and `POST /v1/completions`: forwarded, without tier routing, to the models
 * configured under `forward` (the one the request names, or the first for `auto` or no model),
 * with the proxy's fallback (to the next listed model, before the first byte), deadline, limits
 * and usage counting. A request naming an unlisted model is a 404; an endpoint with no models
 * configured is a 404 saying how to configure it.
 */
export function registerForwarded(app: FastifyInstance, ctx: ServerContext): void {
  for (const endpoint of ['embeddings', 'completions'] as const) {
    const models = forwardedModels(ctx.config, endpoint);
    app.post(`/v1/${endpoint}`, (request, reply) => forward(ctx, endpoint, models, request, reply));
  }
}

/** The label the tier takes in metrics and usage for requests that are not tier-routed. */
const NO_TIER = 'none';

function targetsOf(
  endpoint: ForwardedEndpoint,
  models: readonly TierModel[],
  requested: unknown,
): Target[] {
  if (models.length === 0) {
    throw new HttpError(
      404,
      'endpoint_not_configured',
      `/v1/${endpoint} is not configured: list the models it may use under forward.${endpoint}.models`,
    );
  }
  const all = models.map((model) => ({ tier: 'SIMPLE' as const, model }));
  if (requested === undefined || requested === null || requested === 'auto') return all;
  const named = all.find((t) => t.model.model === requested || t.model.id === requested);
  if (named === undefined) {
    throw new HttpError(
      404,
      'model_not_found',
      `model '${String(requested).slice(0, 100)}' is not configured for /v1/${endpoint} (configured: ${models.map((m) => m.id).join(', ')})`,
      { param: 'model' },
    );
  }
  return [named];
}

async function forward(
  ctx: ServerContext,
  endpoint: ForwardedEndpoint,
  models: readonly TierModel[],
  request: FastifyRequest,
  reply: FastifyReply,
): Promise<void> {
  const started = performance.now();
  const { json, raw, modelValue } = (request.body ?? {}) as Partial<ParsedBody>;
  if (raw === undefined || typeof json !== 'object' || json === null || Array.isArray(json)) {
    throw new HttpError(400, 'invalid_body', 'request body must be a JSON object');
  }
  const body = json as Record<string, unknown>;
  const targets = targetsOf(endpoint, models, body.model);
  const deadline = requestDeadline(request.headers, ctx.config.server.deadlineMs, started);
  const client = ctx.accounting.clientOf(request.headers);
  const admitted = ctx.accounting.admit(client);
  if (admitted !== undefined) await admitted;
  const routing: Routing = {
    decision: {
      tier: 'SIMPLE',
      chain: ['SIMPLE'],
      forced: false,
      confidence: 1,
      signals: [`forwarded ${endpoint} endpoint`],
      source: 'passthrough',
      llmChecked: false,
      llmOverrode: false,
      llmMs: 0,
    },
    targets,
    decideMs: 0,
  };
  const exchange = new Exchange(reply.raw, ctx.exchanges);
  reply.hijack();
  ctx.metrics.inFlight.inc();
  let result: ProxyResult | undefined;
  try {
    result = await proxyChat(exchange, routing, { model: body.model, messages: [] }, raw, {
      upstreams: ctx.upstreams,
      decisionHeaders: false,
      onFailure: ctx.metrics.failed.bind(ctx.metrics),
      breaker: ctx.breaker,
      onSkip: ctx.metrics.skipped.bind(ctx.metrics),
      deadline,
      prepare: (target, upstream) => {
        return {
          body:
            body.model === target.model.model
              ? raw
              : withModel(raw, target.model.model, modelValue),
          relay: new PassThroughRelay(`${upstream.basePath}/${endpoint}`, 'openai', OPENAI_CLIENT),
        };
      },
    });
  } catch (error) {
    ctx.logger.error({ reqId: request.id, err: error }, 'forwarding failed');
    ctx.metrics.errors.inc({ kind: 'internal' });
    if (!reply.raw.headersSent) {
      reply.raw.writeHead(500, { 'content-type': 'application/json' });
      reply.raw.end(
        JSON.stringify(OPENAI_CLIENT.errorBody('internal error', 'server_error', 'internal')),
      );
    } else reply.raw.destroy();
  } finally {
    ctx.metrics.inFlight.dec();
  }
  const model = result?.answeredBy?.model.id ?? 'none';
  const status = result?.status ?? 500;
  ctx.metrics.requests.inc({ endpoint, tier: NO_TIER, model, status: status === 0 ? 499 : status });
  if (result?.outcome.kind === 'answered') {
    ctx.accounting.answered({ model, tier: NO_TIER, client }, result.usage);
  }
}
