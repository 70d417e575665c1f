/**
 * Typed errors of the LLM provider layer (defined with the rest of the hierarchy in the core, so
 * that the hybrid decision can tell a timeout from an invalid answer). Messages name the provider
 * and what went wrong; they never contain API keys or prompt text.
 */
export {
  LlmError,
  LlmHttpError,
  LlmInvalidOutputError,
  LlmNetworkError,
  LlmTimeoutError,
} from '../core/errors.js';
