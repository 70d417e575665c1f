/** The agent router of the original design: typed state, error severities, retries, state updates. */
export { type ClassifierStepOptions, runClassifierStep } from './classifier-step.js';
export {
  DEFAULT_STEP_RETRY_POLICIES,
  type RetryDelayOptions,
  retryDelayMs,
  type StepRetryPolicy,
  StepRetryPolicySchema,
} from './retry.js';
export {
  type AgentRoute,
  type AgentRouter,
  type AgentRouterConfig,
  AgentRouterConfigSchema,
  type AgentRouterContext,
  createAgentRouter,
  type ErrorRouteCause,
  routeAgent,
  stepRetryPolicy,
} from './router.js';
export {
  classifyStepError,
  ERROR_SEVERITIES,
  type ErrorClassification,
  ErrorSeverity,
  StepError,
} from './severity.js';
export {
  type AgentErrorInfo,
  type AgentState,
  type AgentStateUpdate,
  applyUpdate,
  type ExecutionPlan,
  type InfrastructureStep,
  initialAgentState,
  type PlanStep,
} from './state.js';
export {
  capabilitiesSelected,
  planCreated,
  runKilled,
  stepCompleted,
  stepFailed,
  taskExtracted,
} from './updates.js';
