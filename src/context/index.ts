/** The context-policy router (the original design): question modes, context policies, sentence cap. */
export { contextRouterConfig, defaultContextRouterConfig } from './config.js';
export { documentContextRouterConfig } from './document-config.js';
export {
  type AvailableContext,
  historyWindow,
  lastTurns,
  type SelectedContext,
  selectContext,
  type TurnMessage,
} from './history.js';
export { buildContextPrompt, type ContextLlmPrompt, contextLlmDecider } from './llm-router.js';
export {
  type ContextRoute,
  type ExplainedContextRoute,
  LocalContextRouter,
  localVerdict,
} from './local-router.js';
export {
  DEFAULT_FEATURES,
  DEFAULT_MODES,
  DEFAULT_SCORES,
  type DefaultContextMode,
  DOCUMENT_FEATURES,
  DOCUMENT_SCORES,
  GENERAL_CONTEXTUAL,
  PAGE_GROUNDED_DEFINITION,
  STANDALONE_DEFINITION,
} from './modes.js';
export {
  type ContextDecision,
  type ContextLlmSettings,
  ContextRouter,
  type ContextRouterOptions,
  type ContextRouterSettings,
  createContextRouter,
  fallbackReason,
} from './router.js';
export {
  type ContextLlmConfig,
  ContextModeSchema,
  type ContextModeSpec,
  type ContextPolicy,
  ContextPolicySchema,
  type ContextRouterConfig,
  type ContextRouterConfigInput,
  ContextRouterConfigSchema,
  type DeepPartial,
  type FeatureSpec,
  type ModeScore,
  type ScoreBonus,
  type ScoreTerm,
  type SignalSequence,
  type SignalSpec,
} from './schema.js';
export { confidenceFromScores, ModeScorer } from './scoring.js';
export { SentenceStream, type SentenceStreamOptions } from './sentence-stream.js';
export {
  type BoundaryScan,
  DEFAULT_ABBREVIATIONS,
  DEFAULT_FINAL_ABBREVIATIONS,
  DEFAULT_NUMBER_ABBREVIATIONS,
  limitSentences,
  SentenceSplitter,
  type SentenceSplitterOptions,
  sentenceSplitter,
  splitSentences,
} from './sentences.js';
export { MAX_SEQUENCE_ATTEMPTS, SignalMatcher } from './signal-matcher.js';
export { DEFAULT_SIGNALS, DOCUMENT_SIGNALS } from './signals.js';
