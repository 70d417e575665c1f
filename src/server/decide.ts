import type { DecisionSource, FallbackCause } from '../core/hybrid.js';
import type { Tier } from '../tier/tiers.js';
import type { Cancellation } from '../triage-cancellation.js';

export type { Cancellation } from '../triage-cancellation.js';

/**
 * The server's view of the tier router: a chat request in, a routing decision out. The server is
 * written against this small port, so that how a tier is chosen (local scorer, LLM check, forced
 * ids) stays the tier router's business.
 */

/** An OpenAI chat-completions request body, as parsed from JSON (only `messages` is checked). */
export interface ChatRequestBody {
  readonly model?: unknown;
  readonly messages: readonly unknown[];
  readonly stream?: unknown;
  readonly [field: string]: unknown;
}

/** How the tier router decided a request, as the server needs it. */
export interface TierChoice {
  readonly tier: Tier;
  /** The tiers to try, in order: `tier` first, then the fallback chain up the tiers. */
  readonly chain: readonly Tier[];
  /** True when the model id named the tier (e.g. `simple`, `triage/complex`). */
  readonly forced: boolean;
  /** Confidence in [0, 1]. */
  readonly confidence: number;
  /** The weighted score of the local classifier (absent for forced tiers). */
  readonly score?: number;
  /** Why, in short human-readable signals (never prompt text). */
  readonly signals: readonly string[];
  readonly source: DecisionSource;
  /** Why the decision fell back (`no_llm`, `llm_timeout`, …); `null` unless `source` is `fallback`. */
  readonly fallbackCause?: FallbackCause | null;
  /** Whether the LLM check was asked (or answered from its cache). */
  readonly llmChecked: boolean;
  /** Whether the LLM check changed the local tier. */
  readonly llmOverrode: boolean;
  /** Milliseconds spent waiting for the LLM check (0 when it was not asked). */
  readonly llmMs: number;
}

/** The tier router, as the server uses it. */
export interface TierRouterPort {
  /**
   * Decides the tier of a request whose model is `auto`, `triage/auto` or a forced-tier id (or
   * any id, when the server routes unknown models). Synchronous when no I/O is needed; may return
   * a promise when the LLM check is asked, which must stop when `cancel.signal` aborts (the
   * client went away). Read `cancel.signal` only when about to wait: it is created on demand.
   */
  decide(request: ChatRequestBody, cancel: Cancellation): TierChoice | Promise<TierChoice>;
  /** Whether `model` is an id the router decides (`auto`, `triage/auto`, forced-tier ids). */
  accepts(model: string): boolean;
  /** The ids the router accepts, listed by `GET /v1/models`. */
  readonly modelIds: readonly string[];
}
