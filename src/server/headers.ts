import type { IncomingHttpHeaders, OutgoingHttpHeaders } from 'node:http';
import type { Target } from './catalog.js';
import type { Routing } from './routing.js';

/**
 * Response headers: which of the upstream's pass to the client, and the `x-triage-*` headers that
 * explain a decision.
 */

/**
 * Upstream headers never passed on: hop-by-hop headers (RFC 9110 §7.6.1), the body length (the
 * proxy frames the body itself), and the upstream's cookies, date and server banner.
 */
const DROPPED = new Set([
  'connection',
  'keep-alive',
  'proxy-authenticate',
  'proxy-authorization',
  'proxy-connection',
  'te',
  'trailer',
  'transfer-encoding',
  'upgrade',
  'content-length',
  'set-cookie',
  'date',
  'server',
]);

/** Copies the upstream headers a client may see onto `into`. */
export function passUpstreamHeaders(
  from: IncomingHttpHeaders,
  into: OutgoingHttpHeaders,
): OutgoingHttpHeaders {
  for (const name in from) {
    const value = from[name];
    if (value !== undefined && !DROPPED.has(name)) into[name] = value;
  }
  return into;
}

/**
 * The `x-triage-*` headers of a routed request; `model` is the upstream model that answered,
 * `fallbacks` the models failed or skipped before it, `skipped` those skipped because their
 * circuit breaker is open.
 */
export function decisionHeaders(
  routing: Routing,
  model: string | undefined,
  fallbacks: number,
  skipped?: readonly Target[],
): OutgoingHttpHeaders {
  const { decision } = routing;
  const headers: OutgoingHttpHeaders = {
    'x-triage-tier': decision.tier,
    'x-triage-confidence': decision.confidence.toFixed(2),
    'x-triage-source': decision.source,
  };
  if (decision.fallbackCause) headers['x-triage-fallback-cause'] = decision.fallbackCause;
  if (model !== undefined) headers['x-triage-model'] = model;
  if (fallbacks > 0) headers['x-triage-fallbacks'] = String(fallbacks);
  if (skipped !== undefined) {
    headers['x-triage-skipped'] = skipped.map((target) => target.model.id).join(', ');
  }
  return headers;
}
