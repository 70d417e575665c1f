import type { FastifyInstance } from 'fastify';
import { packageVersion } from '../core/package-root.js';
import { TIERS } from '../tier/tiers.js';
import type { ServerContext } from './server-context.js';

const VERSION = packageVersion();

/**
 * `GET /v1/models`, `GET /health` and `GET /metrics` (`metricsText`, when given, in place of this
 * server's own metrics).
 */
export function registerService(
  app: FastifyInstance,
  ctx: ServerContext,
  metricsText?: () => Promise<string>,
): void {
  const { catalog, metrics, tiers } = ctx;
  app.get('/v1/models', async () => ({
    object: 'list',
    data: [
      ...tiers.modelIds.map((id) => modelEntry(id, 'triage')),
      ...catalog.listed.map((m) => modelEntry(m.id, m.ownedBy)),
    ],
  }));

  app.get('/health', async () => ({
    status: 'ok',
    version: VERSION,
    tiers: Object.fromEntries(TIERS.map((tier) => [tier, catalog.modelsOf(tier).length])),
    llm_check: ctx.llmCheck,
  }));

  app.get('/metrics', async (_request, reply) => {
    const text = await (metricsText ?? (() => metrics.render()))();
    return reply.type(metrics.contentType).send(text);
  });
}

function modelEntry(id: string, ownedBy: string) {
  return { id, object: 'model', created: 0, owned_by: ownedBy };
}
