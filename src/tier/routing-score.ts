import type { TierDecision } from './decision.js';
import { extractPrompt, type TierRequest } from './extract.js';
import type { TierRouter } from './router.js';
import { tierRank } from './tiers.js';

/**
 * The score a two-way split compares with its threshold, read from a decision: the scorer's
 * score, or +∞ when an override (huge context, reasoning, complexity) decided, since a split
 * sends those to the strong tier whatever the threshold. A tier forced by the model id counts as
 * +∞ from COMPLEX up and −∞ below. What `triage eval routing` and `triage calibrate` rank by.
 */
export function routingScore(
  decision: Pick<TierDecision, 'score' | 'override' | 'forced' | 'tier'>,
): number {
  if (decision.forced) {
    return tierRank(decision.tier) >= tierRank('COMPLEX')
      ? Number.POSITIVE_INFINITY
      : Number.NEGATIVE_INFINITY;
  }
  const override = decision.override;
  if (override != null && override !== 'vision') return Number.POSITIVE_INFINITY;
  return decision.score ?? Number.POSITIVE_INFINITY;
}

/** The router's routing score and the length-only baseline (characters of the scored text). */
export interface RoutingScores {
  readonly router: number[];
  readonly length: number[];
}

/** Scores each input with `router` (no LLM check: `classify`), and measures its length. */
export function routingScores(
  router: TierRouter,
  inputs: Iterable<TierRequest | string>,
): RoutingScores {
  const scores: RoutingScores = { router: [], length: [] };
  for (const input of inputs) {
    scores.router.push(routingScore(router.classify(input)));
    scores.length.push(extractPrompt(input, router.options.extraction).text.length);
  }
  return scores;
}
