/**
 * Capability selection and the agent router (the original design): a registry of capabilities with
 * classifier guides, a local pre-matcher over the guides' examples, LLM yes/no classification of
 * the uncertain ones, bypass, and a pure router over a typed agent state.
 */
export * from './agent/index.js';
export {
  type CapabilityMatch,
  CapabilityMatchSchema,
  ClassificationNode,
  routerConditionalEdge,
  type SelectCapabilitiesInput,
  selectCapabilities,
  type TaskClassifierGuide,
} from './aliases.js';
export {
  type Capability,
  type CapabilityInput,
  CapabilitySchema,
  type ClassifierExample,
  ClassifierExampleSchema,
  type ClassifierGuide,
  ClassifierGuideSchema,
  RegistryFileSchema,
} from './capability.js';
export {
  DEFAULT_CLASSIFICATION_TIMEOUT_MS,
  DEFAULT_SELECTION_CONCURRENCY,
  PrematcherConfigSchema,
  type SelectionConfig,
  SelectionConfigSchema,
  selectionConfig,
} from './config.js';
export {
  type BypassSource,
  type CapsDirective,
  type ParsedTask,
  parseCapsDirective,
  resolveBypass,
} from './directive.js';
export {
  type CapabilityFailure,
  CapabilitySelectionError,
  EmptyTaskError,
  isRetriableError,
} from './errors.js';
export {
  evaluatePrematcher,
  type LabelledTask,
  type PrematcherEvaluation,
} from './evaluate.js';
export {
  capabilitiesFromIntents,
  type IntentDataset,
  type IntentPair,
  type IntentRegistryOptions,
  labelledTasks,
  readIntentDataset,
} from './intent-dataset.js';
export {
  type CapabilityVerdict,
  classifyCapability,
  type LlmClassificationOptions,
  verdictOf,
} from './llm-classifier.js';
export {
  DEFAULT_PREMATCHER_OPTIONS,
  LOCAL_DECISION_CONFIDENCE,
  type PrematchDecision,
  Prematcher,
  type PrematcherOptions,
  type PrematchMatch,
  type PrematchResult,
} from './prematcher.js';
export {
  type CapabilityReply,
  CapabilityReplySchema,
  classificationPrompt,
  orderedExamples,
} from './prompt.js';
export { CapabilityRegistry } from './registry.js';
export {
  type CapabilityDecision,
  type CapabilitySelection,
  CapabilitySelector,
  type CapabilitySelectorOptions,
  type ClassifyTaskOptions,
  createCapabilitySelector,
  type SelectionSource,
  type SelectOptions,
} from './selection.js';
