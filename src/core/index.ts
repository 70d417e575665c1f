/** The classifier core every subsystem builds on. */

export {
  type AnyClassifier,
  AsyncAllOf,
  AsyncAnyOf,
  AsyncNot,
  AsyncThreshold,
  allOfAsync,
  anyOfAsync,
  notAsync,
  thresholdAsync,
} from './async-composites.js';
export {
  type BenchmarkOptions,
  benchmarkClassifier,
  type ClassifierBenchmark,
  summarise,
} from './benchmark.js';
export {
  CERTAINTY_SCORES,
  CERTAINTY_TAGS,
  type Certainty,
  certaintyFromConfidence,
  certaintyScore,
  clampConfidence,
  DEFAULT_CERTAINTY_THRESHOLD,
  isCertainty,
} from './certainty.js';
export type { AsyncClassifier, Classifier } from './classifier.js';
export { AllOf, AnyOf, allOf, anyOf, Not, not, Threshold, threshold } from './composites.js';
export {
  type ClassifierConfig,
  type ClassifierConfigInput,
  ClassifierConfigSchema,
  CooldownTracker,
  classifierConfig,
  DEFAULT_CLASSIFIER_CONFIG,
} from './cooldown.js';
export { withDeadline } from './deadline.js';
export { type LruDecisionCacheOptions, lruDecisionCache } from './decision-cache.js';
export {
  ConfigError,
  type ConfigIssue,
  DecisionTimeoutError,
  describeError,
  InputError,
  isTimeoutError,
  TriageError,
} from './errors.js';
export {
  DECISION_SOURCES,
  type DecideOptions,
  type DecisionAudit,
  type DecisionCache,
  type DecisionSource,
  decideOptions,
  FALLBACK_CAUSE_TEXT,
  FALLBACK_CAUSES,
  type FallbackCause,
  type FallbackContext,
  type FallbackVerdict,
  fallbackCauseOf,
  Hybrid,
  type HybridDecision,
  type HybridPolicy,
  type HybridStats,
  type LlmDecider,
  type LlmVerdict,
  type LocalVerdict,
} from './hybrid.js';
export { ClassificationResult, type ResultDetails } from './result.js';
export {
  type ClassifierEntry,
  type ClassifierFailure,
  type RunOptions,
  type RunOutcome,
  runClassifiers,
  type SuppressionReason,
} from './run.js';
export { type ConfigValidator, compileConfig, describeAjvErrors } from './validate.js';
