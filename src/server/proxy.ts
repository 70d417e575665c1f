import type { OutgoingHttpHeaders } from 'node:http';
import { type AttemptFailure, type AttemptOutcome, attempt } from './attempt.js';
import type { Target } from './catalog.js';
import type { ChatRequestBody } from './decide.js';
import { errorBody } from './errors.js';
import type { Exchange } from './exchange.js';
import { decisionHeaders } from './headers.js';
import type { ByteSpan } from './json-scan.js';
import { withModel } from './model-field.js';
import type { Routing } from './routing.js';
import type { Upstreams } from './upstreams.js';

/**
 * Proxies one chat request along its targets: each model of the decided tier, then up the
 * fallback chain, until one answers. A model is left for the next only when it failed before the
 * first byte reached the client.
 */

/** What happened to a proxied request. */
export interface ProxyResult {
  /** The last attempt's outcome (`failed` when every target failed). */
  readonly outcome: AttemptOutcome;
  /** The target that answered, when one did. */
  readonly answeredBy?: Target;
  /** The failures before it, in order, each with its target. */
  readonly failures: readonly { readonly target: Target; readonly failure: AttemptFailure }[];
  /** The status sent to the client (0 when the client went away first). */
  readonly status: number;
}

/** Called after each failed attempt, for metrics and logs. */
export type FailureListener = (target: Target, failure: AttemptFailure, isLast: boolean) => void;

/** Where the proxy sends requests and what it adds to responses. */
export interface ProxyOptions {
  readonly upstreams: Upstreams;
  readonly decisionHeaders: boolean;
  readonly onFailure?: FailureListener;
  /** Extra response headers (e.g. the injection flag). */
  readonly extraHeaders?: OutgoingHttpHeaders;
  /** Where the body's top-level `model` value lies in its bytes (`null`: none), when known. */
  readonly modelValue?: ByteSpan | null;
}

/**
 * Proxies `body` (whose raw bytes are `raw`) along `routing.targets`, writing the answer or the
 * final error to `exchange.res`. Never throws for upstream failures.
 */
export async function proxyChat(
  exchange: Exchange,
  routing: Routing,
  body: ChatRequestBody,
  raw: Buffer,
  options: ProxyOptions,
): Promise<ProxyResult> {
  const failures: { target: Target; failure: AttemptFailure }[] = [];
  const { targets } = routing;
  let last: AttemptOutcome = { kind: 'aborted' };
  for (let i = 0; i < targets.length; i++) {
    if (exchange.gone) break;
    const target = targets[i] as Target;
    const headers: OutgoingHttpHeaders = options.decisionHeaders
      ? { ...options.extraHeaders, ...decisionHeaders(routing, target.model.id, failures.length) }
      : { ...options.extraHeaders };
    last = await attempt(
      exchange,
      options.upstreams.get(target.model.provider),
      target,
      bodyFor(body, raw, target, options.modelValue),
      headers,
    );
    if (last.kind === 'answered') {
      return { outcome: last, answeredBy: target, failures, status: last.status };
    }
    if (last.kind === 'aborted') break;
    failures.push({ target, failure: last });
    options.onFailure?.(target, last, i === targets.length - 1);
  }
  if (exchange.gone || last.kind === 'aborted') return { outcome: last, failures, status: 0 };
  const status = sendAllFailed(exchange, routing, failures, options);
  return { outcome: last, failures, status };
}

/**
 * The body sent to `target`: the client's bytes when they already name its model, else the body
 * with `model` replaced (every other field passes unchanged).
 */
function bodyFor(
  body: ChatRequestBody,
  raw: Buffer,
  target: Target,
  modelValue: ByteSpan | null | undefined,
): Buffer {
  if (body.model === target.model.model) return raw;
  return withModel(raw, target.model.model, modelValue);
}

/**
 * Every target failed: answers 429 when all were rate limited (with the upstream's `retry-after`),
 * 504 when all timed out, else 502, with a message listing each model and what happened.
 */
function sendAllFailed(
  exchange: Exchange,
  routing: Routing,
  failures: readonly { target: Target; failure: AttemptFailure }[],
  options: ProxyOptions,
): number {
  const all = (test: (f: AttemptFailure) => boolean) =>
    failures.every(({ failure }) => test(failure));
  const status = all((f) => f.status === 429)
    ? 429
    : all((f) => f.reason === 'timeout')
      ? 504
      : 502;
  const listed = failures
    .map(({ target, failure }) => {
      const said = failure.providerMessage ? `: ${failure.providerMessage}` : '';
      return `${target.model.id} (${target.tier}): ${failure.detail}${said}`;
    })
    .join('; ');
  const body = JSON.stringify(
    errorBody(
      `no upstream model answered tier ${routing.decision.tier} or its fallbacks: ${listed}`,
      status === 429 ? 'rate_limit_error' : 'server_error',
      status === 429
        ? 'upstream_rate_limited'
        : status === 504
          ? 'upstream_timeout'
          : 'upstream_failed',
    ),
  );
  const headers: OutgoingHttpHeaders = {
    ...options.extraHeaders,
    ...(options.decisionHeaders ? decisionHeaders(routing, undefined, failures.length) : {}),
    'content-type': 'application/json',
    'content-length': Buffer.byteLength(body),
  };
  const retryAfter = failures.at(-1)?.failure.retryAfter;
  if (status === 429 && retryAfter !== undefined) headers['retry-after'] = retryAfter;
  exchange.res.writeHead(status, headers);
  exchange.res.end(body);
  return status;
}
