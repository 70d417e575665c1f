import type { CapabilitySelection } from '../selection.js';
import type { StepRetryPolicy } from './retry.js';
import { classifyStepError, type ErrorClassification } from './severity.js';
import type { AgentState, AgentStateUpdate, ExecutionPlan } from './state.js';

/**
 * The state changes of each step, as partial updates to merge (with `applyUpdate`). Each one
 * clears what the step makes stale, so that a stale plan is never run against a new selection
 * and a retry counter never outlives the step it counted.
 */

const CLEARED_ERROR = {
  hasError: false,
  error: undefined,
  retryCount: 0,
  retryStep: undefined,
} as const satisfies AgentStateUpdate;

/**
 * A new task: everything of the previous one goes (selection, plan, counters, reasons). A kill
 * stays: a stopped run does not restart because a task arrived.
 */
export function taskExtracted(task: string): AgentStateUpdate {
  return {
    ...CLEARED_ERROR,
    currentTask: task,
    activeCapabilities: undefined,
    executionPlan: undefined,
    currentStepIndex: 0,
    reclassificationCount: 0,
    reclassificationReason: undefined,
    plansCreated: 0,
    replanReason: undefined,
  };
}

/**
 * The classifier's selection (the original design: "planning_active_capabilities", plan cleared, step
 * index 0). The reclassification reason has been used and is cleared; a `/caps:` directive in the
 * task is kept as the session's bypass setting.
 */
export function capabilitiesSelected(
  selection: Pick<CapabilitySelection, 'selected' | 'directive'>,
): AgentStateUpdate {
  return {
    ...CLEARED_ERROR,
    activeCapabilities: [...selection.selected],
    executionPlan: undefined,
    currentStepIndex: 0,
    reclassificationReason: undefined,
    ...(selection.directive === undefined
      ? {}
      : { capabilityBypass: selection.directive === 'off' }),
  };
}

/** The orchestrator's plan: counted against the plan limit; the replan reason is cleared. */
export function planCreated(state: AgentState, plan: ExecutionPlan): AgentStateUpdate {
  return {
    ...CLEARED_ERROR,
    executionPlan: plan,
    currentStepIndex: 0,
    plansCreated: state.plansCreated + 1,
    replanReason: undefined,
  };
}

/** The current plan step ran: on to the next one. */
export function stepCompleted(state: AgentState): AgentStateUpdate {
  return { ...CLEARED_ERROR, currentStepIndex: state.currentStepIndex + 1 };
}

/**
 * A step failed: the error is classified (by `classify`, default {@link classifyStepError}) and
 * recorded for the router. The retry counter is kept when the same step failed again, and reset
 * when another step fails.
 */
export function stepFailed(
  state: AgentState,
  step: string,
  error: unknown,
  options: {
    readonly classify?: (error: unknown, step: string) => ErrorClassification;
    readonly retryPolicy?: StepRetryPolicy;
  } = {},
): AgentStateUpdate {
  const { severity, message } = (options.classify ?? classifyStepError)(error, step);
  return {
    hasError: true,
    error: {
      step,
      severity,
      message,
      ...(options.retryPolicy === undefined ? {} : { retryPolicy: options.retryPolicy }),
    },
    ...(state.retryStep === step ? {} : { retryCount: 0, retryStep: step }),
  };
}

/** Stops the run: the router sends it to the error step and never recovers it. */
export function runKilled(reason: string): AgentStateUpdate {
  return { killed: true, killReason: reason };
}
