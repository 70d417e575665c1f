import type { OutgoingHttpHeaders } from 'node:http';
import {
  type AttemptDeadline,
  type AttemptFailure,
  type AttemptOutcome,
  attempt,
} from './attempt.js';
import type { Target } from './catalog.js';
import type { ChatRequestBody } from './decide.js';
import { errorBody } from './errors.js';
import type { Exchange } from './exchange.js';
import { decisionHeaders } from './headers.js';
import type { ByteSpan } from './json-scan.js';
import { withModel } from './model-field.js';
import type { ClientProtocol } from './protocols/client-protocol.js';
import type { AnswerRelay } from './protocols/relay.js';
import type { Usage } from './protocols/usage.js';
import type { RequestDeadline } from './request-deadline.js';
import type { Routing } from './routing.js';
import type { Upstream, Upstreams } from './upstreams.js';

/**
 * Proxies one chat request along its targets: each model of the decided tier, then up the
 * fallback chain, until one answers. A model is left for the next only when it failed before the
 * first byte reached the client, and only while the request's deadline has not passed: each
 * attempt gets the model's timeout or what is left of the deadline, whichever is shorter.
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
  /** The tokens the answer reported, when it did. */
  readonly usage?: Usage;
}

/** What one attempt sends: the body for the target's upstream, and the relay of its answer. */
export interface PreparedAttempt {
  readonly body: Buffer;
  readonly relay?: AnswerRelay;
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
  /** The request's deadline; none: each model's timeout alone. */
  readonly deadline?: RequestDeadline;
  /**
   * What to send to each target (the body in its upstream's wire format, and the relay of its
   * answer); default: the client's bytes with `model` rewritten, the answer passed through.
   */
  readonly prepare?: (target: Target, upstream: Upstream) => PreparedAttempt;
  /** The client's wire format, for the errors the proxy writes itself. Default OpenAI's. */
  readonly client?: ClientProtocol;
}

/** How a chain of attempts ended without an answer. */
interface Unanswered {
  readonly failures: readonly { target: Target; failure: AttemptFailure }[];
  /** Targets left untried because the deadline passed. */
  readonly untried: readonly Target[];
  /** Whether the request's deadline ended the chain. */
  readonly deadlinePassed: boolean;
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
  const { deadline } = options;
  let last: AttemptOutcome = { kind: 'aborted' };
  let untried: readonly Target[] = [];
  let deadlinePassed = false;
  for (let i = 0; i < targets.length; i++) {
    if (exchange.gone) break;
    const target = targets[i] as Target;
    const limit = attemptDeadline(target, deadline);
    if (limit === undefined) {
      untried = targets.slice(i);
      deadlinePassed = true;
      break;
    }
    const headers: OutgoingHttpHeaders = options.decisionHeaders
      ? { ...options.extraHeaders, ...decisionHeaders(routing, target.model.id, failures.length) }
      : { ...options.extraHeaders };
    const upstream = options.upstreams.get(target.model.provider);
    const prepared = options.prepare?.(target, upstream);
    last = await attempt(
      exchange,
      upstream,
      target,
      prepared?.body ?? bodyFor(body, raw, target, options.modelValue),
      headers,
      limit,
      prepared?.relay,
    );
    if (last.kind === 'answered') {
      const usage = prepared?.relay?.usage;
      return {
        outcome: last,
        answeredBy: target,
        failures,
        status: last.status,
        ...(usage ? { usage } : {}),
      };
    }
    if (last.kind === 'aborted' || last.kind === 'closed') break;
    failures.push({ target, failure: last });
    // The deadline cut this attempt short: no time is left for the others.
    if (limit.byDeadline && last.reason === 'timeout') {
      untried = targets.slice(i + 1);
      deadlinePassed = true;
    }
    options.onFailure?.(target, last, deadlinePassed || i === targets.length - 1);
    if (deadlinePassed) break;
  }
  if (last.kind === 'closed') return { outcome: last, failures, status: 503 };
  if (exchange.gone || (last.kind === 'aborted' && !deadlinePassed)) {
    return { outcome: last, failures, status: 0 };
  }
  const status = sendAllFailed(
    exchange,
    routing,
    body,
    { failures, untried, deadlinePassed },
    options,
  );
  return { outcome: last, failures, status };
}

/**
 * How long `target` may take: its own timeout, or what is left of the request's deadline when
 * that is shorter; `undefined` when the deadline has passed.
 */
function attemptDeadline(
  target: Target,
  deadline: RequestDeadline | undefined,
): (AttemptDeadline & { byDeadline: boolean }) | undefined {
  const own = target.model.timeoutMs;
  const left = deadline === undefined ? Number.POSITIVE_INFINITY : deadline.at - performance.now();
  if (left >= own) return { ms: own, detail: `no answer within ${own} ms`, byDeadline: false };
  if (left < 1) return undefined;
  const detail = `no answer before the request's deadline (${(deadline as RequestDeadline).ms} ms)`;
  return { ms: Math.ceil(left), detail, byDeadline: true };
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
 * No target answered: answers 504 when the deadline passed or all timed out, 429 when all were
 * rate limited (with the upstream's `retry-after`), else 502, with a message listing each model
 * and what happened.
 */
function sendAllFailed(
  exchange: Exchange,
  routing: Routing,
  body: ChatRequestBody,
  { failures, untried, deadlinePassed }: Unanswered,
  options: ProxyOptions,
): number {
  const all = (test: (f: AttemptFailure) => boolean) =>
    failures.length > 0 && failures.every(({ failure }) => test(failure));
  const status = deadlinePassed
    ? 504
    : all((f) => f.status === 429)
      ? 429
      : all((f) => f.reason === 'timeout')
        ? 504
        : 502;
  const code = deadlinePassed
    ? 'deadline_exceeded'
    : status === 429
      ? 'upstream_rate_limited'
      : status === 504
        ? 'upstream_timeout'
        : 'upstream_failed';
  const listed = failures.map(({ target, failure }) => {
    const said = failure.providerMessage ? `: ${failure.providerMessage}` : '';
    return `${target.model.id} (${target.tier}): ${failure.detail}${said}`;
  });
  if (deadlinePassed && options.deadline) {
    const notTried = untried.map((target) => target.model.id).join(', ');
    listed.push(
      `the request's deadline of ${options.deadline.ms} ms passed` +
        (notTried ? ` before ${notTried} could be tried` : ''),
    );
  }
  const what =
    routing.decision.source === 'passthrough'
      ? `the model named in the request (${String(body.model)}) did not answer; a model named ` +
        'this way is not replaced by another tier'
      : `no upstream model answered tier ${routing.decision.tier} or its fallbacks`;
  const message = `${what}: ${listed.join('; ')}`;
  const type = status === 429 ? 'rate_limit_error' : 'server_error';
  const text = JSON.stringify(
    options.client ? options.client.errorBody(message, type, code) : errorBody(message, type, code),
  );
  const headers: OutgoingHttpHeaders = {
    ...options.extraHeaders,
    ...(options.decisionHeaders ? decisionHeaders(routing, undefined, failures.length) : {}),
    'content-type': 'application/json',
    'content-length': Buffer.byteLength(text),
  };
  const retryAfter = failures.at(-1)?.failure.retryAfter;
  if (status === 429 && retryAfter !== undefined) headers['retry-after'] = retryAfter;
  exchange.res.writeHead(status, headers);
  exchange.res.end(text);
  return status;
}
