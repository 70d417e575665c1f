/** Guidance classifiers over agent trajectories (the original design): when to nudge an agent, and with what. */
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
} from '../core/async-composites.js';
export {
  AllOfClassifier,
  AnyOfClassifier,
  benchmarkClassifier,
  ClassificationResult,
  type ClassifierBenchmark,
  type ClassifierConfig,
  type ClassifierConfigInput,
  ClassifierCooldownTracker,
  classifierConfig,
  type GuidanceClassifier,
  type GuidanceProviderConfig,
  LLMClassifier,
  NotClassifier,
  runClassifiers,
  ThresholdClassifier,
} from './aliases.js';
export { TrajectoryBuilder, type TrajectoryBuilderOptions } from './builder.js';
export {
  DoomLoopClassifier,
  type DoomLoopOptions,
  DoomLoopOptionsSchema,
} from './classifiers/doom-loop.js';
export {
  ErrorStreakClassifier,
  type ErrorStreakOptions,
  ErrorStreakOptionsSchema,
} from './classifiers/error-streak.js';
export {
  HighToolCountClassifier,
  type HighToolCountOptions,
  HighToolCountOptionsSchema,
} from './classifiers/high-tool-count.js';
export {
  LargeOutputClassifier,
  type LargeOutputOptions,
  LargeOutputOptionsSchema,
} from './classifiers/large-output.js';
export {
  DEFAULT_LLM_TIMEOUT_MS,
  LLM_REASON_LIMIT,
  LlmGuidanceClassifier,
  type LlmGuidanceClassifierOptions,
  type LlmGuidanceStats,
  type LlmGuidanceValue,
  type LlmGuidanceVerdict,
  LlmGuidanceVerdictSchema,
} from './classifiers/llm.js';
export {
  ProgressStallClassifier,
  type ProgressStallOptions,
  ProgressStallOptionsSchema,
} from './classifiers/progress-stall.js';
export {
  DEFAULT_SENSITIVE_TERMS,
  SensitiveContentClassifier,
  type SensitiveContentOptions,
  SensitiveContentOptionsSchema,
} from './classifiers/sensitive-content.js';
export {
  SequentialWhenParallelClassifier,
  type SequentialWhenParallelOptions,
  SequentialWhenParallelOptionsSchema,
} from './classifiers/sequential-when-parallel.js';
export {
  SingleToolRepeatedClassifier,
  type SingleToolRepeatedOptions,
  SingleToolRepeatedOptionsSchema,
} from './classifiers/single-tool-repeated.js';
export {
  compileGuidanceConfig,
  type GuidanceConfig,
  GuidanceConfigSchema,
  GuidanceProviderSchema,
  type LoadedGuidanceConfig,
  loadGuidanceConfig,
} from './config.js';
export { createGuidance, type GuidanceOptions, type GuidanceProviderSpec } from './create.js';
export { DEFAULT_GUIDANCE, defaultGuidanceProviders } from './defaults.js';
export {
  type Guidance,
  GuidanceEngine,
  type GuidanceEngineOptions,
  type GuidanceEngineStats,
  type GuidanceProvider,
  type GuidanceText,
} from './engine.js';
export { TrajectoryEventError } from './errors.js';
export { EVENT_TYPES, parseTrajectoryEvent } from './events.js';
export { normaliseErrorMessage, normaliseParam } from './normalise.js';
export {
  type TrajectoryOptions,
  type TrajectoryOptionsInput,
  TrajectoryOptionsSchema,
  trajectoryOptions,
} from './options.js';
export {
  type BuiltClassifier,
  buildClassifier,
  CLASSIFIER_TYPES,
  type SpecDependencies,
} from './spec.js';
export { compileTemplate, type TemplateValues } from './template.js';
export {
  type DoomLoopPattern,
  type GuidanceContext,
  type GuidanceSession,
  type GuidanceSessionInput,
  type ProgressStallPattern,
  type ToolCall,
  type ToolCallEvent,
  type ToolCallRecord,
  type ToolInvokedEvent,
  ToolResult,
  type ToolResultEvent,
  type ToolResultInput,
  type Trajectory,
  type TrajectoryEvent,
  type TurnEndEvent,
  type TurnEvent,
  type TurnSummary,
} from './types.js';
