import type { DecisionSource } from '../core/hybrid.js';
import type { ExtractedPrompt, ExtractionStep } from './extract.js';
import type { TierOverride, TierScore } from './scorer.js';
import type { Tier } from './tiers.js';

/** A tier decision, with everything a routing server, a log line or a user needs to see. */
export interface TierDecision {
  readonly tier: Tier;
  /** `local` (the scorer), `llm` (the LLM check), `fallback` or `forced` (by the model id). */
  readonly source: DecisionSource;
  /** The model id forced the tier; nothing was classified. */
  readonly forced: boolean;
  /** Confidence of `tier` in [0, 1]. */
  readonly confidence: number;
  /** The scorer's weighted sum (absent when forced, or when a huge prompt was not scanned). */
  readonly score?: number;
  /** The scorer's own tier and confidence (absent when forced). */
  readonly localTier?: Tier;
  readonly localConfidence?: number;
  /**
   * From `TierRouter.classify` only: the scorer is unsure and an LLM check is configured, so
   * `tier` is provisional; call `TierRouter.decide` for the checked decision.
   */
  readonly needsLlm: boolean;
  /** Why, in short phrases: `short (8 tokens)`, `code (function, class)`, … */
  readonly signals: readonly string[];
  /** One sentence: how the decision was reached. */
  readonly reason: string;
  readonly override?: TierOverride;
  /** Estimated tokens of the scored text. */
  readonly tokens: number;
  /** Image parts in the user's message. */
  readonly images: number;
  /** Which extraction cases applied to find the user's text. */
  readonly extraction: readonly ExtractionStep[];
  /** Milliseconds spent waiting for the LLM check (0 when it did not run). */
  readonly llmMs: number;
  /** The LLM verdict came from the cache. */
  readonly cached?: boolean;
  /**
   * The tiers to try, in order, if the provider of `tier` fails (starting with `tier`). A server
   * may move down this chain only before the first byte of a response reached the client
   * (SPEC-NOTES: a streamed response must never be followed by a second one).
   */
  readonly fallbackChain: readonly Tier[];
}

/**
 * Stand-ins the router gives the core `Hybrid` as reasons (it needs strings), replaced by the
 * real text when a decision's `reason` is first read: formatting numbers (`toFixed` alone costs
 * ~90 ns) would be most of a short prompt's decision time, and a routing server rarely reads
 * reasons.
 */
export const VERDICT_REASON = '\u0000verdict';
export const FALLBACK_REASON = '\u0000fallback';
/** The scorer's verdict kept although unsure, since no LLM check is configured. */
export const KEPT_REASON = '\u0000kept';

/**
 * A decision whose `signals` and `reason` are written on first access. All decisions share this
 * one shape; `toJSON` gives the same object a plain decision would.
 */
export class LazyDecision implements TierDecision {
  readonly tier: Tier;
  readonly source: DecisionSource;
  readonly forced: boolean;
  readonly confidence: number;
  readonly score: number | undefined;
  readonly localTier: Tier | undefined;
  readonly localConfidence: number | undefined;
  readonly needsLlm: boolean;
  readonly override: TierOverride | undefined;
  readonly tokens: number;
  readonly images: number;
  readonly extraction: readonly ExtractionStep[];
  readonly llmMs: number;
  readonly cached: boolean | undefined;
  readonly fallbackChain: readonly Tier[];
  readonly #scored: TierScore | undefined;
  /** What happened to an ambiguous verdict (`fallback MEDIUM`): the last signal's outcome. */
  readonly #outcome: string | undefined;
  /** The reason as the hybrid gave it, possibly with a stand-in (see VERDICT_REASON). */
  readonly #rawReason: string;
  /** The model id that forced the tier, for a forced decision. */
  readonly #model: string | undefined;
  #signals: readonly string[] | undefined;
  #reason: string | undefined;

  constructor(
    tier: Tier,
    source: DecisionSource,
    confidence: number,
    scored: TierScore | undefined,
    prompt: ExtractedPrompt | undefined,
    needsLlm: boolean,
    llmMs: number,
    cached: true | undefined,
    fallbackChain: readonly Tier[],
    outcome: string | undefined,
    rawReason: string,
    model: string | undefined,
  ) {
    this.tier = tier;
    this.source = source;
    this.forced = source === 'forced';
    this.confidence = confidence;
    this.score = scored?.score;
    this.localTier = scored?.tier;
    this.localConfidence = scored?.confidence;
    this.needsLlm = needsLlm;
    this.override = scored?.override;
    this.tokens = scored?.tokens ?? 0;
    this.images = prompt?.images ?? 0;
    this.extraction = prompt?.steps ?? [];
    this.llmMs = llmMs;
    this.cached = cached;
    this.fallbackChain = fallbackChain;
    this.#scored = scored;
    this.#outcome = outcome;
    this.#rawReason = rawReason;
    this.#model = model;
  }

  get signals(): readonly string[] {
    this.#signals ??= this.#writeSignals();
    return this.#signals;
  }

  get reason(): string {
    this.#reason ??= this.#writeReason();
    return this.#reason;
  }

  toJSON(): TierDecision {
    return {
      tier: this.tier,
      source: this.source,
      forced: this.forced,
      confidence: this.confidence,
      score: this.score,
      localTier: this.localTier,
      localConfidence: this.localConfidence,
      needsLlm: this.needsLlm,
      signals: this.signals,
      reason: this.reason,
      override: this.override,
      tokens: this.tokens,
      images: this.images,
      extraction: this.extraction,
      llmMs: this.llmMs,
      cached: this.cached,
      fallbackChain: this.fallbackChain,
    };
  }

  #writeSignals(): readonly string[] {
    const outcome = this.#outcome;
    const scored = this.#scored;
    if (!scored) return [`forced (model ${this.#model})`];
    // The score's own array, with this decision's line appended (one decision per score).
    const signals = scored.signals as string[];
    if (outcome !== undefined) signals.push(ambiguity(scored, outcome));
    return signals;
  }

  #writeReason(): string {
    const reason = this.#rawReason;
    const scored = this.#scored;
    if (!scored) return `model id ${this.#model} forces ${this.tier}`;
    if (reason === FALLBACK_REASON) {
      return `fallback to ${this.tier}: ambiguous local verdict ${scored.tier} (confidence ${scored.confidence.toFixed(2)}), no LLM check configured`;
    }
    if (reason === KEPT_REASON) {
      return `${verdictReason(scored)} (confidence ${scored.confidence.toFixed(2)}; no LLM configured)`;
    }
    if (this.needsLlm) {
      return `ambiguous local verdict ${scored.tier} (confidence ${scored.confidence.toFixed(2)}); LLM check pending`;
    }
    return reason.includes(VERDICT_REASON)
      ? reason.replace(VERDICT_REASON, verdictReason(scored))
      : reason;
  }
}

/**
 * A decision as a plain object (what JSON.stringify writes), for callers that spread or copy it:
 * a spread does not see the `signals` and `reason` a decision writes on first access.
 */
export function plainDecision(decision: TierDecision): TierDecision {
  return decision instanceof LazyDecision ? decision.toJSON() : decision;
}

/** The reason of the scorer's verdict. */
function verdictReason(score: TierScore): string {
  const override = score.override ? ` (override: ${score.override})` : '';
  return `scored ${score.score?.toFixed(3) ?? 'without scan'} → ${score.tier}${override}`;
}

function ambiguity(score: TierScore, outcome: string): string {
  return `ambiguous (conf=${score.confidence.toFixed(2)}) → ${outcome}`;
}
