import type { StepRetryPolicy } from './retry.js';
import type { ErrorSeverity } from './severity.js';

/**
 * The agent state the router reads (the original design's LangGraph state, as a plain typed object).
 * Field names follow the design's (`task_current_task` → `currentTask`,
 * `planning_active_capabilities` → `activeCapabilities`, `control_retry_count` → `retryCount`, …).
 * Steps update it with the functions of `updates.ts`, which return partial updates to merge.
 */

/** The steps of an agent that are not capabilities. */
export type InfrastructureStep = 'task_extraction' | 'classifier' | 'orchestrator';

/** One step of an execution plan: a capability to run, with what the planner wants of it. */
export interface PlanStep {
  readonly capability: string;
  /** What this step should achieve, in the planner's words. */
  readonly objective?: string;
  /** Anything else the planner attaches (inputs, expected outputs, …). */
  readonly data?: Readonly<Record<string, unknown>>;
}

/** The orchestrator's plan. It should end with a step that answers the user ("respond"). */
export interface ExecutionPlan {
  readonly steps: readonly PlanStep[];
}

/** The error a step reported, as classified. */
export interface AgentErrorInfo {
  /** The step that failed: `task_extraction`, `classifier`, `orchestrator`, or a capability. */
  readonly step: string;
  readonly severity: ErrorSeverity;
  /** What went wrong, in a line a user may see (never the task text). */
  readonly message: string;
  /** A retry policy for this error, overriding the step's. */
  readonly retryPolicy?: StepRetryPolicy;
}

/** The state of one agent run. */
export interface AgentState {
  /** Identifies the run; spreads the retry jitter of concurrent runs apart. */
  readonly runId?: string;
  /** The task being worked on (set by task extraction). */
  readonly currentTask?: string;
  /**
   * The selected capabilities: `undefined` until the classifier ran, then its selection (an
   * empty list means it ran and selected nothing, which the router treats as an error rather
   * than running the classifier forever).
   */
  readonly activeCapabilities?: readonly string[];
  readonly executionPlan?: ExecutionPlan;
  /** Index of the next plan step to run. */
  readonly currentStepIndex: number;
  readonly hasError: boolean;
  readonly error?: AgentErrorInfo;
  /** Retries already made of `retryStep` (0 after a success). */
  readonly retryCount: number;
  readonly retryStep?: string;
  readonly reclassificationCount: number;
  /** Why the selection is being redone: given to the classifier's prompts. */
  readonly reclassificationReason?: string;
  /** Plans the orchestrator has produced in this run. */
  readonly plansCreated: number;
  /** Why a new plan is needed: for the orchestrator. */
  readonly replanReason?: string;
  readonly killed: boolean;
  readonly killReason?: string;
  /** The session's capability-selection bypass, set by a `/caps:on|off` directive. */
  readonly capabilityBypass?: boolean;
}

/** A partial state to merge into the state; a key present with `undefined` clears that field. */
export type AgentStateUpdate = { -readonly [K in keyof AgentState]?: AgentState[K] };

/** A fresh state for a new run. */
export function initialAgentState(fields: Partial<AgentState> = {}): AgentState {
  return {
    currentStepIndex: 0,
    hasError: false,
    retryCount: 0,
    reclassificationCount: 0,
    plansCreated: 0,
    killed: false,
    ...fields,
  };
}

/** The state after `update` (a new object; `state` is left alone). */
export function applyUpdate(state: AgentState, update: AgentStateUpdate): AgentState {
  return { ...state, ...update };
}
