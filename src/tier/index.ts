/**
 * The tier router (the original design): which model tier can answer this request? A 15-dimension
 * keyword scorer decides locally in microseconds; a cheap LLM is asked only near a tier boundary,
 * under a strict timeout, with MEDIUM as the safe fallback.
 */

export { plainDecision, type TierDecision } from './decision.js';
export {
  type ChatRequestMessage,
  type ContentPart,
  type ExtractedPrompt,
  type ExtractionStep,
  extractPrompt,
  type TierRequest,
  TierRequestError,
} from './extract.js';
export { compileForcedModels } from './forced.js';
export {
  DIMENSIONS,
  type Dimension,
  KEYWORD_DIMENSIONS,
  KEYWORD_LANGUAGES,
  KEYWORD_PACKS,
  type KeywordDimension,
  type KeywordLanguage,
  type KeywordPack,
} from './keywords/index.js';
export { buildTierLexicon, type TierLexicon, tierFoldTable } from './lexicon.js';
export { TIER_CLASSIFIER_PROMPT, tierLlmDecider, truncatePrompt } from './llm.js';
export {
  type TierOptions,
  type TierOptionsInput,
  TierOptionsSchema,
  tierOptions,
} from './options.js';
export {
  createTierRouter,
  type TierLlmSettings,
  TierRouter,
  type TierRouterConfig,
  type TierRouterDependencies,
} from './router.js';
export { type RoutingScores, routingScore, routingScores } from './routing-score.js';
export {
  type ScoreContext,
  type TierOverride,
  type TierScore,
  TierScorer,
} from './scorer.js';
export { isTier, maxTier, TIERS, type Tier, tierRank } from './tiers.js';
