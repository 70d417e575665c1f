import type { OutgoingHttpHeaders } from 'node:http';
import type { AttemptKind, UpstreamBreaker } from '../state/breaker-store.js';
import {
  type AttemptDeadline,
  type AttemptFailure,
  type AttemptOutcome,
  attempt,
} from './attempt.js';
import { verdictOf } from './breaker-verdict.js';
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
 * attempt gets the model's timeout or what is left of the deadline, whichever is shorter. A
 * model whose circuit breaker is open is skipped (unless every target's is), and each attempt's
 * outcome is reported to its breaker.
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
  /** The upstream models' circuit breakers: a model whose breaker is open is skipped. */
  readonly breaker?: UpstreamBreaker;
  /** Called for each model skipped because its breaker is open. */
  readonly onSkip?: (target: Target) => void;
}

/** How a chain of attempts ended without an answer. */
interface Unanswered {
  readonly failures: readonly { target: Target; failure: AttemptFailure }[];
  /** Targets left untried because the deadline passed. */
  readonly untried: readonly Target[];
  /** Whether the request's deadline ended the chain. */
  readonly deadlinePassed: boolean;
  /** Targets skipped because their breaker is open. */
  readonly skipped: readonly Target[] | undefined;
}

/** The failure listed for a target skipped because its breaker is open. */
const SKIPPED: AttemptFailure = Object.freeze({
  kind: 'failed',
  reason: 'breaker_open',
  detail: 'not tried: its circuit breaker is open (it failed repeatedly)',
  ms: 0,
});

/**
 * How much longer than an attempt's own time limit its probe's turn lasts: the attempt reports
 * before that, and a probe whose instance died is replaced after it.
 */
const PROBE_LEASE_MARGIN_MS = 1_000;

/** Of targets skipped because their breaker is open, the one whose breaker opened first. */
function longestOpen(skipped: readonly Target[], breaker: UpstreamBreaker | undefined): Target {
  let best = skipped[0] as Target;
  let bestAt = Number.POSITIVE_INFINITY;
  for (const target of skipped) {
    const at = breaker?.openedAt(target.model.id) ?? Number.NEGATIVE_INFINITY;
    if (at < bestAt) {
      best = target;
      bestAt = at;
    }
  }
  return best;
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
  const { deadline, breaker } = options;
  let last: AttemptOutcome = { kind: 'aborted' };
  let untried: readonly Target[] = [];
  let deadlinePassed = false;
  /** Targets skipped because their breaker is open. */
  let skipped: Target[] | undefined;
  let attempts = 0;
  // One round past the last target: when every target was skipped, the one whose breaker opened
  // longest ago is tried all the same (a breaker never turns into an outage).
  for (let i = 0; i <= targets.length; i++) {
    if (exchange.gone) break;
    const forced = i === targets.length;
    if (forced && (attempts > 0 || skipped === undefined)) break;
    const target = forced ? longestOpen(skipped as Target[], breaker) : (targets[i] as Target);
    const limit = attemptDeadline(target, deadline);
    if (limit === undefined) {
      untried = forced ? [target] : targets.slice(i);
      deadlinePassed = true;
      break;
    }
    let kind: AttemptKind = forced ? 'forced' : 'pass';
    if (forced) {
      // Tried after all: no longer listed as skipped.
      failures.splice(
        failures.findIndex((f) => f.target === target),
        1,
      );
      skipped = (skipped as Target[]).filter((t) => t !== target);
      if (skipped.length === 0) skipped = undefined;
    } else if (breaker !== undefined) {
      const admitted = breaker.admit(target.model.id, limit.ms + PROBE_LEASE_MARGIN_MS);
      kind = admitted instanceof Promise ? await admitted : admitted;
      if (kind === 'skip') {
        skipped ??= [];
        skipped.push(target);
        failures.push({ target, failure: SKIPPED });
        options.onSkip?.(target);
        continue;
      }
    }
    attempts++;
    const headers: OutgoingHttpHeaders = options.decisionHeaders
      ? {
          ...options.extraHeaders,
          ...decisionHeaders(routing, target.model.id, failures.length, skipped),
        }
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
    breaker?.report(target.model.id, kind, verdictOf(last, limit.byDeadline));
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
    options.onFailure?.(target, last, deadlinePassed || i >= targets.length - 1);
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
    { failures, untried, deadlinePassed, skipped },
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
  { failures, untried, deadlinePassed, skipped }: Unanswered,
  options: ProxyOptions,
): number {
  // The status says what the models tried did; the skipped ones are listed in the message.
  const tried = failures.filter(({ failure }) => failure !== SKIPPED);
  const all = (test: (f: AttemptFailure) => boolean) =>
    tried.length > 0 && tried.every(({ failure }) => test(failure));
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
    ...(options.decisionHeaders
      ? decisionHeaders(routing, undefined, failures.length, skipped)
      : {}),
    'content-type': 'application/json',
    'content-length': Buffer.byteLength(text),
  };
  const retryAfter = failures.at(-1)?.failure.retryAfter;
  if (status === 429 && retryAfter !== undefined) headers['retry-after'] = retryAfter;
  exchange.res.writeHead(status, headers);
  exchange.res.end(text);
  return status;
}
