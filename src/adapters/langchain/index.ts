/**
 * `triage/langchain`: triage inside LangChain.js and LangGraph.js: a chat model that routes by
 * tier over the tier models given, a callback handler that feeds tool runs to guidance, and the
 * agent router as a LangGraph node and conditional edge. `@langchain/core` and
 * `@langchain/langgraph` are optional peer dependencies: only this entry point needs them.
 */
export {
  GuidanceFeed,
  type GuidanceFeedOptions,
  type GuidanceSetting,
} from '../shared/guidance-feed.js';
export type {
  FailedAttempt,
  RoutingMetadata,
  TierModels,
  TierTarget,
} from '../shared/tier-routing.js';
export {
  type AgentGraphState,
  AgentRouterAnnotation,
  type AgentRouterNodeOptions,
  type AgentRouteState,
  agentRouteEdge,
  agentRouterNode,
} from './agent-graph.js';
export { type TierChatModel, TriageChatModel, type TriageChatModelFields } from './chat-model.js';
export { TriageGuidanceHandler, type TriageGuidanceHandlerOptions } from './guidance-handler.js';
