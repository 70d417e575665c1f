import { setTimeout as sleep } from 'node:timers/promises';
import { Annotation } from '@langchain/langgraph';
import type { AgentRoute, AgentRouter, ErrorRouteCause } from '../../capabilities/agent/router.js';
import { routeAgent } from '../../capabilities/agent/router.js';
import type { AgentErrorInfo, AgentState, ExecutionPlan } from '../../capabilities/agent/state.js';

/**
 * The agent router (the central router of a capability agent) on LangGraph: a router node that
 * asks the router for the next step, waits a retry's delay, and returns the router's state update
 * (applied by the graph's reducers) with the route; and a conditional-edge function that reads
 * the route. The steps themselves (task extraction, the classifier, the orchestrator, each
 * capability, the error step) are the application's nodes, returning the updates of
 * `taskExtracted`, `capabilitiesSelected`, `planCreated`, `stepCompleted`, `stepFailed`.
 */

/** The route the router node chose, as state: plain data. */
export interface AgentRouteState {
  /** `task_extraction`, `classifier`, `orchestrator`, `capability`, `done` or `error`. */
  readonly next: AgentRoute['next'];
  /** The capability to run, when `next` is `capability`. */
  readonly capability?: string;
  readonly reason: string;
  readonly delayMs: number;
  /** Why the run goes to the error step, when `next` is `error`. */
  readonly cause?: ErrorRouteCause;
  readonly fatal?: boolean;
  readonly error?: AgentErrorInfo;
}

/** A channel holding the last value written; `undefined` clears it (the router's updates do). */
const last = <T>(initial: () => T) =>
  Annotation<T>({ reducer: (_previous: T, next: T) => next, default: initial });
const none = () => undefined;

/**
 * The agent state as LangGraph channels, every field the router reads plus `route`. Spread its
 * `spec` into your own `Annotation.Root` to add fields (`messages`, …).
 */
export const AgentRouterAnnotation = Annotation.Root({
  runId: last<string | undefined>(none),
  currentTask: last<string | undefined>(none),
  activeCapabilities: last<readonly string[] | undefined>(none),
  executionPlan: last<ExecutionPlan | undefined>(none),
  currentStepIndex: last<number>(() => 0),
  hasError: last<boolean>(() => false),
  error: last<AgentErrorInfo | undefined>(none),
  retryCount: last<number>(() => 0),
  retryStep: last<string | undefined>(none),
  reclassificationCount: last<number>(() => 0),
  reclassificationReason: last<string | undefined>(none),
  plansCreated: last<number>(() => 0),
  replanReason: last<string | undefined>(none),
  killed: last<boolean>(() => false),
  killReason: last<string | undefined>(none),
  capabilityBypass: last<boolean | undefined>(none),
  route: last<AgentRouteState | undefined>(none),
});

/** The state the router node reads and writes. */
export type AgentGraphState = typeof AgentRouterAnnotation.State;

/** Options of {@link agentRouterNode}. */
export interface AgentRouterNodeOptions {
  /** The router (`createAgentRouter(config, context)`). Default: the default router. */
  readonly router?: AgentRouter;
  /** Whether the node waits a retry's `delayMs` (abortable by the run's signal). Default true. */
  readonly wait?: boolean;
}

/**
 * The router node: `graph.addNode('router', agentRouterNode())`. It returns the router's state
 * update and the route; a retry's delay is waited here, so the next node runs after it.
 */
export function agentRouterNode(options: AgentRouterNodeOptions = {}) {
  const router = options.router ?? routeAgent;
  const wait = options.wait ?? true;
  return async (
    state: AgentGraphState,
    config?: { readonly signal?: AbortSignal },
  ): Promise<Partial<AgentGraphState>> => {
    const route = router(state as AgentState);
    if (wait && route.delayMs > 0) {
      await sleep(route.delayMs, undefined, config?.signal ? { signal: config.signal } : {});
    }
    return { ...route.update, route: routeState(route) };
  };
}

function routeState(route: AgentRoute): AgentRouteState {
  const { next, reason, delayMs } = route;
  switch (route.next) {
    case 'capability':
      return { next, reason, delayMs, capability: route.capability };
    case 'error':
      return {
        next,
        reason,
        delayMs,
        cause: route.cause,
        fatal: route.fatal,
        ...(route.error === undefined ? {} : { error: route.error }),
      };
    default:
      return { next, reason, delayMs };
  }
}

/**
 * The conditional edge after the router node: the name of the next step, i.e. `task_extraction`,
 * `classifier`, `orchestrator`, the capability's name, `done` or `error`. Map them to your nodes
 * (`done` to `END`) in `addConditionalEdges('router', agentRouteEdge, { … })`.
 */
export function agentRouteEdge(state: Pick<AgentGraphState, 'route'>): string {
  const route = state.route;
  if (route === undefined) {
    throw new TypeError('agentRouteEdge: no route in the state: put it after agentRouterNode');
  }
  return route.next === 'capability' ? route.capability! : route.next;
}
