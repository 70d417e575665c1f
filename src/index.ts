/**
 * triage: decide in microseconds how each request to an LLM application should be handled.
 *
 * The root is the front door: each subsystem's entry points, the types of their options and
 * decisions, the classifier contract and the errors to test for. Each subsystem's whole public
 * API (schemas, building blocks, tuning constants) is on its own subpath: `triage/tier`,
 * `triage/injection`, `triage/context`, `triage/capabilities`, `triage/guidance`,
 * `triage/pipeline` and `triage/llm`. The routing server is on `triage/server` only, so that
 * importing the library never loads the server stack (fastify, pino, prom-client); the fake LLM
 * server for tests is on `triage/testing`.
 *
 * Nothing here runs when imported: schemas, lexicons and tables are built ahead or on first use.
 */

// The front door over the request-level decisions, `createTriage` (./triage.js), is exported here
// too, beside the subsystems' entry points (in the order of their paths, as the linter sorts them).

// Capabilities and the agent router.
export {
  type AgentRouter,
  type AgentRouterConfig,
  type AgentState,
  type AgentStateUpdate,
  applyUpdate,
  type Capability,
  type CapabilityDecision,
  type CapabilityInput,
  CapabilityRegistry,
  type CapabilitySelection,
  CapabilitySelectionError,
  CapabilitySelector,
  type CapabilitySelectorOptions,
  capabilitiesSelected,
  createAgentRouter,
  EmptyTaskError,
  initialAgentState,
  planCreated,
  runClassifierStep,
  runKilled,
  type SelectOptions,
  StepError,
  stepCompleted,
  stepFailed,
  taskExtracted,
} from './capabilities/index.js';
// Context policy.
export {
  type AvailableContext,
  type ContextDecision,
  type ContextPolicy,
  ContextRouter,
  type ContextRouterConfig,
  type ContextRouterConfigInput,
  type ContextRouterOptions,
  createContextRouter,
  limitSentences,
  type SelectedContext,
  SentenceStream,
  type SentenceStreamOptions,
  selectContext,
  splitSentences,
  type TurnMessage,
} from './context/index.js';
// The classifier contract, results and certainty (custom classifiers build on these), and the
// errors: every error triage throws on purpose is a TriageError.
export {
  AllOf,
  AnyOf,
  type AsyncClassifier,
  allOf,
  anyOf,
  benchmarkClassifier,
  CERTAINTY_SCORES,
  CERTAINTY_TAGS,
  type Certainty,
  ClassificationResult,
  type Classifier,
  type ClassifierBenchmark,
  type ClassifierConfig,
  type ClassifierConfigInput,
  type ClassifierEntry,
  type ClassifierFailure,
  ConfigError,
  type ConfigIssue,
  CooldownTracker,
  certaintyFromConfidence,
  certaintyScore,
  DEFAULT_CERTAINTY_THRESHOLD,
  type DecisionCache,
  type DecisionSource,
  DecisionTimeoutError,
  Hybrid,
  type HybridDecision,
  type HybridPolicy,
  type HybridStats,
  type LlmDecider,
  type LlmVerdict,
  type LocalVerdict,
  lruDecisionCache,
  Not,
  not,
  type ResultDetails,
  type RunOptions,
  type RunOutcome,
  runClassifiers,
  Threshold,
  TriageError,
  threshold,
  withDeadline,
} from './core/index.js';
// Evaluating a router on outcomes: quality against the share of calls sent to the strong model.
export {
  curveAt,
  indicesByGroup,
  type Outcome,
  pointForQuality,
  pointForShare,
  type RoutingCurve,
  type RoutingPoint,
  randomShareForQuality,
  routingCurve,
  shareForQuality,
} from './eval/index.js';
// Guidance for agents.
export {
  compileGuidanceConfig,
  DoomLoopClassifier,
  ErrorStreakClassifier,
  type Guidance,
  type GuidanceConfig,
  type GuidanceContext,
  GuidanceEngine,
  type GuidanceEngineOptions,
  type GuidanceProvider,
  HighToolCountClassifier,
  LargeOutputClassifier,
  LlmGuidanceClassifier,
  loadGuidanceConfig,
  ProgressStallClassifier,
  parseTrajectoryEvent,
  SensitiveContentClassifier,
  SequentialWhenParallelClassifier,
  SingleToolRepeatedClassifier,
  type ToolCallRecord,
  ToolResult,
  type Trajectory,
  TrajectoryBuilder,
  type TrajectoryEvent,
  TrajectoryEventError,
} from './guidance/index.js';
// Prompt injection.
export {
  type CheckOptions,
  type DetectOptions,
  detectInjection,
  INJECTION_PRESETS,
  type InjectionConfig,
  type InjectionConfigInput,
  type InjectionDecision,
  InjectionDetector,
  InjectionGuard,
  type InjectionGuardConfig,
  type InjectionGuardOptions,
  type InjectionPreset,
  type InjectionResult,
  type InjectionSignal,
  type InjectionSource,
  RISK_LEVELS,
  type RiskLevel,
} from './injection/index.js';
// LLM providers.
export {
  askJson,
  askLabel,
  type ChatMessage,
  type CompletionRequest,
  type CompletionResponse,
  type ConfiguredProvider,
  createProvider,
  LlmError,
  LlmHttpError,
  LlmInvalidOutputError,
  LlmNetworkError,
  type LlmProvider,
  LlmTimeoutError,
  type ProviderConfig,
  withCache,
  withConcurrencyLimit,
} from './llm/index.js';
// The classifier pipeline.
export {
  createPipeline,
  loadCatalog,
  loadPipelineConfig,
  type ModelCatalog,
  Pipeline,
  PipelineInputError,
  type PipelineMessage,
  type PipelineOptions,
  type PipelineResult,
  pipelineFromConfig,
} from './pipeline/index.js';
// Tier routing.
export {
  createTierRouter,
  isTier,
  TIERS,
  type Tier,
  type TierDecision,
  type TierOptions,
  type TierOptionsInput,
  type TierRequest,
  TierRequestError,
  TierRouter,
  type TierRouterDependencies,
} from './tier/index.js';
