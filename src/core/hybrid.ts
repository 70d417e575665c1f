import { clampConfidence } from './certainty.js';
import { withDeadline } from './deadline.js';
import { describeError, isTimeoutError, LlmInvalidOutputError } from './errors.js';

/**
 * The hybrid decision (ARCHITECTURE: "one idea, five subsystems"): decide locally in microseconds
 * when the local classifier is sure; ask an LLM under a strict timeout only when it is not; fall
 * back to a safe value when the LLM fails, times out or is itself unsure. Every decision records
 * where it came from, both confidences, the time the LLM took and why, in one audit shape
 * ({@link DecisionAudit}) that every subsystem's decisions share. It is written here once.
 */

/**
 * Where a decision came from: the local classifier (`local`), the LLM (`llm`), an LLM verdict
 * from the decision cache (`cached`), the caller (`forced`, e.g. a tier named by the model id),
 * or the safe fallback (`fallback`, with a {@link FallbackCause}).
 */
export type DecisionSource = 'local' | 'llm' | 'cached' | 'forced' | 'fallback';

/** Every {@link DecisionSource}. */
export const DECISION_SOURCES: readonly DecisionSource[] = [
  'local',
  'llm',
  'cached',
  'forced',
  'fallback',
];

/**
 * Why a decision fell back:
 * - `no_llm`: the local classifier was unsure and no LLM is configured;
 * - `llm_timeout`: the LLM did not answer within its time limit;
 * - `llm_error`: the LLM call failed (HTTP error, connection refused, …);
 * - `llm_invalid`: the LLM answered, but its answer failed parsing or validation;
 * - `llm_unsure`: the LLM answered below its own confidence threshold;
 * - `deadline`: the caller's overall deadline came before an answer (or left no time to ask).
 */
export type FallbackCause =
  | 'no_llm'
  | 'llm_timeout'
  | 'llm_error'
  | 'llm_invalid'
  | 'llm_unsure'
  | 'deadline';

/** Every {@link FallbackCause}. */
export const FALLBACK_CAUSES: readonly FallbackCause[] = [
  'no_llm',
  'llm_timeout',
  'llm_error',
  'llm_invalid',
  'llm_unsure',
  'deadline',
];

/** Each fallback cause in a few words, for reasons written for people. */
export const FALLBACK_CAUSE_TEXT: Readonly<Record<FallbackCause, string>> = {
  no_llm: 'no LLM configured',
  llm_timeout: 'timeout',
  llm_error: 'error',
  llm_invalid: 'invalid answer',
  llm_unsure: 'unsure',
  deadline: 'deadline',
};

/**
 * The audit fields every decision of every subsystem carries: plain data (numbers, strings,
 * booleans and `null`, never `undefined`), so that `structuredClone`, `JSON.stringify` and a
 * spread keep all of it.
 */
export interface DecisionAudit {
  readonly source: DecisionSource;
  /** Confidence of the decision in [0, 1]. */
  readonly confidence: number;
  /** The local classifier's confidence (`null` when it did not run: forced decisions). */
  readonly localConfidence: number | null;
  /** The LLM's confidence (`null` when it was not asked or gave none). */
  readonly llmConfidence: number | null;
  /** Milliseconds spent waiting for the LLM (0 when it was not asked, or answered from cache). */
  readonly llmMs: number;
  /** The LLM verdict came from the decision cache (`source` is then `cached`). */
  readonly cached: boolean;
  /** How the decision was reached, in one line (never prompt text). */
  readonly reason: string;
  /** Why the decision fell back; `null` unless `source` is `fallback`. */
  readonly fallbackCause: FallbackCause | null;
}

/** Options of an asynchronous decision. */
export interface DecideOptions {
  /** Aborts the decision (e.g. the client went away): it then rejects with the signal's reason. */
  readonly signal?: AbortSignal;
  /**
   * The most milliseconds the decision may take from now. When it comes before the LLM's own
   * time limit, an LLM still unanswered at the deadline gives the fallback with cause `deadline`.
   */
  readonly deadlineMs?: number;
}

/**
 * The options of a decision given either way: as {@link DecideOptions}, or (the deprecated form)
 * as the abort signal alone.
 */
export function decideOptions(options: DecideOptions | AbortSignal | undefined): DecideOptions {
  if (options === undefined) return NO_OPTIONS;
  return options instanceof AbortSignal ? { signal: options } : options;
}

const NO_OPTIONS: DecideOptions = Object.freeze({});

/** What the local classifier concluded. */
export interface LocalVerdict<T> {
  readonly value: T;
  /** Confidence in [0, 1]. */
  readonly confidence: number;
  /** Distance between the best and second-best option, where the classifier has one. */
  readonly margin?: number;
  readonly reason?: string;
}

/** What the LLM concluded. A missing confidence means the LLM gave none (it is then accepted). */
export interface LlmVerdict<T> {
  readonly value: T;
  readonly confidence?: number;
  readonly reason?: string;
}

/**
 * Asks the LLM. Must stop when `signal` aborts; may throw (an invalid answer, an HTTP error):
 * the hybrid then falls back.
 */
export type LlmDecider<I, T> = (
  input: I,
  local: LocalVerdict<T>,
  signal: AbortSignal,
) => Promise<LlmVerdict<T>>;

/** The safe value used when neither the local classifier nor the LLM can decide. */
export interface FallbackVerdict<T> {
  readonly value: T;
  readonly confidence: number;
  /** Overrides the reason the hybrid would write. */
  readonly reason?: string;
}

/** What the fallback function is told about why it is called. */
export interface FallbackContext<I, T> {
  readonly input: I;
  readonly local: LocalVerdict<T>;
  /** The LLM's verdict, when it answered but was unsure. */
  readonly llm?: LlmVerdict<T>;
  /** Why the LLM could not be used. */
  readonly cause: FallbackCause;
  /** The error's description, for the causes that come from an error. */
  readonly error?: string;
  /** The error itself, for the causes that come from one. */
  readonly thrown?: unknown;
}

/**
 * A cache of LLM verdicts: an in-memory LRU (`lruDecisionCache`), or a store shared by several
 * processes. `get` may answer later (a network store): the hybrid then waits for it within the
 * decision's time limit; a `get` that fails counts as a miss and a `set` that fails is ignored,
 * so a failing cache never fails a decision. Verdicts are plain data (JSON-serialisable).
 */
export interface DecisionCache<T> {
  get(key: string): LlmVerdict<T> | undefined | Promise<LlmVerdict<T> | undefined>;
  /** Stores a verdict; may return a promise (it is not waited for; a rejection is ignored). */
  set(key: string, verdict: LlmVerdict<T>): unknown;
}

/** How a hybrid decides. */
export interface HybridPolicy<I, T> {
  /** Names the decision in reasons and errors (e.g. `tier`, `context`). */
  readonly name: string;
  /** The local classifier. Synchronous: it runs on every request. */
  readonly local: (input: I) => LocalVerdict<T>;
  /** The local confidence at or above which the local verdict is used. */
  readonly minConfidence: number;
  /** Where given, the local margin must also reach this. */
  readonly minMargin?: number;
  /** The LLM decision; absent when no LLM is configured. */
  readonly llm?: LlmDecider<I, T>;
  /** Strict time limit of the LLM decision, in milliseconds. */
  readonly timeoutMs: number;
  /** The LLM's own confidence threshold; an LLM verdict below it counts as unsure. */
  readonly llmMinConfidence?: number;
  /**
   * What to do when the local classifier is unsure and no LLM is configured: keep the local
   * verdict (`local`, the default: the LLM check is simply off) or use the fallback (`fallback`).
   */
  readonly withoutLlm?: 'local' | 'fallback';
  /** The safe verdict. */
  readonly fallback: (context: FallbackContext<I, T>) => FallbackVerdict<T>;
  /** Optional cache of LLM verdicts, used with `cacheKey`. */
  readonly cache?: DecisionCache<T>;
  /** The cache key of an input; `undefined` skips the cache for it. */
  readonly cacheKey?: (input: I) => string | undefined;
}

/** An audited decision: the value, and the audit fields every decision shares. */
export interface HybridDecision<T> extends DecisionAudit {
  readonly value: T;
  /** The local classifier's value (`null` for forced decisions). */
  readonly localValue: T | null;
  /** The local classifier's margin, where it has one. */
  readonly margin: number | null;
  /** The LLM's own reason, when it answered (or its cached verdict had one). */
  readonly llmReason: string | null;
}

/** Counters of a hybrid's decisions since it was created. */
export interface HybridStats {
  decisions: number;
  local: number;
  forced: number;
  /** LLM calls made (cache hits excluded). */
  llmCalls: number;
  cacheHits: number;
  /** LLM verdicts used that agreed with the local verdict. */
  llmConfirmed: number;
  /** LLM verdicts used that changed the local verdict. */
  llmOverrode: number;
  /** LLM calls that ran out of their own time limit. */
  llmTimeouts: number;
  /** LLM calls that failed, invalid answers included. */
  llmErrors: number;
  /** Of `llmErrors`, answers that failed parsing or validation. */
  llmInvalid: number;
  llmUnsure: number;
  /** Decisions cut by the caller's deadline. */
  deadlines: number;
  fallbacks: number;
  /** Total milliseconds spent waiting for the LLM. */
  llmMs: number;
}

function emptyStats(): HybridStats {
  return {
    decisions: 0,
    local: 0,
    forced: 0,
    llmCalls: 0,
    cacheHits: 0,
    llmConfirmed: 0,
    llmOverrode: 0,
    llmTimeouts: 0,
    llmErrors: 0,
    llmInvalid: 0,
    llmUnsure: 0,
    deadlines: 0,
    fallbacks: 0,
    llmMs: 0,
  };
}

/**
 * The fallback cause of an error thrown while asking the LLM: a timeout (the LLM call's own, or
 * the hybrid's limit) is `llm_timeout`, or `deadline` when the limit was the caller's deadline;
 * an answer that failed parsing or validation is `llm_invalid`; anything else `llm_error`.
 */
export function fallbackCauseOf(error: unknown, byDeadline = false): FallbackCause {
  if (isTimeoutError(error)) return byDeadline ? 'deadline' : 'llm_timeout';
  if (error instanceof LlmInvalidOutputError) return 'llm_invalid';
  return 'llm_error';
}

/** What the LLM step of a decision produced: a verdict, from the cache or not. */
interface Answer<T> {
  readonly verdict: LlmVerdict<T>;
  readonly cached: boolean;
}

/** A hybrid decision maker over inputs `I` and values `T`. */
export class Hybrid<I, T> {
  readonly policy: HybridPolicy<I, T>;
  readonly #stats = emptyStats();
  readonly #equal: (a: T, b: T) => boolean;

  constructor(policy: HybridPolicy<I, T>, equal: (a: T, b: T) => boolean = Object.is) {
    if (!(policy.timeoutMs > 0)) {
      throw new RangeError(`${policy.name}: timeoutMs must be > 0, got ${policy.timeoutMs}`);
    }
    this.policy = policy;
    this.#equal = equal;
  }

  /** A copy of the counters. */
  get stats(): HybridStats {
    return { ...this.#stats };
  }

  /** True when the local verdict clears the confidence (and margin) thresholds. */
  isConfident(local: LocalVerdict<T>): boolean {
    return this.#confident(local.confidence, local.margin);
  }

  #confident(confidence: number, margin: number | undefined): boolean {
    const { minConfidence, minMargin } = this.policy;
    if (!(confidence >= minConfidence)) return false;
    return minMargin === undefined || margin === undefined || margin >= minMargin;
  }

  /**
   * Runs the local classifier and, when it is unsure, the LLM or the fallback. The second
   * argument may still be the abort signal alone (deprecated: pass `{ signal }`).
   */
  decide(input: I, options?: DecideOptions): Promise<HybridDecision<T>>;
  /** @deprecated Pass the signal in the options: `decide(input, { signal })`. */
  decide(input: I, signal: AbortSignal): Promise<HybridDecision<T>>;
  decide(input: I, options?: DecideOptions | AbortSignal): Promise<HybridDecision<T>> {
    return this.decideFrom(input, this.policy.local(input), options);
  }

  /**
   * The decision, when it needs no I/O: the local verdict when it is confident, or (with no LLM
   * configured) the local verdict or the fallback, as `withoutLlm` says. Returns `undefined` when
   * the LLM must be asked; then call {@link decideFrom}. This keeps a caller's common path
   * synchronous (a routing server decides most requests without awaiting anything), with the
   * same counters as {@link decide}.
   */
  decideLocally(input: I, local: LocalVerdict<T>): HybridDecision<T> | undefined {
    const source = this.settleLocally(local.confidence, local.margin);
    if (source === undefined) return undefined;
    if (source === 'fallback') {
      return this.#fallback(local, { input, local, cause: 'no_llm' }, 0, null);
    }
    const confident = this.isConfident(local);
    const confidence = clampConfidence(local.confidence);
    const reason = confident
      ? (local.reason ?? `local confidence ${fmt(confidence)}`)
      : `${local.reason ?? 'local verdict'} (confidence ${fmt(confidence)}; no LLM configured)`;
    return decision(local.value, 'local', confidence, local, null, false, 0, reason, null, null);
  }

  /**
   * Where the decision on a local verdict of this confidence (and margin) comes from when it
   * needs no I/O, counted as {@link decideLocally} counts it: `local` (confident, or unsure with
   * `withoutLlm: 'local'`), `fallback` (unsure, no LLM, `withoutLlm: 'fallback'`: the policy's
   * fallback decides the value, cause `no_llm`), or `undefined` when the LLM must be asked. For a
   * hot path that builds its own decision object; {@link decideLocally} is this and the decision.
   */
  settleLocally(confidence: number, margin?: number): 'local' | 'fallback' | undefined {
    const confident = this.#confident(confidence, margin);
    if (!confident && this.policy.llm) return undefined;
    const stats = this.#stats;
    stats.decisions++;
    if (!confident && this.policy.withoutLlm === 'fallback') {
      stats.fallbacks++;
      return 'fallback';
    }
    stats.local++;
    return 'local';
  }

  /**
   * Like {@link decide}, for a caller that already has the local verdict. Rejects only when the
   * caller's signal aborts; every failure of the LLM (or of the cache) gives the fallback.
   */
  async decideFrom(
    input: I,
    local: LocalVerdict<T>,
    options?: DecideOptions | AbortSignal,
  ): Promise<HybridDecision<T>> {
    const immediate = this.decideLocally(input, local);
    if (immediate) return immediate;
    const { signal, deadlineMs } = decideOptions(options);
    signal?.throwIfAborted();
    const llm = this.policy.llm as LlmDecider<I, T>;
    const stats = this.#stats;
    stats.decisions++;
    const { timeoutMs, cache, cacheKey } = this.policy;
    const byDeadline = deadlineMs !== undefined && deadlineMs < timeoutMs;
    const limitMs = byDeadline ? Math.max(0, Math.floor(deadlineMs)) : timeoutMs;
    if (limitMs <= 0) {
      stats.deadlines++;
      stats.fallbacks++;
      return this.#fallback(local, { input, local, cause: 'deadline' }, 0, null);
    }
    const key = cache && cacheKey ? cacheKey(input) : undefined;
    const started = performance.now();
    let answer: Answer<T>;
    try {
      answer = await withDeadline(
        async (inner) => {
          const hit = key === undefined ? undefined : await cachedVerdict(cache!, key);
          if (hit !== undefined) return { verdict: hit, cached: true };
          stats.llmCalls++;
          return { verdict: await llm(input, local, inner), cached: false };
        },
        limitMs,
        `${this.policy.name} LLM decision`,
        signal,
      );
    } catch (error) {
      const llmMs = performance.now() - started;
      stats.llmMs += llmMs;
      if (signal?.aborted) throw error;
      const cause = fallbackCauseOf(error, byDeadline);
      if (cause === 'deadline') stats.deadlines++;
      else if (cause === 'llm_timeout') stats.llmTimeouts++;
      else {
        stats.llmErrors++;
        if (cause === 'llm_invalid') stats.llmInvalid++;
      }
      stats.fallbacks++;
      const context = { input, local, cause, error: describeError(error), thrown: error };
      return this.#fallback(local, context, llmMs, null);
    }
    if (answer.cached) {
      stats.cacheHits++;
      return this.#fromLlm(input, local, answer.verdict, 0, true);
    }
    const llmMs = performance.now() - started;
    stats.llmMs += llmMs;
    const decided = this.#fromLlm(input, local, answer.verdict, llmMs, false);
    if (key !== undefined && decided.source === 'llm') storeVerdict(cache!, key, answer.verdict);
    return decided;
  }

  /**
   * The provisional decision of a local-only call when the LLM must be asked (`decideLocally`
   * gave none): the local verdict as it is, source `local`, its reason ending in
   * `; unsure, LLM decision pending`. Not counted: the decision is still to be made.
   */
  pending(local: LocalVerdict<T>): HybridDecision<T> {
    const confidence = clampConfidence(local.confidence);
    const reason = `${local.reason ?? 'local verdict'}; unsure, LLM decision pending`;
    return decision(local.value, 'local', confidence, local, null, false, 0, reason, null, null);
  }

  /** A decision forced by the caller (e.g. a tier-specific model id), bypassing classification. */
  forced(value: T, reason: string): HybridDecision<T> {
    this.#stats.decisions++;
    this.#stats.forced++;
    return decision(value, 'forced', 1, undefined, null, false, 0, reason, null, null);
  }

  #fromLlm(
    input: I,
    local: LocalVerdict<T>,
    verdict: LlmVerdict<T>,
    llmMs: number,
    cached: boolean,
  ): HybridDecision<T> {
    const stats = this.#stats;
    const llmConfidence =
      verdict.confidence === undefined ? null : clampConfidence(verdict.confidence);
    const { llmMinConfidence } = this.policy;
    if (
      llmMinConfidence !== undefined &&
      llmConfidence !== null &&
      llmConfidence < llmMinConfidence
    ) {
      stats.llmUnsure++;
      stats.fallbacks++;
      return this.#fallback(
        local,
        { input, local, llm: verdict, cause: 'llm_unsure' },
        llmMs,
        llmConfidence,
      );
    }
    const agrees = this.#equal(verdict.value, local.value);
    if (agrees) stats.llmConfirmed++;
    else stats.llmOverrode++;
    const confidence =
      llmConfidence ?? Math.max(this.policy.minConfidence, clampConfidence(local.confidence));
    const llmReason = verdict.reason ?? null;
    const how = cached ? 'cached llm verdict' : 'llm';
    const reason = `${how} ${agrees ? 'confirmed' : 'overrode'} local verdict${llmReason ? `: ${llmReason}` : ''}`;
    return decision(
      verdict.value,
      cached ? 'cached' : 'llm',
      confidence,
      local,
      llmConfidence,
      cached,
      llmMs,
      reason,
      null,
      llmReason,
    );
  }

  #fallback(
    local: LocalVerdict<T>,
    context: FallbackContext<I, T>,
    llmMs: number,
    llmConfidence: number | null,
  ): HybridDecision<T> {
    const chosen = this.policy.fallback(context);
    const reason = chosen.reason ?? fallbackReason(local, context, llmConfidence);
    return decision(
      chosen.value,
      'fallback',
      clampConfidence(chosen.confidence),
      local,
      llmConfidence,
      false,
      llmMs,
      reason,
      context.cause,
      context.llm?.reason ?? null,
    );
  }
}

/** The cache's verdict for `key`; a cache that fails counts as a miss. */
async function cachedVerdict<T>(
  cache: DecisionCache<T>,
  key: string,
): Promise<LlmVerdict<T> | undefined> {
  try {
    return (await cache.get(key)) ?? undefined;
  } catch {
    return undefined;
  }
}

/** Stores a verdict without waiting; a cache that fails is ignored. */
function storeVerdict<T>(cache: DecisionCache<T>, key: string, verdict: LlmVerdict<T>): void {
  try {
    const stored = cache.set(key, verdict);
    if (stored instanceof Promise) stored.catch(() => {});
  } catch {
    // A failing cache never fails a decision.
  }
}

/**
 * Builds a decision as one object literal of a fixed shape (absent fields are `null`): on the
 * hot path of every router, object spreads of varying shapes cost microseconds in V8, a literal
 * of one shape tens of nanoseconds; and `null`, unlike `undefined`, survives JSON.
 */
function decision<T>(
  value: T,
  source: DecisionSource,
  confidence: number,
  local: LocalVerdict<T> | undefined,
  llmConfidence: number | null,
  cached: boolean,
  llmMs: number,
  reason: string,
  fallbackCause: FallbackCause | null,
  llmReason: string | null,
): HybridDecision<T> {
  return {
    value,
    source,
    confidence,
    localValue: local === undefined ? null : local.value,
    localConfidence: local === undefined ? null : clampConfidence(local.confidence),
    margin: local?.margin ?? null,
    llmConfidence,
    cached,
    llmMs,
    reason,
    fallbackCause,
    llmReason,
  };
}

/** The default reason of a fallback (built only when the policy gives none: it costs ~200 ns). */
function fallbackReason<I, T>(
  local: LocalVerdict<T>,
  context: FallbackContext<I, T>,
  llmConfidence: number | null,
): string {
  const localPart = `local=${fmt(clampConfidence(local.confidence))}`;
  const llmPart =
    context.cause === 'no_llm'
      ? 'no LLM configured'
      : context.cause === 'llm_unsure'
        ? `llm=${fmt(llmConfidence ?? 0)}`
        : `llm ${FALLBACK_CAUSE_TEXT[context.cause]}${context.error ? ` (${context.error})` : ''}`;
  return `fallback: low confidence (${localPart}, ${llmPart})`;
}

function fmt(value: number): string {
  return value.toFixed(2);
}
