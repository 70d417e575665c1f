import {
  type Certainty,
  certaintyFromConfidence,
  certaintyScore,
  clampConfidence,
} from './certainty.js';

/**
 * The answer of a binary classifier: does this apply to the context, and how strongly?
 *
 * `confidence` is the strength of relevance in [0, 1]: a `yes` carries how sure the classifier is
 * that it applies, a `maybe` is relevant with a lower confidence, and a `no` carries 0 unless the
 * classifier says otherwise. This is what makes `not(x)` well defined: its confidence is
 * `1 - x.confidence` (the original design).
 */
export interface ClassificationResult {
  /** Whether the classifier applies (guidance should be injected, the capability is needed, …). */
  readonly relevant: boolean;
  /** Strength of relevance, in [0, 1]. */
  readonly confidence: number;
  /** A short human-readable explanation; always present when `relevant` is true. */
  readonly reason?: string;
  /** Anything else a consumer may use (the cycle found, the matched patterns, …). */
  readonly metadata?: Readonly<Record<string, unknown>>;
}

/** Optional parts of a result. */
export interface ResultDetails {
  readonly reason?: string;
  readonly metadata?: Readonly<Record<string, unknown>>;
}

const NO: ClassificationResult = Object.freeze({ relevant: false, confidence: 0 });

function build(
  relevant: boolean,
  confidence: number,
  details?: ResultDetails,
): ClassificationResult {
  const result: { -readonly [K in keyof ClassificationResult]: ClassificationResult[K] } = {
    relevant,
    confidence: clampConfidence(confidence),
  };
  if (details?.reason !== undefined) result.reason = details.reason;
  if (details?.metadata !== undefined) result.metadata = details.metadata;
  return result;
}

/** Factories for {@link ClassificationResult} values (the original design). */
export const ClassificationResult = {
  /** The classifier applies. A missing reason is filled in, since relevant results must explain. */
  yes(confidence = 0.9, details?: ResultDetails): ClassificationResult {
    return build(true, confidence, { ...details, reason: details?.reason ?? 'matched' });
  },
  /** The classifier may apply: relevant, with a lower confidence (a departure from the original design). */
  maybe(confidence = 0.5, details?: ResultDetails): ClassificationResult {
    return build(true, confidence, { ...details, reason: details?.reason ?? 'possible match' });
  },
  /**
   * The classifier does not apply. Without arguments this returns one shared frozen value, so the
   * common case allocates nothing.
   */
  no(details?: ResultDetails & { readonly confidence?: number }): ClassificationResult {
    if (details === undefined) return NO;
    return build(false, details.confidence ?? 0, details);
  },
  /** A result from a certainty tag (the original design): relevant when the tag's score reaches `threshold`. */
  fromCertainty(tag: Certainty, threshold: number, details?: ResultDetails): ClassificationResult {
    const score = certaintyScore(tag);
    return score >= threshold
      ? build(true, score, { ...details, reason: details?.reason ?? `certainty ${tag}` })
      : build(false, score, details);
  },
  /** The certainty tag that does not overstate this result's confidence. */
  certaintyOf(result: ClassificationResult): Certainty {
    return certaintyFromConfidence(result.confidence);
  },
} as const;
