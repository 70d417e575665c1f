/**
 * `triage/ai-sdk`: triage inside the Vercel AI SDK (`ai`, v7): a language model that routes each
 * call by tier, a middleware that screens prompts and tool results for injection, and a
 * `prepareStep` that narrows tools and brings guidance into tool loops. `ai` and
 * `@ai-sdk/provider` are optional peer dependencies: only this entry point needs them.
 */
export type { GuidanceSetting } from '../shared/guidance-feed.js';
export { GuidanceFeed, type GuidanceFeedOptions } from '../shared/guidance-feed.js';
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
export type { ToolSelectionOptions } from '../shared/tool-selection.js';
export { triageInjectionMiddleware } from './injection-middleware.js';
export { PROVIDER_KEY, type TriageModelOptions, triageModel } from './model.js';
export {
  type TriagePrepareStep,
  type TriagePrepareStepOptions,
  triagePrepareStep,
} from './prepare-step.js';
