/** The LLM provider layer: the contract every subsystem depends on, and its typed errors. */
export {
  LlmError,
  LlmHttpError,
  LlmInvalidOutputError,
  LlmNetworkError,
  LlmTimeoutError,
} from './errors.js';
export type {
  ChatMessage,
  CompletionRequest,
  CompletionResponse,
  JsonSchema,
  LlmProvider,
  TokenUsage,
} from './types.js';
