/**
 * The classifier pipeline (the original design): manifest-driven LLM classifiers, reserved-field
 * aggregation, the model catalog resolver and the audit envelope.
 */
export type { Aggregate, ClassifierRun, FieldCandidate, FieldMerge } from './aggregate.js';
export { aggregate } from './aggregate.js';
export {
  type CatalogModel,
  CatalogModelSchema,
  CatalogSchema,
  loadCatalog,
  type ModelCatalog,
  parseCatalog,
  rankModels,
} from './catalog.js';
export { loadClassifier, type PipelineClassifier } from './classifier.js';
export {
  type ConfiguredPipeline,
  loadPipelineConfig,
  type PipelineConfig,
  PipelineConfigSchema,
  parsePipelineConfig,
  pipelineFromConfig,
} from './config.js';
export type {
  PipelineAudit,
  PipelineResult,
  PromptInjectionSlot,
  RoutingSlot,
} from './envelope.js';
export { PipelineInputError } from './errors.js';
export {
  DEFAULT_INPUT_LIMITS,
  type InputLimits,
  type PipelineMessage,
  type PipelineMode,
  type PreparedInput,
  type PreparedMessage,
  type PreparedTarget,
  prepareInput,
  targetHash,
} from './input.js';
export type { LocalStage } from './local-stage.js';
export { type Manifest, ManifestSchema, TARGET_ROLES, type TargetRole } from './manifest.js';
export { composeOutputSchema, MAX_REASON_CHARS } from './output-schema.js';
export {
  type CreatePipelineOptions,
  createPipeline,
  Pipeline,
  type PipelineOptions,
  type PipelineRunOptions,
} from './pipeline.js';
export { type ClassifierSelection, loadClassifiers } from './registry.js';
export { renderConversation } from './render.js';
export {
  isReservedField,
  MAX_REPLY_CHARS,
  PIPELINE_RISK_LEVELS,
  PIPELINE_SPECIALIZATIONS,
  PIPELINE_TIERS,
  type PipelineRiskLevel,
  type PipelineSpecialization,
  type PipelineTier,
  RESERVED_FIELDS,
  type ReplyField,
  type ReservedField,
  TOOL_ALIASES,
} from './reserved-fields.js';
export {
  type DropReason,
  type ModelRecommendation,
  type Resolution,
  type ResolutionPass,
  type ResolverRequest,
  type RoutingAxis,
  resolveModel,
} from './resolve.js';
export {
  DEFAULT_LOCAL_STAGES,
  DEFAULT_RISK_STAGE_CONFIDENCE,
  type RiskDetector,
  type RiskVerdict,
  riskLevelStage,
} from './risk-stage.js';
export {
  AggregatorSettingsSchema,
  DEFAULT_RUNNER,
  InputSettingsSchema,
  type PipelineSettings,
  type PipelineSettingsInput,
  PipelineSettingsSchema,
  pipelineSettings,
  RunnerSettingsSchema,
} from './settings.js';
export type { ClassifierStatus, FallbackStatus, LlmStatus, LocalStatus } from './status.js';
export {
  STOCK_CLASSIFIER_NAMES,
  STOCK_CLASSIFIERS_DIR,
  type StockClassifierName,
} from './stock.js';
export type { ClassifierOutput } from './types.js';
