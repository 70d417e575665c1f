import type { Classifier } from '../core/classifier.js';
import type { GuidanceProvider } from './engine.js';
import type { GuidanceContext } from './types.js';

// The rest of the design's API lives in the core, and is on this entry point too.
export { benchmarkClassifier, type ClassifierBenchmark } from '../core/benchmark.js';
/**
 * The original design's public names, where this library names the same thing differently, so
 * that code written against the design reads the same here. Each is the very same class or type
 * as its native name (`LLMClassifier === LlmGuidanceClassifier`); the native names are the ones
 * documented. Names the design and the library share (`DoomLoopClassifier`, `TrajectoryBuilder`,
 * …) need no alias; the design's core names (`ClassificationResult`, `ClassifierConfig`,
 * `run_classifiers` and `benchmark_classifier` as `runClassifiers` and `benchmarkClassifier`) are
 * re-exported here, so that the design's whole public API is on this entry point.
 */
export {
  AllOf as AllOfClassifier,
  AnyOf as AnyOfClassifier,
  Not as NotClassifier,
  Threshold as ThresholdClassifier,
} from '../core/composites.js';
export {
  type ClassifierConfig,
  type ClassifierConfigInput,
  CooldownTracker as ClassifierCooldownTracker,
  classifierConfig,
} from '../core/cooldown.js';
export { ClassificationResult } from '../core/result.js';
export { runClassifiers } from '../core/run.js';
export { LlmGuidanceClassifier as LLMClassifier } from './classifiers/llm.js';

/** The design's `GuidanceClassifier` protocol: a local classifier over a guidance context. */
export type GuidanceClassifier = Classifier<GuidanceContext>;

/** The design's `GuidanceProviderConfig`: a classifier, its guidance and its limits. */
export type GuidanceProviderConfig = GuidanceProvider;
