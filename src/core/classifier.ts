import type { ClassificationResult } from './result.js';

/**
 * A local classifier: a name and a synchronous decision over a typed context. Local classifiers
 * run on every request, so they must be fast, must not do I/O, and should not throw (the runner
 * fails open when one does).
 */
export interface Classifier<C> {
  /** A unique, stable identifier (used for cooldowns, audit and metrics). */
  readonly name: string;
  classify(context: C): ClassificationResult;
}

/**
 * An LLM-backed (or otherwise I/O-bound) classifier. It receives an AbortSignal and must stop
 * work when it fires; callers put it under a strict timeout.
 */
export interface AsyncClassifier<C> {
  readonly name: string;
  classify(context: C, signal?: AbortSignal): Promise<ClassificationResult>;
}
