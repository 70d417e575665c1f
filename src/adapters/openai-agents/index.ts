/**
 * `triage/openai-agents`: triage inside the OpenAI Agents SDK (`@openai/agents`): prompt-injection
 * guardrails for a run's input and for tool outputs, run hooks and a model-input filter that
 * bring guidance into the run, and a model provider that routes each model call by tier.
 * `@openai/agents` is an optional peer dependency: only this entry point needs it.
 */
export {
  GuidanceFeed,
  type GuidanceFeedOptions,
  type GuidanceSetting,
} from '../shared/guidance-feed.js';
export {
  type InjectionAction,
  type InjectionFinding,
  type InjectionScreenOptions,
  PromptInjectionError,
} from '../shared/injection-screen.js';
export type {
  FailedAttempt,
  RoutingMetadata,
  TierModels,
  TierTarget,
} from '../shared/tier-routing.js';
export { injectionInputGuardrail, injectionToolOutputGuardrail } from './guardrails.js';
export {
  type HookEmitter,
  type TriageGuidance,
  type TriageGuidanceOptions,
  triageGuidance,
} from './guidance.js';
export {
  type AgentsTierModel,
  type TriageModelProviderOptions,
  triageModelProvider,
} from './model-provider.js';
