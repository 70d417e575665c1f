import type { FastifyInstance } from 'fastify';
import type { ContextDecision } from '../context/router.js';
import type { InjectionFinding } from '../triage-injection-screen.js';
import { type AgentReport, agentRouteReport } from './agents/agent-stage.js';
import { chatRequestOf } from './body.js';
import { Exchange } from './exchange.js';
import type { Routing } from './routing.js';
import {
  contextDecision,
  GONE,
  roundMs,
  routeOf,
  type ServerContext,
  screenOf,
  unlessGone,
} from './server-context.js';

/**
 * `POST /v1/route`: the decision alone, for applications that call their providers themselves:
 * tier, chosen model and chain, confidence, score, signals, source, the injection risk (with what
 * the policy would do) and the context policy. No upstream is called.
 */
export function registerRoute(app: FastifyInstance, ctx: ServerContext): void {
  app.post('/v1/route', async (request, reply) => {
    const { body, raw } = chatRequestOf(request.body);
    const exchange = new Exchange(reply.raw);
    // The decisions start at once: those that ask their LLM check wait for it together.
    const routed = routeOf(ctx, body, exchange, reply);
    let screened: ReturnType<typeof screenOf> | undefined;
    let pending: ReturnType<typeof contextDecision>;
    try {
      screened = screenOf(ctx, body, exchange, reply, false);
      pending = contextDecision(ctx.triage, body, exchange);
    } catch (error) {
      // Whatever is left waiting must not reject unheard.
      for (const left of [routed, screened]) if (left instanceof Promise) left.catch(() => {});
      throw error;
    }
    const [injection, routing, context] = await Promise.all([
      screened,
      routed,
      pending instanceof Promise ? unlessGone(ctx, pending, exchange, reply) : pending,
    ]);
    if (injection === GONE || routing === GONE || context === GONE) return;
    // What the agent stage would do to the request (its guidance counts: the caller applies it).
    const shaped = ctx.agents.apply(body, request.headers, exchange, raw.length, 'report');
    const agents =
      shaped instanceof Promise ? await unlessGone(ctx, shaped, exchange, reply) : shaped;
    if (agents === GONE) return;
    ctx.metrics.decided(routing);
    ctx.metrics.requests.inc({
      endpoint: 'route',
      tier: routing.decision.tier,
      model: routing.targets[0]?.model.id ?? 'none',
      status: 200,
    });
    return routeResponse(routing, context, injection, agents?.report);
  });
}

/** The body of `POST /v1/route`. */
function routeResponse(
  routing: Routing,
  context: ContextDecision | undefined,
  injection: InjectionFinding | undefined,
  agents: AgentReport | undefined,
) {
  const { decision, targets } = routing;
  return {
    tier: decision.tier,
    model: targets[0]?.model.id ?? null,
    chain: targets.map((t) => ({ tier: t.tier, provider: t.model.provider, model: t.model.model })),
    tiers: decision.chain,
    forced: decision.forced,
    confidence: decision.confidence,
    ...(decision.score === undefined ? {} : { score: decision.score }),
    signals: decision.signals,
    source: decision.source,
    ...(decision.fallbackCause ? { fallback_cause: decision.fallbackCause } : {}),
    llm: {
      checked: decision.llmChecked,
      overrode: decision.llmOverrode,
      ms: roundMs(decision.llmMs),
    },
    decide_ms: roundMs(routing.decideMs),
    ...(injection
      ? {
          injection: {
            risk_level: injection.riskLevel,
            confidence: injection.confidence,
            source: injection.decidedBy,
            ...(injection.fallbackCause ? { fallback_cause: injection.fallbackCause } : {}),
            text: injection.text,
            signals: injection.signals,
            action: injection.action,
          },
        }
      : {}),
    ...(context
      ? {
          context: {
            mode: context.mode,
            policy: context.policy,
            confidence: context.confidence,
            source: context.source,
            ...(context.fallbackCause ? { fallback_cause: context.fallbackCause } : {}),
            reason: context.reason,
          },
        }
      : {}),
    ...(agents ? { agents: agentRouteReport(agents) } : {}),
  };
}
