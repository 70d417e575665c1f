import type { Classifier } from '../core/classifier.js';
import type { GuidanceProvider } from './engine.js';
import type { GuidanceContext } from './types.js';

/**
 * The original design's public names, where this library names the same thing differently, so
 * that code written against the design reads the same here. Each is the very same class or type
 * as its native name (`LLMClassifier === LlmGuidanceClassifier`); the native names are the ones
 * documented. Names the design and the library share (`ClassificationResult`, `ClassifierConfig`,
 * `DoomLoopClassifier`, `TrajectoryBuilder`, …) need no alias, and `run_classifiers` and
 * `benchmark_classifier` are `runClassifiers` and `benchmarkClassifier` in TypeScript's spelling.
 */
export {
  AllOf as AllOfClassifier,
  AnyOf as AnyOfClassifier,
  Not as NotClassifier,
  Threshold as ThresholdClassifier,
} from '../core/composites.js';
export { CooldownTracker as ClassifierCooldownTracker } from '../core/cooldown.js';
export { LlmGuidanceClassifier as LLMClassifier } from './classifiers/llm.js';

/** The design's `GuidanceClassifier` protocol: a local classifier over a guidance context. */
export type GuidanceClassifier = Classifier<GuidanceContext>;

/** The design's `GuidanceProviderConfig`: a classifier, its guidance and its limits. */
export type GuidanceProviderConfig = GuidanceProvider;
