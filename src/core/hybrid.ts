import { clampConfidence } from './certainty.js';
import { withDeadline } from './deadline.js';
import { DecisionTimeoutError, describeError } from './errors.js';

/**
 * The hybrid decision (ARCHITECTURE: "one idea, five subsystems"): decide locally in microseconds
 * when the local classifier is sure; ask an LLM under a strict timeout only when it is not; fall
 * back to a safe value when the LLM fails, times out or is itself unsure. Every decision records
 * where it came from, both confidences, the time the LLM took and why, so it can be audited.
 */

/** Where a decision came from. */
export type DecisionSource = 'local' | 'llm' | 'fallback' | 'forced';

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
  /** Why the LLM could not be used: `no_llm`, `timeout`, `error`, or `unsure`. */
  readonly cause: 'no_llm' | 'timeout' | 'error' | 'unsure';
  /** The error's description, for `timeout` and `error`. */
  readonly error?: string;
}

/** A cache of LLM verdicts (an LRU with TTL, a shared store, …). */
export interface DecisionCache<T> {
  get(key: string): LlmVerdict<T> | undefined;
  set(key: string, verdict: LlmVerdict<T>): void;
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

/** An audited decision. */
export interface HybridDecision<T> {
  readonly value: T;
  readonly source: DecisionSource;
  /** Confidence of `value` in [0, 1]. */
  readonly confidence: number;
  /** The local classifier's value and confidence (absent for forced decisions). */
  readonly localValue?: T;
  readonly localConfidence?: number;
  readonly margin?: number;
  /** The LLM's confidence, when it answered. */
  readonly llmConfidence?: number;
  /** Whether the LLM verdict came from the cache. */
  readonly cached?: boolean;
  /** Milliseconds spent waiting for the LLM (0 when it was not asked). */
  readonly llmMs: number;
  readonly reason: string;
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
  llmTimeouts: number;
  llmErrors: number;
  llmUnsure: number;
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
    llmUnsure: 0,
    fallbacks: 0,
    llmMs: 0,
  };
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

  /** Runs the local classifier and, when it is unsure, the LLM or the fallback. */
  decide(input: I, signal?: AbortSignal): Promise<HybridDecision<T>> {
    return this.decideFrom(input, this.policy.local(input), signal);
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
      return this.#fallback(input, local, { input, local, cause: 'no_llm' }, 0);
    }
    const confident = this.isConfident(local);
    const confidence = clampConfidence(local.confidence);
    const reason = confident
      ? (local.reason ?? `local confidence ${fmt(confidence)}`)
      : `${local.reason ?? 'local verdict'} (confidence ${fmt(confidence)}; no LLM configured)`;
    return decision(local.value, 'local', confidence, local, undefined, undefined, 0, reason);
  }

  /**
   * Where the decision on a local verdict of this confidence (and margin) comes from when it
   * needs no I/O, counted as {@link decideLocally} counts it: `local` (confident, or unsure with
   * `withoutLlm: 'local'`), `fallback` (unsure, no LLM, `withoutLlm: 'fallback'`: the policy's
   * fallback decides the value), or `undefined` when the LLM must be asked. For a hot path that
   * builds its own decision object; {@link decideLocally} is this and the decision.
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

  /** Like {@link decide}, for a caller that already has the local verdict. */
  async decideFrom(
    input: I,
    local: LocalVerdict<T>,
    signal?: AbortSignal,
  ): Promise<HybridDecision<T>> {
    const immediate = this.decideLocally(input, local);
    if (immediate) return immediate;
    const llm = this.policy.llm as LlmDecider<I, T>;
    const stats = this.#stats;
    stats.decisions++;
    const { cache, cacheKey } = this.policy;
    const key = cache && cacheKey ? cacheKey(input) : undefined;
    const hit = key === undefined ? undefined : cache?.get(key);
    if (hit) {
      stats.cacheHits++;
      return this.#fromLlm(input, local, hit, 0, true);
    }
    const started = performance.now();
    let verdict: LlmVerdict<T>;
    try {
      stats.llmCalls++;
      verdict = await withDeadline(
        (inner) => llm(input, local, inner),
        this.policy.timeoutMs,
        `${this.policy.name} LLM decision`,
        signal,
      );
    } catch (error) {
      const llmMs = performance.now() - started;
      stats.llmMs += llmMs;
      if (signal?.aborted) throw error;
      const timedOut = error instanceof DecisionTimeoutError;
      if (timedOut) stats.llmTimeouts++;
      else stats.llmErrors++;
      stats.fallbacks++;
      return this.#fallback(
        input,
        local,
        {
          input,
          local,
          cause: timedOut ? 'timeout' : 'error',
          error: describeError(error),
        },
        llmMs,
      );
    }
    const llmMs = performance.now() - started;
    stats.llmMs += llmMs;
    const decided = this.#fromLlm(input, local, verdict, llmMs, false);
    if (key !== undefined && decided.source === 'llm') cache?.set(key, verdict);
    return decided;
  }

  /** A decision forced by the caller (e.g. a tier-specific model id), bypassing classification. */
  forced(value: T, reason: string): HybridDecision<T> {
    this.#stats.decisions++;
    this.#stats.forced++;
    return decision(value, 'forced', 1, undefined, undefined, undefined, 0, reason);
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
      verdict.confidence === undefined ? undefined : clampConfidence(verdict.confidence);
    const { llmMinConfidence } = this.policy;
    if (
      llmMinConfidence !== undefined &&
      llmConfidence !== undefined &&
      llmConfidence < llmMinConfidence
    ) {
      stats.llmUnsure++;
      stats.fallbacks++;
      return this.#fallback(
        input,
        local,
        { input, local, llm: verdict, cause: 'unsure' },
        llmMs,
        llmConfidence,
      );
    }
    const agrees = this.#equal(verdict.value, local.value);
    if (agrees) stats.llmConfirmed++;
    else stats.llmOverrode++;
    const confidence =
      llmConfidence ?? Math.max(this.policy.minConfidence, clampConfidence(local.confidence));
    const reason = `llm ${agrees ? 'confirmed' : 'overrode'} local verdict${verdict.reason ? `: ${verdict.reason}` : ''}`;
    return decision(
      verdict.value,
      'llm',
      confidence,
      local,
      llmConfidence,
      cached || undefined,
      llmMs,
      reason,
    );
  }

  #fallback(
    _input: I,
    local: LocalVerdict<T>,
    context: FallbackContext<I, T>,
    llmMs: number,
    llmConfidence?: number,
  ): HybridDecision<T> {
    const chosen = this.policy.fallback(context);
    const reason = chosen.reason ?? fallbackReason(local, context, llmConfidence);
    return decision(
      chosen.value,
      'fallback',
      clampConfidence(chosen.confidence),
      local,
      llmConfidence,
      undefined,
      llmMs,
      reason,
    );
  }
}

/**
 * Builds a decision as one object literal of a fixed shape (absent fields are `undefined`): on
 * the hot path of every router, object spreads of varying shapes cost microseconds in V8, a
 * literal of one shape tens of nanoseconds.
 */
function decision<T>(
  value: T,
  source: DecisionSource,
  confidence: number,
  local: LocalVerdict<T> | undefined,
  llmConfidence: number | undefined,
  cached: true | undefined,
  llmMs: number,
  reason: string,
): HybridDecision<T> {
  return {
    value,
    source,
    confidence,
    localValue: local?.value,
    localConfidence: local === undefined ? undefined : clampConfidence(local.confidence),
    margin: local?.margin,
    llmConfidence,
    cached,
    llmMs,
    reason,
  };
}

/** The default reason of a fallback (built only when the policy gives none: it costs ~200 ns). */
function fallbackReason<I, T>(
  local: LocalVerdict<T>,
  context: FallbackContext<I, T>,
  llmConfidence: number | undefined,
): string {
  const localPart = `local=${fmt(clampConfidence(local.confidence))}`;
  const llmPart =
    context.cause === 'no_llm'
      ? 'no LLM configured'
      : context.cause === 'unsure'
        ? `llm=${fmt(llmConfidence ?? 0)}`
        : `llm ${context.cause}${context.error ? ` (${context.error})` : ''}`;
  return `fallback: low confidence (${localPart}, ${llmPart})`;
}

function fmt(value: number): string {
  return value.toFixed(2);
}
