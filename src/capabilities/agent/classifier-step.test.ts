import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { LlmHttpError } from '../../llm/errors.js';
import { CapabilityRegistry } from '../registry.js';
import { ScriptedProvider } from '../scripted-provider.test-helpers.js';
import { CapabilitySelector } from '../selection.js';
import { runClassifierStep } from './classifier-step.js';
import { type AgentRoute, createAgentRouter } from './router.js';
import { StepError } from './severity.js';
import { type AgentState, applyUpdate, initialAgentState } from './state.js';
import { planCreated, stepCompleted, stepFailed, taskExtracted } from './updates.js';

const registry = () =>
  CapabilityRegistry.fromFile(
    fileURLToPath(new URL('../testdata/assistant.yaml', import.meta.url)),
  );

describe('runClassifierStep', () => {
  it('stores the selection and clears the plan', async () => {
    const provider = new ScriptedProvider((c) => ({ isMatch: c === 'calendar' }));
    const selector = new CapabilitySelector({ registry: registry(), provider, prematcher: false });
    const update = await runClassifierStep(
      initialAgentState({ currentTask: 'move my meeting' }),
      selector,
    );
    expect(update).toMatchObject({
      activeCapabilities: ['respond', 'calendar'],
      executionPlan: undefined,
    });
  });

  it('records a failed selection as a retriable error, or accepts it when asked', async () => {
    const provider = new ScriptedProvider((c) =>
      c === 'calendar' ? { fail: new LlmHttpError('scripted', 503) } : { isMatch: false },
    );
    const selector = new CapabilitySelector({ registry: registry(), provider, prematcher: false });
    const state = initialAgentState({ currentTask: 'move my meeting' });
    const update = await runClassifierStep(state, selector);
    expect(update).toMatchObject({
      hasError: true,
      error: { step: 'classifier', severity: 'RETRIABLE' },
    });
    expect(update.error!.message).toMatch(/could not classify calendar/);
    const accepted = await runClassifierStep(state, selector, { onFailures: 'accept' });
    expect(accepted.activeCapabilities).toEqual(['respond']);
  });

  it('records an empty task as a critical error instead of throwing', async () => {
    const selector = new CapabilitySelector({ registry: registry() });
    const update = await runClassifierStep(initialAgentState(), selector);
    expect(update.error).toMatchObject({ step: 'classifier', severity: 'CRITICAL' });
  });

  it('keeps a /caps:off directive for the rest of the session', async () => {
    const provider = new ScriptedProvider(() => ({ isMatch: false }));
    const selector = new CapabilitySelector({ registry: registry(), provider, prematcher: false });
    let state = initialAgentState({ currentTask: '/caps:off move my meeting' });
    state = applyUpdate(state, await runClassifierStep(state, selector));
    expect(state.capabilityBypass).toBe(true);
    state = applyUpdate(state, taskExtracted('and the next task'));
    state = applyUpdate(state, await runClassifierStep(state, selector));
    expect(state.activeCapabilities).toHaveLength(4);
    expect(provider.requests).toHaveLength(0);
  });
});

describe('an agent run driven by the router', () => {
  it('retries a flaky classifier, reclassifies once when a capability asks, and finishes', async () => {
    let calendarCalls = 0;
    const provider = new ScriptedProvider((capability) => {
      if (capability === 'calendar' && calendarCalls++ === 0) {
        return { fail: new LlmHttpError('scripted', 503) };
      }
      return { isMatch: capability === 'calendar' || capability === 'send_email' };
    });
    const selector = new CapabilitySelector({ registry: registry(), provider, prematcher: false });
    const router = createAgentRouter({ jitter: 0 });
    let state: AgentState = initialAgentState({ runId: 'r1' });
    const trail: string[] = [];
    const delays: number[] = [];
    let calendarRuns = 0;
    for (let turn = 0; turn < 20; turn++) {
      const route: AgentRoute = router(state);
      trail.push(route.next === 'capability' ? route.capability : route.next);
      delays.push(route.delayMs);
      state = applyUpdate(state, route.update);
      if (route.next === 'done' || route.next === 'error') break;
      if (route.next === 'task_extraction')
        state = applyUpdate(state, taskExtracted('Invite Carol to lunch on Friday'));
      else if (route.next === 'classifier')
        state = applyUpdate(state, await runClassifierStep(state, selector));
      else if (route.next === 'orchestrator') {
        const steps = state
          .activeCapabilities!.filter((c) => c !== 'respond')
          .map((capability) => ({ capability }));
        state = applyUpdate(
          state,
          planCreated(state, { steps: [...steps, { capability: 'respond' }] }),
        );
      } else if (route.next === 'capability') {
        if (route.capability === 'calendar' && calendarRuns++ === 0) {
          state = applyUpdate(
            state,
            stepFailed(
              state,
              'calendar',
              new StepError('RECLASSIFICATION', 'needs the contacts too'),
            ),
          );
        } else {
          state = applyUpdate(state, stepCompleted(state));
        }
      }
    }
    expect(trail).toEqual([
      'task_extraction',
      'classifier', // calendar's classification fails with HTTP 503
      'classifier', // retried after a delay
      'orchestrator',
      'send_email',
      'calendar', // asks for reclassification
      'classifier',
      'orchestrator',
      'send_email',
      'calendar',
      'respond',
      'done',
    ]);
    expect(delays[2]).toBe(1000);
    expect(state.reclassificationCount).toBe(1);
    expect(state.plansCreated).toBe(2);
    const reclassified = provider.requests.slice(-3);
    for (const request of reclassified) {
      expect(request.system).toContain(
        'calendar requested reclassification: needs the contacts too',
      );
    }
  });
});
