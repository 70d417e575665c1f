import type { AsyncClassifier, Classifier } from './classifier.js';
import { AllOf, AnyOf, Not, Threshold, thresholdName } from './composites.js';
import type { ClassificationResult } from './result.js';

/**
 * The composites over classifiers of which at least one is asynchronous (an LLM classifier), so
 * that "the LLM says the agent is stuck AND it made 30 calls" can be written as one classifier.
 * They decide exactly as their synchronous counterparts in `composites.ts` (which they reuse: the
 * children's results are gathered, then the same rule applies), and evaluate children in order,
 * one at a time, stopping as soon as the answer is known: put the local classifiers first, and an
 * `allOfAsync` asks its LLM only when the local ones fired. The caller's signal reaches every
 * asynchronous child. A child that throws makes the composite throw; callers that run
 * classifiers (the guidance engine) fail open past it.
 */

/** A local or an asynchronous classifier. */
export type AnyClassifier<C> = Classifier<C> | AsyncClassifier<C>;

/** The result a child already gave, replayed to the synchronous rule. */
class Answered<C> implements Classifier<C> {
  constructor(
    readonly name: string,
    readonly result: ClassificationResult,
  ) {}

  classify(): ClassificationResult {
    return this.result;
  }
}

async function ask<C>(
  classifier: AnyClassifier<C>,
  context: C,
  signal: AbortSignal | undefined,
): Promise<Answered<C>> {
  return new Answered(classifier.name, await classifier.classify(context, signal));
}

/**
 * Asks `classifiers` in order until one answers `relevant === stopAt`, and returns the answers
 * so far (the last is the one that stopped it, if any).
 */
async function askUntil<C>(
  classifiers: readonly AnyClassifier<C>[],
  stopAt: boolean,
  context: C,
  signal: AbortSignal | undefined,
): Promise<Classifier<C>[]> {
  const answered: Classifier<C>[] = [];
  for (const classifier of classifiers) {
    const child = await ask(classifier, context, signal);
    answered.push(child);
    if (child.result.relevant === stopAt) break;
  }
  return answered;
}

/** Fires when every child fires, with their mean confidence; stops at the first that does not. */
export class AsyncAllOf<C> implements AsyncClassifier<C> {
  readonly name: string;
  readonly classifiers: readonly AnyClassifier<C>[];

  constructor(classifiers: readonly AnyClassifier<C>[]) {
    this.classifiers = classifiers;
    this.name = `all_of(${classifiers.map((c) => c.name).join(', ')})`;
  }

  async classify(context: C, signal?: AbortSignal): Promise<ClassificationResult> {
    // Ending at a child that did not fire, the list gets the synchronous rule's `no`.
    return new AllOf(await askUntil(this.classifiers, false, context, signal)).classify(context);
  }
}

/** Fires with the first child that fires, in order; later ones are not asked. */
export class AsyncAnyOf<C> implements AsyncClassifier<C> {
  readonly name: string;
  readonly classifiers: readonly AnyClassifier<C>[];

  constructor(classifiers: readonly AnyClassifier<C>[]) {
    this.classifiers = classifiers;
    this.name = `any_of(${classifiers.map((c) => c.name).join(', ')})`;
  }

  async classify(context: C, signal?: AbortSignal): Promise<ClassificationResult> {
    return new AnyOf(await askUntil(this.classifiers, true, context, signal)).classify(context);
  }
}

/** Inverts an asynchronous classifier, as `Not` does a local one. */
export class AsyncNot<C> implements AsyncClassifier<C> {
  readonly name: string;
  readonly classifier: AnyClassifier<C>;

  constructor(classifier: AnyClassifier<C>) {
    this.classifier = classifier;
    this.name = `not(${classifier.name})`;
  }

  async classify(context: C, signal?: AbortSignal): Promise<ClassificationResult> {
    return new Not(await ask(this.classifier, context, signal)).classify(context);
  }
}

/** Passes an asynchronous classifier's relevant result through only from `minConfidence`. */
export class AsyncThreshold<C> implements AsyncClassifier<C> {
  readonly name: string;
  readonly classifier: AnyClassifier<C>;
  readonly minConfidence: number;

  constructor(classifier: AnyClassifier<C>, minConfidence: number) {
    this.name = thresholdName(classifier.name, minConfidence);
    this.classifier = classifier;
    this.minConfidence = minConfidence;
  }

  async classify(context: C, signal?: AbortSignal): Promise<ClassificationResult> {
    const child = await ask(this.classifier, context, signal);
    return new Threshold(child, this.minConfidence).classify(context);
  }
}

/** All of `classifiers` must fire; local and LLM classifiers mixed. */
export const allOfAsync = <C>(...classifiers: AnyClassifier<C>[]): AsyncAllOf<C> =>
  new AsyncAllOf(classifiers);
/** Any of `classifiers` may fire (the first that does wins); local and LLM classifiers mixed. */
export const anyOfAsync = <C>(...classifiers: AnyClassifier<C>[]): AsyncAnyOf<C> =>
  new AsyncAnyOf(classifiers);
/** The inverse of an asynchronous `classifier`. */
export const notAsync = <C>(classifier: AnyClassifier<C>): AsyncNot<C> => new AsyncNot(classifier);
/** An asynchronous `classifier`, but only at or above `minConfidence`. */
export const thresholdAsync = <C>(
  classifier: AnyClassifier<C>,
  minConfidence: number,
): AsyncThreshold<C> => new AsyncThreshold(classifier, minConfidence);
