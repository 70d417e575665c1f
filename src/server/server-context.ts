import type { FastifyReply } from 'fastify';
import type { Logger } from 'pino';
import type { ContextDecision, ContextRouter } from '../context/router.js';
import type { Exchange } from './attempt.js';
import type { Catalog } from './catalog.js';
import type { ServerConfig } from './config.js';
import type { ChatRequestBody, TierRouterPort } from './decide.js';
import type { ServerMetrics } from './metrics.js';
import type { Router, Routing } from './routing.js';
import type { Upstreams } from './upstreams.js';

/** Everything a route handler of the server needs, built once per server. */
export interface ServerContext {
  readonly config: ServerConfig;
  readonly logger: Logger;
  readonly metrics: ServerMetrics;
  readonly catalog: Catalog;
  readonly upstreams: Upstreams;
  readonly tiers: TierRouterPort;
  readonly router: Router;
  /** The context-policy router, for `POST /v1/route`; absent when turned off. */
  readonly context?: ContextRouter;
}

/**
 * Routes a request and records the decision; `undefined` when the client left while the decision
 * waited for its LLM check (the reply is then abandoned: there is no one to answer).
 */
export async function routeOf(
  ctx: ServerContext,
  body: ChatRequestBody,
  exchange: Exchange,
  reply: FastifyReply,
): Promise<Routing | undefined> {
  const pending = ctx.router.route(body, exchange);
  let routing: Routing;
  if (pending instanceof Promise) {
    try {
      routing = await pending;
    } catch (error) {
      if (!exchange.gone) throw error;
      reply.hijack();
      ctx.metrics.errors.inc({ kind: 'client_closed' });
      return undefined;
    }
  } else routing = pending;
  ctx.metrics.decided(routing);
  return routing;
}

/** The context router's decision for `text`: locally when it can, else with its LLM check. */
export function contextDecision(
  router: ContextRouter,
  text: string,
  exchange: Exchange,
): ContextDecision | Promise<ContextDecision> {
  return router.decideLocally(text) ?? router.decide(text, { signal: exchange.signal });
}

/** Milliseconds rounded to the microsecond, for logs and JSON. */
export function roundMs(ms: number): number {
  return Math.round(ms * 1000) / 1000;
}
