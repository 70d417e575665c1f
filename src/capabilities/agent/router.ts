import Type, { type Static } from 'typebox';
import { compileConfig } from '../../core/validate.js';
import {
  DEFAULT_STEP_RETRY_POLICIES,
  jitterUnit,
  retryDelayMs,
  type StepRetryPolicy,
  StepRetryPolicySchema,
} from './retry.js';
import type { ErrorSeverity } from './severity.js';
import type { AgentErrorInfo, AgentState, AgentStateUpdate, InfrastructureStep } from './state.js';

/**
 * The central router (the original design): a pure function from the agent state to the next step. It
 * never sleeps and never mutates the state; a retry comes back as a delay to wait, and every
 * change the decision implies (a retry counted, a selection cleared for reclassification) comes
 * back as an update to merge.
 *
 * Routing order (a departure from the original design):
 * 1. an error → its handling (retry, replan, reclassify, or the error step; a killed run is never
 *    recovered, so its errors go to the error step);
 * 2. a killed run → the error step;
 * 3. no task → task extraction;
 * 4. no capabilities selected yet → the classifier (an empty selection → the error step);
 * 5. no plan → the orchestrator;
 * 6. the plan's next step → that capability; when every step has run → done (the source
 *    framework never returned "done" and raised instead).
 */

/** The router's configuration. Every field has a default. */
export const AgentRouterConfigSchema = Type.Object(
  {
    /** Reclassifications allowed per run. Default 1. */
    maxReclassifications: Type.Integer({ minimum: 0, default: 1 }),
    /** Plans allowed per run, the first one included. Default 2. */
    maxPlans: Type.Integer({ minimum: 1, default: 2 }),
    /** Retry policies by step name (`classifier`, `orchestrator`, `task_extraction`, a capability,
     * or `default` for capabilities without their own); merged over the defaults. */
    retryPolicies: Type.Record(Type.String(), StepRetryPolicySchema, { default: {} }),
    /** Share of each retry delay that is random (±). Default 0.2. */
    jitter: Type.Number({ minimum: 0, maximum: 1, default: 0.2 }),
    /** Longest retry delay in milliseconds. Default 30,000. */
    maxDelayMs: Type.Number({ minimum: 0, default: 30_000 }),
    /** Seed of the jitter. Default 0. */
    seed: Type.Integer({ default: 0 }),
  },
  { additionalProperties: false },
);

/** A validated router configuration. */
export type AgentRouterConfig = Static<typeof AgentRouterConfigSchema>;

const validateRouterConfig = compileConfig(AgentRouterConfigSchema, 'router config');

/** Why the router sends the run to the error step. */
export type ErrorRouteCause =
  | 'severity'
  | 'retries_exhausted'
  | 'replan_limit'
  | 'reclassification_limit'
  | 'killed'
  | 'no_capabilities'
  | 'invalid_plan'
  | 'unknown_capability';

interface RouteBase {
  /** Why this step, in a line (for logs and audit). */
  readonly reason: string;
  /** Milliseconds to wait before running the step (0 unless it is a retry). */
  readonly delayMs: number;
  /** Changes to merge into the state before running the step (often empty). */
  readonly update: AgentStateUpdate;
}

/** The router's decision. */
export type AgentRoute =
  | (RouteBase & { readonly next: InfrastructureStep })
  | (RouteBase & {
      readonly next: 'capability';
      readonly capability: string;
      readonly stepIndex: number;
    })
  | (RouteBase & { readonly next: 'done' })
  | (RouteBase & {
      readonly next: 'error';
      readonly cause: ErrorRouteCause;
      /** The error being handled, when there is one. */
      readonly error?: AgentErrorInfo;
      /** True for FATAL errors: nothing more should run, not even an error reply. */
      readonly fatal: boolean;
    });

/** Options of {@link createAgentRouter} that are not configuration (they are not in a file). */
export interface AgentRouterContext {
  /** The registered capability names; a plan step naming another one goes to the error step. */
  readonly knownCapabilities?: ReadonlySet<string>;
}

/** A router: a pure function of the state. */
export type AgentRouter = (state: AgentState) => AgentRoute;

/**
 * Builds a router from a configuration (validated here: unknown keys and bad values are a
 * `ConfigError`) and optional context.
 */
export function createAgentRouter(
  config: Partial<AgentRouterConfig> = {},
  context: AgentRouterContext = {},
): AgentRouter {
  const valid = validateRouterConfig(structuredClone(config));
  const policies: Readonly<Record<string, StepRetryPolicy>> = {
    ...DEFAULT_STEP_RETRY_POLICIES,
    ...valid.retryPolicies,
  };
  return (state) => route(state, valid, policies, context);
}

let defaultRouter: AgentRouter | undefined;

/** Routes with the default configuration. */
export function routeAgent(state: AgentState): AgentRoute {
  defaultRouter ??= createAgentRouter();
  return defaultRouter(state);
}

/** The policy that applies to `step`: the error's own, the step's, or `default`. */
export function stepRetryPolicy(
  step: string,
  policies: Readonly<Record<string, StepRetryPolicy>>,
  override?: StepRetryPolicy,
): StepRetryPolicy {
  return override ?? policies[step] ?? policies.default ?? DEFAULT_STEP_RETRY_POLICIES.default!;
}

const NONE: AgentStateUpdate = Object.freeze({});

/** The update that clears the error being handled and the retry counter. */
const CLEAR_ERROR: AgentStateUpdate = Object.freeze({
  hasError: false,
  error: undefined,
  retryCount: 0,
  retryStep: undefined,
});

function route(
  state: AgentState,
  config: AgentRouterConfig,
  policies: Readonly<Record<string, StepRetryPolicy>>,
  context: AgentRouterContext,
): AgentRoute {
  if (state.hasError) return routeError(state, config, policies);
  if (state.killed) {
    return toError('killed', `the run was stopped: ${state.killReason ?? 'no reason given'}`);
  }
  if (!state.currentTask?.trim()) return step('task_extraction', 'no current task');
  const capabilities = state.activeCapabilities;
  if (capabilities === undefined) return step('classifier', 'no capabilities selected yet');
  if (capabilities.length === 0) {
    return toError('no_capabilities', 'the classifier selected no capabilities');
  }
  const plan = state.executionPlan;
  if (plan === undefined) return step('orchestrator', 'no execution plan');
  if (plan.steps.length === 0) return toError('invalid_plan', 'the execution plan has no steps');
  const index = state.currentStepIndex;
  if (!(Number.isInteger(index) && index >= 0)) {
    return toError('invalid_plan', `the current step index ${index} is not a valid index`);
  }
  if (index >= plan.steps.length) {
    return {
      next: 'done',
      reason: `all ${plan.steps.length} plan steps ran`,
      delayMs: 0,
      update: NONE,
    };
  }
  const capability = plan.steps[index]!.capability;
  if (context.knownCapabilities && !context.knownCapabilities.has(capability)) {
    return toError(
      'unknown_capability',
      `plan step ${index} names an unknown capability "${capability}"`,
    );
  }
  return {
    next: 'capability',
    capability,
    stepIndex: index,
    reason: `plan step ${index + 1} of ${plan.steps.length}`,
    delayMs: 0,
    update: NONE,
  };
}

function routeError(
  state: AgentState,
  config: AgentRouterConfig,
  policies: Readonly<Record<string, StepRetryPolicy>>,
): AgentRoute {
  const error: AgentErrorInfo = state.error ?? {
    step: 'unknown',
    severity: 'CRITICAL',
    message: 'an error was flagged without details',
  };
  // A killed run is not recovered: no retry, replan or reclassification.
  if (state.killed && error.severity !== 'FATAL') {
    return toError(
      'killed',
      `the run was stopped: ${state.killReason ?? 'no reason given'}`,
      error,
    );
  }
  const severity: ErrorSeverity = error.severity;
  switch (severity) {
    case 'RETRIABLE': {
      const policy = stepRetryPolicy(error.step, policies, error.retryPolicy);
      // The counter belongs to one step: an error of another step starts from zero.
      const done = state.retryStep === error.step ? state.retryCount : 0;
      const attempts = done + 1;
      if (attempts >= policy.maxAttempts) {
        return toError(
          'retries_exhausted',
          `${error.step} failed after ${attempts} attempt${attempts === 1 ? '' : 's'}: ${error.message}`,
          error,
        );
      }
      const retry = done + 1;
      const unit = jitterUnit(
        state.runId ?? state.currentTask ?? '',
        error.step,
        retry,
        config.seed,
      );
      const delayMs = retryDelayMs(policy, retry, unit, config);
      const update: AgentStateUpdate = {
        hasError: false,
        error: undefined,
        retryCount: retry,
        retryStep: error.step,
      };
      const reason = `retry ${retry} of ${policy.maxAttempts - 1} of ${error.step} in ${delayMs} ms: ${error.message}`;
      return retryRoute(state, error.step, reason, delayMs, update);
    }
    case 'REPLANNING': {
      if (state.plansCreated >= config.maxPlans) {
        return toError(
          'replan_limit',
          `${error.step} asked for a new plan, but ${state.plansCreated} plans were already made (limit ${config.maxPlans}): ${error.message}`,
          error,
        );
      }
      return step('orchestrator', `replanning: ${error.message}`, {
        ...CLEAR_ERROR,
        executionPlan: undefined,
        currentStepIndex: 0,
        replanReason: `${error.step}: ${error.message}`,
      });
    }
    case 'RECLASSIFICATION': {
      if (state.reclassificationCount >= config.maxReclassifications) {
        return toError(
          'reclassification_limit',
          `${error.step} asked for reclassification, but ${state.reclassificationCount} were already made (limit ${config.maxReclassifications}): ${error.message}`,
          error,
        );
      }
      return step('classifier', `reclassification: ${error.message}`, {
        ...CLEAR_ERROR,
        activeCapabilities: undefined,
        executionPlan: undefined,
        currentStepIndex: 0,
        reclassificationCount: state.reclassificationCount + 1,
        reclassificationReason: `${error.step} requested reclassification: ${error.message}`,
      });
    }
    case 'FATAL':
      return toError('severity', `fatal error in ${error.step}: ${error.message}`, error, true);
    default:
      return toError('severity', `critical error in ${error.step}: ${error.message}`, error);
  }
}

/** Runs `failed` again: an infrastructure step by name, or the capability of the current step. */
function retryRoute(
  state: AgentState,
  failed: string,
  reason: string,
  delayMs: number,
  update: AgentStateUpdate,
): AgentRoute {
  if (failed === 'task_extraction' || failed === 'classifier' || failed === 'orchestrator') {
    return { next: failed, reason, delayMs, update };
  }
  return {
    next: 'capability',
    capability: failed,
    stepIndex: state.currentStepIndex,
    reason,
    delayMs,
    update,
  };
}

function step(
  next: InfrastructureStep,
  reason: string,
  update: AgentStateUpdate = NONE,
): AgentRoute {
  return { next, reason, delayMs: 0, update };
}

function toError(
  cause: ErrorRouteCause,
  reason: string,
  error?: AgentErrorInfo,
  fatal = false,
): AgentRoute {
  return {
    next: 'error',
    cause,
    reason,
    delayMs: 0,
    update: NONE,
    fatal,
    ...(error === undefined ? {} : { error }),
  };
}
