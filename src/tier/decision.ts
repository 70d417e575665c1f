import type { DecisionAudit } from '../core/hybrid.js';
import type { ExtractionStep } from './extract.js';
import type { TierOverride } from './scorer.js';
import type { Tier } from './tiers.js';

/**
 * A tier decision, with everything a routing server, a log line or a user needs to see. Plain
 * data: `structuredClone`, `JSON.stringify` and a spread keep every field (absent values are
 * `null`). The audit fields (`source`, `confidence`, `localConfidence`, `llmConfidence`, `llmMs`,
 * `cached`, `reason`, `fallbackCause`) are those every triage decision carries.
 */
export interface TierDecision extends DecisionAudit {
  readonly tier: Tier;
  /** The model id forced the tier; nothing was classified (`source` is `forced`). */
  readonly forced: boolean;
  /** The scorer's weighted sum (`null` when forced, or when a huge prompt was not scanned). */
  readonly score: number | null;
  /** The scorer's own tier (`null` when forced). */
  readonly localTier: Tier | null;
  /**
   * From `TierRouter.classify` only: the scorer is unsure and an LLM check is configured, so
   * `tier` is provisional; call `TierRouter.decide` for the checked decision.
   */
  readonly needsLlm: boolean;
  /** Why, in short phrases: `short (8 tokens)`, `code (function, class)`, … */
  readonly signals: readonly string[];
  /** The override that decided the tier, if any. */
  readonly override: TierOverride | null;
  /** Estimated tokens of the scored text. */
  readonly tokens: number;
  /** Image parts in the user's message. */
  readonly images: number;
  /** Which extraction cases applied to find the user's text. */
  readonly extraction: readonly ExtractionStep[];
  /**
   * The tiers to try, in order, if the provider of `tier` fails (starting with `tier`). A server
   * may move down this chain only before the first byte of a response reached the client: a
   * streamed response must never be followed by a second one.
   */
  readonly fallbackChain: readonly Tier[];
}

/**
 * A decision as a plain object.
 *
 * @deprecated Decisions are plain objects now: use the decision itself (or a spread of it).
 */
export function plainDecision(decision: TierDecision): TierDecision {
  return { ...decision };
}
