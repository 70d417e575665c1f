import type { InjectionFinding } from '../triage-injection-screen.js';
import type { TrafficEntry, TrafficUsage } from './console-recorder.js';
import type { CostedUsage } from './costs.js';
import type { ProxyResult } from './proxy.js';
import type { Routing } from './routing.js';

/** Longest prompt excerpt the live view lists when prompt logging is on. */
const MAX_PROMPT_CHARS = 500;

/**
 * The console's record of one proxied chat request, from what the chat endpoint already has:
 * built once the client has its answer, off the path it waits on. `prompt` is given only when
 * prompt logging is on.
 */
export function chatTraffic(
  routing: Routing,
  result: ProxyResult | undefined,
  status: number,
  started: number,
  injection: InjectionFinding | undefined,
  prompt: string | undefined,
  costed?: CostedUsage,
): TrafficEntry {
  const { decision } = routing;
  const failures = result?.failures ?? NONE;
  const answeredBy = result?.answeredBy;
  // One object literal of one shape, absent fields undefined (JSON leaves them out): no spread,
  // no intermediate object, no array for the usual request that did not fail over.
  return {
    at: Date.now(),
    endpoint: 'chat',
    tier: decision.tier,
    model: answeredBy === undefined ? 'none' : answeredBy.model.id,
    source: decision.source,
    confidence: decision.confidence,
    status: status === 0 ? 499 : status,
    ms: performance.now() - started,
    decideMs: routing.decideMs,
    // Every failure but a last one moved the request on to the next model.
    fallbacks: failures.length === 0 ? 0 : failures.length - (answeredBy ? 0 : 1),
    upstreamErrors: failures.length === 0 ? NO_ERRORS : failures.map(reasonOf),
    injection:
      injection === undefined || injection.riskLevel === 'normal' ? undefined : injection.riskLevel,
    prompt: prompt === undefined ? undefined : prompt.slice(0, MAX_PROMPT_CHARS),
    usage: costed === undefined ? undefined : usageOf(costed),
    // A cost only where prices are configured: with a baseline, what the request saved.
    cost:
      costed?.baselineUsd === undefined
        ? undefined
        : { usd: costed.costUsd, baselineUsd: costed.baselineUsd },
  };
}

function usageOf({ usage }: CostedUsage): TrafficUsage {
  return {
    promptTokens: usage.inputTokens + usage.cachedInputTokens,
    completionTokens: usage.outputTokens,
  };
}

const NONE: readonly never[] = [];
const NO_ERRORS: readonly string[] = Object.freeze([]);

function reasonOf({ failure }: ProxyResult['failures'][number]): string {
  return failure.reason === 'status' ? `http_${failure.status}` : failure.reason;
}
