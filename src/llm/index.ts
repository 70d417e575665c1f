/**
 * The LLM provider layer: the contract every subsystem depends on, its typed errors, the adapters
 * (OpenAI-compatible, Anthropic, Ollama) built from configuration, output handling, and the
 * cache and concurrency wrappers.
 */
export { ANTHROPIC_DEFAULT_MAX_TOKENS, ANTHROPIC_VERSION, anthropicWire } from './anthropic.js';
export {
  type AskJsonOptions,
  type AskLabelOptions,
  type AskOptions,
  askJson,
  askLabel,
  type JsonOf,
} from './ask.js';
export {
  type CachedProvider,
  type CompletionCacheOptions,
  type CompletionCacheStats,
  completionCacheKey,
  withCache,
} from './cache.js';
export {
  type ConfiguredProvider,
  type ConfiguredProviderStats,
  type CreateProviderOptions,
  createProvider,
  createProviderIfKeyed,
  DEFAULT_BASE_URLS,
  type ProviderConfig,
  type ProviderConfigInput,
  ProviderConfigSchema,
  type ProviderOrDisabled,
  parseProviderConfig,
} from './config.js';
export {
  LlmError,
  LlmHttpError,
  LlmInvalidOutputError,
  LlmNetworkError,
  LlmTimeoutError,
} from './errors.js';
export {
  DEFAULT_MAX_RESPONSE_BYTES,
  HttpProvider,
  type HttpProviderOptions,
  type HttpProviderStats,
} from './http-provider.js';
export { type LimitedProvider, withConcurrencyLimit } from './limit.js';
export { type SwitchableProvider, withModelSwitch } from './model-switch.js';
export { ollamaWire } from './ollama.js';
export { type OpenAiStructuredOutput, type OpenAiWireOptions, openAiWire } from './openai.js';
export {
  compileSchema,
  extractJson,
  matchLabel,
  parseConfidence,
  parseJsonReply,
  type SchemaLike,
  schemaInstruction,
  stripCodeFences,
  stripReasoning,
  validateJson,
} from './output.js';
export { backoffMs, type RetryPolicy, retryAfterMs } from './retry.js';
export { isLlmProvider, type LlmSetting, splitLlmSetting } from './setting.js';
export type {
  ChatMessage,
  CompletionRequest,
  CompletionResponse,
  JsonSchema,
  LlmProvider,
  TokenUsage,
} from './types.js';
export type { WireAdapter, WireReply } from './wire.js';
