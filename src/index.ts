/**
 * triage: decide in microseconds how each request to an LLM application should be handled.
 * This module is the public API and nothing else: each subsystem's entry point re-exported.
 */
export * from './capabilities/index.js';
export * from './context/index.js';
export * from './core/index.js';
export * from './eval/index.js';
export * from './guidance/index.js';
export * from './injection/index.js';
export * from './llm/index.js';
export * from './pipeline/index.js';
export * from './server/index.js';
export * from './text/index.js';
export * from './tier/index.js';
export {
  createTriage,
  TRIAGE_PARTS,
  type Triage,
  type TriageCapabilitiesConfig,
  type TriageClassifyOptions,
  type TriageConfig,
  type TriageContextConfig,
  type TriageDecideOptions,
  type TriageDecision,
  type TriageInjectionConfig,
  type TriageInjectionDecision,
  type TriagePart,
  type TriageTierConfig,
} from './triage.js';
export {
  type TriageChatRequest,
  type TriageRequest,
  TriageRequestError,
  type UserControlledText,
  userControlledTexts,
} from './triage-request.js';
