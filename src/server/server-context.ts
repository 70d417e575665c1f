import type { FastifyReply } from 'fastify';
import type { Logger } from 'pino';
import type { ContextDecision, ContextRouter } from '../context/router.js';
import type { Catalog } from './catalog.js';
import type { ServerConfig } from './config.js';
import type { ChatRequestBody, TierRouterPort } from './decide.js';
import type { Exchange, OpenExchanges } from './exchange.js';
import type { InjectionFinding, InjectionScreen } from './injection-screen.js';
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
  /** The prompt-injection screen. */
  readonly injection: InjectionScreen;
  /** Chat exchanges in flight, ended cleanly when the server shuts down. */
  readonly exchanges: OpenExchanges;
}

/**
 * Waits for a decision that may need an LLM check; `gone` when the client left meanwhile (the
 * reply is then abandoned: there is no one to answer).
 */
export async function unlessGone<T>(
  ctx: ServerContext,
  pending: T | Promise<T>,
  exchange: Exchange,
  reply: FastifyReply,
): Promise<T | typeof GONE> {
  if (!(pending instanceof Promise)) return pending;
  try {
    return await pending;
  } catch (error) {
    if (!exchange.gone) throw error;
    reply.hijack();
    ctx.metrics.errors.inc({ kind: 'client_closed' });
    return GONE;
  }
}

/** What {@link unlessGone} gives when the client left. */
export const GONE: unique symbol = Symbol('client gone');

/** Scans a request for prompt injections and counts what was found. */
export async function screenOf(
  ctx: ServerContext,
  body: ChatRequestBody,
  exchange: Exchange,
  reply: FastifyReply,
  act: boolean,
): Promise<InjectionFinding | undefined | typeof GONE> {
  const finding = await unlessGone(ctx, ctx.injection.scan(body, exchange), exchange, reply);
  if (finding === GONE || finding === undefined || finding.riskLevel === 'normal') return finding;
  const action =
    act && finding.acts ? (ctx.injection.policy === 'block' ? 'blocked' : 'flagged') : 'none';
  ctx.metrics.injections.inc({ level: finding.riskLevel, text: finding.text, action });
  return finding;
}

/**
 * Routes a request: synchronously when the decision is (no promise to create and wait for on the
 * usual path), else once its LLM check has answered. The caller records the decision
 * (`metrics.decided`); the chat endpoint does so once the client has its answer, off the path
 * the client waits on.
 */
export function routeOf(
  ctx: ServerContext,
  body: ChatRequestBody,
  exchange: Exchange,
  reply: FastifyReply,
): Routing | Promise<Routing | typeof GONE> {
  const pending = ctx.router.route(body, exchange);
  return pending instanceof Promise ? unlessGone(ctx, pending, exchange, reply) : pending;
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
