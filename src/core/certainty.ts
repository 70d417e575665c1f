/**
 * Certainty tags: the words LLM classifiers answer with (the original design), and their scores
 * (a departure from the original design). Models are better at picking a word than at producing a calibrated number, so
 * LLM-facing schemas use tags and the rest of triage uses numbers; these functions convert.
 */

/** The certainty tags, weakest first. */
export const CERTAINTY_TAGS = [
  'no_signal',
  'very_weak',
  'weak',
  'tentative',
  'reasonable',
  'strong',
  'very_strong',
  'near_certain',
] as const;

/** One certainty tag. */
export type Certainty = (typeof CERTAINTY_TAGS)[number];

/** The score of each tag. */
export const CERTAINTY_SCORES: Readonly<Record<Certainty, number>> = Object.freeze({
  no_signal: 0,
  very_weak: 0.15,
  weak: 0.3,
  tentative: 0.45,
  reasonable: 0.6,
  strong: 0.75,
  very_strong: 0.88,
  near_certain: 0.97,
});

/** The default threshold a certainty score must reach to be acted on (the original design). */
export const DEFAULT_CERTAINTY_THRESHOLD = 0.65;

const TAG_SET: ReadonlySet<string> = new Set(CERTAINTY_TAGS);

/** True when `value` is one of the certainty tags. */
export function isCertainty(value: unknown): value is Certainty {
  return typeof value === 'string' && TAG_SET.has(value);
}

/** The score of a tag, in [0, 1]. */
export function certaintyScore(tag: Certainty): number {
  return CERTAINTY_SCORES[tag];
}

/**
 * The strongest tag whose score does not exceed `confidence`, so that converting a number to a tag
 * and back never overstates it. Values outside [0, 1] or not finite are clamped (NaN → no_signal).
 */
export function certaintyFromConfidence(confidence: number): Certainty {
  const value = clampConfidence(confidence);
  let tag: Certainty = 'no_signal';
  for (const candidate of CERTAINTY_TAGS) {
    if (CERTAINTY_SCORES[candidate] <= value) tag = candidate;
  }
  return tag;
}

/** Clamps a number to [0, 1]; NaN becomes 0. */
export function clampConfidence(value: number): number {
  if (!(value > 0)) return 0;
  return Math.min(1, value);
}
