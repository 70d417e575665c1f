import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ConfigError } from '../../core/errors.js';
import type { StepRetryPolicy } from './retry.js';
import { type AgentRoute, createAgentRouter, routeAgent } from './router.js';
import type { ErrorSeverity } from './severity.js';
import { type AgentState, applyUpdate, initialAgentState } from './state.js';

const plan = { steps: [{ capability: 'current_weather' }, { capability: 'respond' }] };
const ready = initialAgentState({
  runId: 'run-1',
  currentTask: 'What is the weather in Paris?',
  activeCapabilities: ['respond', 'current_weather'],
  executionPlan: plan,
  plansCreated: 1,
});
const failed = (state: AgentState, step: string, severity: ErrorSeverity): AgentState => ({
  ...state,
  hasError: true,
  error: { step, severity, message: `${step} broke` },
});

describe('routing order', () => {
  it('goes task extraction → classifier → orchestrator → each plan step → done', () => {
    let state = initialAgentState();
    const seen: string[] = [];
    const next = (route: AgentRoute) =>
      route.next === 'capability' ? `capability:${route.capability}` : route.next;
    expect(next(routeAgent(state))).toBe('task_extraction');
    seen.push('task_extraction');
    state = { ...state, currentTask: 'Check weather' };
    expect(next(routeAgent(state))).toBe('classifier');
    state = { ...state, activeCapabilities: ['respond', 'current_weather'] };
    expect(next(routeAgent(state))).toBe('orchestrator');
    state = { ...state, executionPlan: plan };
    expect(next(routeAgent(state))).toBe('capability:current_weather');
    state = { ...state, currentStepIndex: 1 };
    expect(routeAgent(state)).toMatchObject({
      next: 'capability',
      capability: 'respond',
      stepIndex: 1,
    });
    state = { ...state, currentStepIndex: 2 };
    expect(routeAgent(state)).toMatchObject({ next: 'done', reason: 'all 2 plan steps ran' });
  });

  it('treats a blank task as no task', () => {
    expect(routeAgent({ ...ready, currentTask: '  ' }).next).toBe('task_extraction');
  });

  it('handles an error before anything else, and a kill before the task checks', () => {
    expect(routeAgent(failed(initialAgentState(), 'task_extraction', 'CRITICAL')).next).toBe(
      'error',
    );
    const killed = routeAgent({
      ...initialAgentState(),
      killed: true,
      killReason: 'user cancelled',
    });
    expect(killed).toMatchObject({ next: 'error', cause: 'killed', fatal: false });
    expect(killed.reason).toMatch(/user cancelled/);
  });

  it('never recovers a killed run, whatever the error', () => {
    for (const severity of ['RETRIABLE', 'REPLANNING', 'RECLASSIFICATION'] as const) {
      const route = routeAgent({ ...failed(ready, 'current_weather', severity), killed: true });
      expect(route).toMatchObject({ next: 'error', cause: 'killed' });
    }
  });

  it('sends an empty selection to the error step instead of classifying forever', () => {
    expect(routeAgent({ ...ready, activeCapabilities: [] })).toMatchObject({
      next: 'error',
      cause: 'no_capabilities',
    });
  });

  it('rejects plans it cannot run', () => {
    expect(routeAgent({ ...ready, executionPlan: { steps: [] } })).toMatchObject({
      next: 'error',
      cause: 'invalid_plan',
    });
    expect(routeAgent({ ...ready, currentStepIndex: -1 })).toMatchObject({ cause: 'invalid_plan' });
    const strict = createAgentRouter({}, { knownCapabilities: new Set(['respond']) });
    expect(strict(ready)).toMatchObject({ next: 'error', cause: 'unknown_capability' });
    expect(strict({ ...ready, currentStepIndex: 1 })).toMatchObject({ capability: 'respond' });
  });

  it('never waits and never changes anything outside error handling', () => {
    for (const state of [initialAgentState(), ready, { ...ready, currentStepIndex: 2 }]) {
      const route = routeAgent(state);
      expect(route.delayMs).toBe(0);
      expect(route.update).toEqual({});
    }
  });
});

describe('retries', () => {
  it('retries the classifier 3 times (4 attempts) with growing delays, then gives up', () => {
    const router = createAgentRouter({ jitter: 0 });
    let state: AgentState = { ...ready, activeCapabilities: undefined };
    const delays: number[] = [];
    for (let attempt = 1; attempt <= 3; attempt++) {
      const route = router(failed(state, 'classifier', 'RETRIABLE'));
      expect(route.next).toBe('classifier');
      expect(route.update).toMatchObject({
        hasError: false,
        retryCount: attempt,
        retryStep: 'classifier',
      });
      delays.push(route.delayMs);
      state = applyUpdate(failed(state, 'classifier', 'RETRIABLE'), route.update);
    }
    expect(delays).toEqual([1000, 1800, 3240]);
    const exhausted = router(failed(state, 'classifier', 'RETRIABLE'));
    expect(exhausted).toMatchObject({ next: 'error', cause: 'retries_exhausted', fatal: false });
    expect(exhausted.reason).toMatch(/^classifier failed after 4 attempts: classifier broke/);
  });

  it('retries a capability at the current step, under the default capability policy', () => {
    const router = createAgentRouter({ jitter: 0 });
    const route = router(failed(ready, 'current_weather', 'RETRIABLE'));
    expect(route).toMatchObject({
      next: 'capability',
      capability: 'current_weather',
      stepIndex: 0,
      delayMs: 500,
    });
    const third = router({
      ...failed(ready, 'current_weather', 'RETRIABLE'),
      retryCount: 2,
      retryStep: 'current_weather',
    });
    expect(third).toMatchObject({ next: 'error', cause: 'retries_exhausted' });
  });

  it('counts retries per step: another step failing starts from zero', () => {
    const router = createAgentRouter({ jitter: 0 });
    const route = router({
      ...failed(ready, 'orchestrator', 'RETRIABLE'),
      retryCount: 3,
      retryStep: 'classifier',
    });
    expect(route).toMatchObject({ next: 'orchestrator', update: { retryCount: 1 } });
  });

  it('uses the policy of the error, then of the step, from configuration', () => {
    const once: StepRetryPolicy = { maxAttempts: 2, delayMs: 10, backoffFactor: 1 };
    const router = createAgentRouter({ jitter: 0, retryPolicies: { current_weather: once } });
    expect(router(failed(ready, 'current_weather', 'RETRIABLE')).delayMs).toBe(10);
    const withOwn = failed(ready, 'current_weather', 'RETRIABLE');
    const own = router({
      ...withOwn,
      error: { ...withOwn.error!, retryPolicy: { maxAttempts: 1, delayMs: 0, backoffFactor: 1 } },
    });
    expect(own).toMatchObject({ next: 'error', cause: 'retries_exhausted' });
  });

  it('spreads delays with jitter, deterministically per run, within ±jitter and the cap', () => {
    const router = createAgentRouter({ jitter: 0.2, maxDelayMs: 2_500 });
    fc.assert(
      fc.property(fc.string(), fc.integer({ min: 0, max: 2 }), (runId, retryCount) => {
        const state = {
          ...failed({ ...ready, runId }, 'classifier', 'RETRIABLE'),
          retryCount,
          retryStep: 'classifier',
        };
        const route = router(state);
        const base = Math.min(2_500, 1000 * 1.8 ** retryCount);
        expect(route.delayMs).toBeGreaterThanOrEqual(Math.floor(base * 0.8));
        expect(route.delayMs).toBeLessThanOrEqual(2_500);
        expect(route.delayMs).toBeLessThanOrEqual(Math.ceil(base * 1.2));
        expect(router(state).delayMs).toBe(route.delayMs);
      }),
    );
    const delays = new Set(
      ['a', 'b', 'c', 'd', 'e'].map(
        (runId) => router(failed({ ...ready, runId }, 'classifier', 'RETRIABLE')).delayMs,
      ),
    );
    expect(delays.size).toBeGreaterThan(1);
  });
});

describe('replanning and reclassification', () => {
  it('replans at most up to the plan limit (2 plans)', () => {
    const route = routeAgent(failed(ready, 'current_weather', 'REPLANNING'));
    expect(route).toMatchObject({
      next: 'orchestrator',
      update: {
        hasError: false,
        error: undefined,
        executionPlan: undefined,
        currentStepIndex: 0,
        replanReason: 'current_weather: current_weather broke',
      },
    });
    const second = routeAgent(
      failed({ ...ready, plansCreated: 2 }, 'current_weather', 'REPLANNING'),
    );
    expect(second).toMatchObject({ next: 'error', cause: 'replan_limit' });
  });

  it('reclassifies once, clearing the selection and the plan, then stops', () => {
    const state = { ...failed(ready, 'current_weather', 'RECLASSIFICATION'), currentStepIndex: 1 };
    const route = routeAgent(state);
    expect(route).toMatchObject({
      next: 'classifier',
      update: {
        activeCapabilities: undefined,
        executionPlan: undefined,
        currentStepIndex: 0,
        reclassificationCount: 1,
        reclassificationReason: 'current_weather requested reclassification: current_weather broke',
        hasError: false,
      },
    });
    const after = applyUpdate(state, route.update);
    expect(routeAgent(after).next).toBe('classifier');
    const again = routeAgent(
      failed({ ...after, activeCapabilities: ['respond'] }, 'respond', 'RECLASSIFICATION'),
    );
    expect(again).toMatchObject({ next: 'error', cause: 'reclassification_limit' });
    expect(createAgentRouter({ maxReclassifications: 0 })(state)).toMatchObject({
      cause: 'reclassification_limit',
    });
  });
});

describe('critical and fatal errors', () => {
  it('sends CRITICAL to the error step and marks FATAL as fatal', () => {
    expect(routeAgent(failed(ready, 'orchestrator', 'CRITICAL'))).toMatchObject({
      next: 'error',
      cause: 'severity',
      fatal: false,
      error: { step: 'orchestrator', severity: 'CRITICAL' },
    });
    expect(routeAgent(failed(ready, 'orchestrator', 'FATAL'))).toMatchObject({
      next: 'error',
      fatal: true,
    });
  });

  it('treats an error flagged without details as critical', () => {
    expect(routeAgent({ ...ready, hasError: true })).toMatchObject({
      next: 'error',
      error: { severity: 'CRITICAL' },
    });
  });
});

describe('createAgentRouter', () => {
  it('validates its configuration', () => {
    expect(() => createAgentRouter({ maxPlans: 0 })).toThrow(ConfigError);
    expect(() => createAgentRouter({ jitter: 2 })).toThrow(/\/jitter must be <= 1/);
    expect(() =>
      createAgentRouter({
        retryPolicies: { classifier: { maxAttempts: 0, delayMs: 1, backoffFactor: 1 } },
      }),
    ).toThrow(/\/retryPolicies\/classifier\/maxAttempts/);
    expect(() => createAgentRouter({ retries: 3 } as never)).toThrow(
      /\/retries is not a known field/,
    );
  });

  it('is a pure function: the state is not changed and equal states route equally', () => {
    const state = Object.freeze(failed(ready, 'classifier', 'RETRIABLE'));
    expect(routeAgent(state)).toEqual(routeAgent({ ...state }));
  });
});
