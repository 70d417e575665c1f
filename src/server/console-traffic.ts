import type { TrafficEntry } from './console-recorder.js';
import type { InjectionFinding } from './injection-screen.js';
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
): TrafficEntry {
  const { decision } = routing;
  const failures = result?.failures ?? [];
  const upstreamErrors = failures.map(({ failure }) =>
    failure.reason === 'status' ? `http_${failure.status}` : failure.reason,
  );
  return {
    at: Date.now(),
    endpoint: 'chat',
    tier: decision.tier,
    model: result?.answeredBy?.model.id ?? 'none',
    source: decision.source,
    confidence: decision.confidence,
    status: status === 0 ? 499 : status,
    ms: performance.now() - started,
    decideMs: routing.decideMs,
    // Every failure but a last one moved the request on to the next model.
    fallbacks: Math.max(0, failures.length - (result?.answeredBy ? 0 : 1)),
    upstreamErrors,
    ...(injection && injection.riskLevel !== 'normal' ? { injection: injection.riskLevel } : {}),
    ...(prompt === undefined ? {} : { prompt: prompt.slice(0, MAX_PROMPT_CHARS) }),
  };
}
