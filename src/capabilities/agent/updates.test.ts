import { describe, expect, it } from 'vitest';
import { LlmHttpError } from '../../llm/errors.js';
import { routeAgent } from './router.js';
import { StepError } from './severity.js';
import { type AgentState, applyUpdate, initialAgentState } from './state.js';
import {
  capabilitiesSelected,
  planCreated,
  runKilled,
  stepCompleted,
  stepFailed,
  taskExtracted,
} from './updates.js';

const busy: AgentState = initialAgentState({
  currentTask: 'old task',
  activeCapabilities: ['respond'],
  executionPlan: { steps: [{ capability: 'respond' }] },
  currentStepIndex: 1,
  hasError: true,
  error: { step: 'respond', severity: 'RETRIABLE', message: 'x' },
  retryCount: 2,
  retryStep: 'respond',
  reclassificationCount: 1,
  reclassificationReason: 'old reason',
  plansCreated: 2,
  replanReason: 'old plan failed',
  capabilityBypass: true,
});

describe('state updates', () => {
  it('a new task clears everything of the old one but the session bypass', () => {
    const state = applyUpdate(busy, taskExtracted('new task'));
    expect(state).toEqual(initialAgentState({ currentTask: 'new task', capabilityBypass: true }));
  });

  it('a selection clears the plan, the error, the retries and the used reclassification reason', () => {
    const state = applyUpdate(busy, capabilitiesSelected({ selected: ['respond', 'calendar'] }));
    expect(state).toMatchObject({
      activeCapabilities: ['respond', 'calendar'],
      executionPlan: undefined,
      currentStepIndex: 0,
      hasError: false,
      error: undefined,
      retryCount: 0,
      reclassificationReason: undefined,
      reclassificationCount: 1,
    });
    expect(routeAgent(state).next).toBe('orchestrator');
  });

  it('a selection keeps a /caps: directive as the session setting', () => {
    expect(capabilitiesSelected({ selected: ['a'], directive: 'on' }).capabilityBypass).toBe(false);
    expect(capabilitiesSelected({ selected: ['a'], directive: 'off' }).capabilityBypass).toBe(true);
    expect('capabilityBypass' in capabilitiesSelected({ selected: ['a'] })).toBe(false);
  });

  it('a plan is counted, starts at step 0 and clears the replan reason', () => {
    const plan = { steps: [{ capability: 'calendar' }, { capability: 'respond' }] };
    expect(applyUpdate(busy, planCreated(busy, plan))).toMatchObject({
      executionPlan: plan,
      currentStepIndex: 0,
      plansCreated: 3,
      replanReason: undefined,
      hasError: false,
    });
  });

  it('a completed step moves on and resets the retry counter', () => {
    expect(applyUpdate(busy, stepCompleted(busy))).toMatchObject({
      currentStepIndex: 2,
      retryCount: 0,
      retryStep: undefined,
      hasError: false,
    });
  });

  it('a failure is classified, keeping the count for the same step only', () => {
    const same = stepFailed(busy, 'respond', new LlmHttpError('p', 502));
    expect(same).toEqual({
      hasError: true,
      error: {
        step: 'respond',
        severity: 'RETRIABLE',
        message: expect.stringContaining('HTTP 502'),
      },
    });
    const other = stepFailed(busy, 'calendar', new StepError('REPLANNING', 'no slot free'));
    expect(other).toMatchObject({
      retryCount: 0,
      retryStep: 'calendar',
      error: { severity: 'REPLANNING' },
    });
    const custom = stepFailed(busy, 'x', new Error('boom'), {
      classify: () => ({ severity: 'FATAL', message: 'custom' }),
      retryPolicy: { maxAttempts: 1, delayMs: 0, backoffFactor: 1 },
    });
    expect(custom.error).toMatchObject({
      severity: 'FATAL',
      message: 'custom',
      retryPolicy: { maxAttempts: 1 },
    });
  });

  it('a kill sticks', () => {
    const killed = applyUpdate(busy, runKilled('user pressed stop'));
    expect(routeAgent(applyUpdate(killed, taskExtracted('again')))).toMatchObject({
      cause: 'killed',
    });
  });
});
