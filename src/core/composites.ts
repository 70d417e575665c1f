import type { Classifier } from './classifier.js';
import { ClassificationResult } from './result.js';

/**
 * Fires when every sub-classifier fires, with their mean confidence and their reasons joined.
 * An empty list never fires: "all of nothing" would otherwise fire on every turn, which is the
 * opposite of selective guidance (departing from the original design: the sketch divided by zero here).
 */
export class AllOf<C> implements Classifier<C> {
  readonly name: string;
  readonly classifiers: readonly Classifier<C>[];

  constructor(classifiers: readonly Classifier<C>[]) {
    this.classifiers = classifiers;
    this.name = `all_of(${classifiers.map((c) => c.name).join(', ')})`;
  }

  classify(context: C): ClassificationResult {
    const count = this.classifiers.length;
    if (count === 0) return ClassificationResult.no();
    let sum = 0;
    const reasons: string[] = [];
    for (const classifier of this.classifiers) {
      const result = classifier.classify(context);
      if (!result.relevant) return ClassificationResult.no();
      sum += result.confidence;
      if (result.reason) reasons.push(result.reason);
    }
    return ClassificationResult.yes(sum / count, { reason: reasons.join('; ') });
  }
}

/** Fires with the first sub-classifier that fires, in order; later ones are not evaluated. */
export class AnyOf<C> implements Classifier<C> {
  readonly name: string;
  readonly classifiers: readonly Classifier<C>[];

  constructor(classifiers: readonly Classifier<C>[]) {
    this.classifiers = classifiers;
    this.name = `any_of(${classifiers.map((c) => c.name).join(', ')})`;
  }

  classify(context: C): ClassificationResult {
    for (const classifier of this.classifiers) {
      const result = classifier.classify(context);
      if (result.relevant) return result;
    }
    return ClassificationResult.no();
  }
}

/**
 * Inverts a classifier: a relevant result becomes `no`; a non-relevant one becomes `yes` with
 * confidence `1 - confidence`. The reason says what did not fire, rather than inverting a reason
 * the inner `no` usually does not have. A `no` that only says the classifier could not decide (an
 * LLM classifier that failed open: `metadata.source` is `'fallback'`) is passed through, not
 * inverted: "the LLM timed out" is no evidence that the opposite holds.
 */
export class Not<C> implements Classifier<C> {
  readonly name: string;
  readonly classifier: Classifier<C>;

  constructor(classifier: Classifier<C>) {
    this.classifier = classifier;
    this.name = `not(${classifier.name})`;
  }

  classify(context: C): ClassificationResult {
    const result = this.classifier.classify(context);
    if (result.relevant) return ClassificationResult.no();
    if (result.metadata?.source === 'fallback') return result;
    const why = result.reason ? `: ${result.reason}` : '';
    return ClassificationResult.yes(1 - result.confidence, {
      reason: `${this.classifier.name} did not fire${why}`,
    });
  }
}

/** Passes a relevant result through only when its confidence reaches `minConfidence`. */
export class Threshold<C> implements Classifier<C> {
  readonly name: string;
  readonly classifier: Classifier<C>;
  readonly minConfidence: number;

  constructor(classifier: Classifier<C>, minConfidence: number) {
    this.name = thresholdName(classifier.name, minConfidence);
    this.classifier = classifier;
    this.minConfidence = minConfidence;
  }

  classify(context: C): ClassificationResult {
    const result = this.classifier.classify(context);
    return result.relevant && result.confidence >= this.minConfidence
      ? result
      : ClassificationResult.no();
  }
}

/**
 * The name of a threshold over `classifier`; throws a `RangeError` when `minConfidence` is not in
 * [0, 1] (shared with the asynchronous threshold).
 */
export function thresholdName(classifier: string, minConfidence: number): string {
  if (!(minConfidence >= 0 && minConfidence <= 1)) {
    throw new RangeError(`threshold minConfidence must be in [0, 1], got ${minConfidence}`);
  }
  return `threshold(${classifier}, ${minConfidence})`;
}

/** All of `classifiers` must fire. */
export const allOf = <C>(...classifiers: Classifier<C>[]): AllOf<C> => new AllOf(classifiers);
/** Any of `classifiers` may fire (the first that does wins). */
export const anyOf = <C>(...classifiers: Classifier<C>[]): AnyOf<C> => new AnyOf(classifiers);
/** The inverse of `classifier`. */
export const not = <C>(classifier: Classifier<C>): Not<C> => new Not(classifier);
/** `classifier`, but only at or above `minConfidence`. */
export const threshold = <C>(classifier: Classifier<C>, minConfidence: number): Threshold<C> =>
  new Threshold(classifier, minConfidence);
