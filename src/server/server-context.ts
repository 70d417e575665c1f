import type { FastifyReply } from 'fastify';
import type { Logger } from 'pino';
import type { ContextDecision } from '../context/router.js';
import type { UpstreamBreaker } from '../state/breaker-store.js';
import type { Triage } from '../triage.js';
import type { InjectionFinding, InjectionScreen } from '../triage-injection-screen.js';
import type { TriageRequest } from '../triage-request.js';
import type { Accounting } from './accounting.js';
import type { AdminAccess } from './admin-access.js';
import type { AgentStage } from './agents/agent-stage.js';
import type { Catalog } from './catalog.js';
import type { ClassifierSwitch } from './classifier-switch.js';
import type { ServerConfig } from './config.js';
import type { TrafficRecorder } from './console-recorder.js';
import type { Cancellation, ChatRequestBody, TierRouterPort } from './decide.js';
import type { Exchange, OpenExchanges } from './exchange.js';
import type { LlmCheckStatus } from './llm-check.js';
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
  /** The upstream models' circuit breakers (shared by instances when the state is in Redis). */
  readonly breaker: UpstreamBreaker;
  readonly tiers: TierRouterPort;
  readonly router: Router;
  /** The front door that makes the decisions (its context part is off when turned off). */
  readonly triage: Triage;
  /** The prompt-injection screen: the policy over the front door's injection part. */
  readonly injection: InjectionScreen;
  /** Whether the LLM check is on (off when its key variable is unset), for `/health`. */
  readonly llmCheck: LlmCheckStatus;
  /** The tier classifier's model, switchable at run time. */
  readonly classifier: ClassifierSwitch;
  /** Who may change the server at run time. */
  readonly admin: AdminAccess;
  /** Chat exchanges in flight, ended cleanly when the server shuts down. */
  readonly exchanges: OpenExchanges;
  /** What the console's live view reads (absent when the console is off). */
  readonly recorder?: TrafficRecorder;
  /** Client labels, limits, costs and usage. */
  readonly accounting: Accounting;
  /** What is done to agent traffic before it is forwarded (tools, guidance, trimming). */
  readonly agents: AgentStage;
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

/**
 * Scans a request for prompt injections and counts what was found: synchronously when the scan
 * is (no promise on the usual path), else once its LLM check has answered.
 */
export function screenOf(
  ctx: ServerContext,
  body: ChatRequestBody,
  exchange: Exchange,
  reply: FastifyReply,
  act: boolean,
): InjectionFinding | undefined | Promise<InjectionFinding | undefined | typeof GONE> {
  const scanned = ctx.injection.scan(body, exchange);
  if (!(scanned instanceof Promise)) return counted(ctx, scanned, act);
  return unlessGone(ctx, scanned, exchange, reply).then((finding) =>
    finding === GONE ? finding : counted(ctx, finding, act),
  );
}

function counted(
  ctx: ServerContext,
  finding: InjectionFinding | undefined,
  act: boolean,
): InjectionFinding | undefined {
  if (finding === undefined || finding.riskLevel === 'normal') return finding;
  const action = act ? DONE[finding.action] : 'none';
  ctx.metrics.injections.inc({ level: finding.riskLevel, text: finding.text, action });
  return finding;
}

/** What the policy did, as the injections metric says it. */
const DONE = { none: 'none', flag: 'flagged', block: 'blocked' } as const;

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

/**
 * The context policy of a request's last user question: locally when it can, else with its LLM
 * check; `undefined` when the context part is off.
 */
export function contextDecision(
  triage: Triage,
  body: ChatRequestBody,
  exchange: Cancellation,
): ContextDecision | undefined | Promise<ContextDecision | undefined> {
  if (triage.context === undefined) return undefined;
  const request = body as unknown as TriageRequest;
  const local = triage.classify(request, CONTEXT);
  if (!local.context?.needsLlm) return local.context ?? undefined;
  return triage
    .decide(request, { ...CONTEXT, from: local, signal: exchange.signal })
    .then((decided) => decided.context ?? undefined);
}

const CONTEXT = { parts: ['context'] } as const;

/** Milliseconds rounded to the microsecond, for logs and JSON. */
export function roundMs(ms: number): number {
  return Math.round(ms * 1000) / 1000;
}
