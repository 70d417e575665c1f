import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type ConfiguredProvider, createProvider } from '../llm/config.js';
import { whenAbandonedClosed } from '../llm/fake.test-helpers.js';
import type { FakeLlmServer, FakeReply, FakeRequest } from '../testing/index.js';
import { startFakeLlm } from '../testing/index.js';
import { runClassifierStep } from './agent/classifier-step.js';
import { createAgentRouter } from './agent/router.js';
import { applyUpdate, initialAgentState } from './agent/state.js';
import type { CapabilityInput } from './capability.js';
import { CapabilityReplySchema } from './prompt.js';
import { CapabilityRegistry } from './registry.js';
import { CapabilitySelector } from './selection.js';

// Capability selection over real HTTP: the providers of src/llm talk to the fake LLM server of
// src/testing on 127.0.0.1, in each wire format, with structured output.

const registry = () =>
  CapabilityRegistry.fromFile(fileURLToPath(new URL('./testdata/assistant.yaml', import.meta.url)));

let fake: FakeLlmServer;
const providers: ConfiguredProvider[] = [];

beforeEach(async () => {
  fake = await startFakeLlm();
});

afterEach(async () => {
  await Promise.all(providers.splice(0).map((provider) => provider.close()));
  await fake.close();
});

function provider(kind: 'openai' | 'anthropic' | 'ollama' = 'openai'): ConfiguredProvider {
  const built = createProvider({
    id: `fake-${kind}`,
    kind,
    model: 'fake-model',
    baseUrl: kind === 'openai' ? fake.openAiBaseUrl : fake.url,
    maxRetries: 0,
    maxConcurrency: 64,
  });
  providers.push(built);
  return built;
}

/** The capability a recorded classification request asks about. */
const capabilityOf = (request: FakeRequest) =>
  /^Capability: (.+)$/m.exec(request.system ?? '')?.[1];

/** Answers `is_match: true` for the named capabilities, false for the rest. */
const answering =
  (yes: readonly string[]) =>
  (request: FakeRequest): FakeReply => {
    const name = capabilityOf(request) ?? '?';
    return { json: { is_match: yes.includes(name), reason: `fake says ${name}` } };
  };

describe.each(['openai', 'anthropic', 'ollama'] as const)('selection over %s HTTP', (kind) => {
  it('asks one structured yes/no per capability and selects the matches', async () => {
    fake.reply(answering(['calendar']));
    const selector = new CapabilitySelector({
      registry: registry(),
      provider: provider(kind),
      prematcher: false,
    });
    const selection = await selector.select('Move my 3pm meeting to Friday');
    expect(selection.selected).toEqual(['respond', 'calendar']);
    expect(selection.decisions.find((d) => d.name === 'calendar')).toMatchObject({
      source: 'llm',
      reason: 'fake says calendar',
    });
    expect(fake.chatRequests).toHaveLength(3);
    for (const request of fake.chatRequests) {
      expect(request.format).toBe(kind);
      expect(request.prompt).toBe('Move my 3pm meeting to Friday');
      expect(request.system).not.toContain('Move my 3pm meeting');
      expect(request.schema).toMatchObject({ required: CapabilityReplySchema.required });
      expect(Object.keys(request.schema?.properties ?? {})).toEqual(['is_match', 'reason']);
    }
  });
});

describe('selection over HTTP', () => {
  it('keeps at most `concurrency` requests in flight at the server', async () => {
    // The server holds every answer until three requests are in flight (or all that are left),
    // so the limit is reached on any machine, and a fourth request would show at once.
    let active = 0;
    let most = 0;
    let answered = 0;
    const held: (() => void)[] = [];
    const releaseWhenFull = () => {
      if (active >= 3 || active === 12 - answered) for (const release of held.splice(0)) release();
    };
    fake.reply(async (request) => {
      active++;
      most = Math.max(most, active);
      await new Promise<void>((resolve) => {
        held.push(resolve);
        releaseWhenFull();
      });
      active--;
      answered++;
      return answering(['cap_4'])(request);
    });
    const many: CapabilityInput[] = Array.from({ length: 12 }, (_, i) => ({
      name: `cap_${i}`,
      description: `capability ${i}`,
    }));
    const selector = new CapabilitySelector({
      registry: many,
      provider: provider(),
      prematcher: false,
      concurrency: 3,
    });
    const selection = await selector.select('do the thing');
    expect(selection.selected).toEqual(['cap_4']);
    expect(fake.chatRequests).toHaveLength(12);
    expect(most).toBe(3);
  });

  it('reports an HTTP error and an unusable reply as failed, and keeps the rest', async () => {
    fake.reply((request) => {
      switch (capabilityOf(request)) {
        case 'current_weather':
          return { status: 503, error: 'overloaded' };
        case 'send_email':
          return { text: 'probably yes' };
        default:
          return answering(['calendar'])(request);
      }
    });
    const selector = new CapabilitySelector({
      registry: registry(),
      provider: provider(),
      prematcher: false,
    });
    const selection = await selector.select('Tell me about my week');
    expect(selection.selected).toEqual(['respond', 'calendar']);
    const failure = (name: string) => selection.failures.find((f) => f.name === name);
    expect(failure('current_weather')).toMatchObject({ cause: 'error', retriable: true });
    expect(failure('current_weather')!.error).toMatch(/503/);
    expect(failure('send_email')).toMatchObject({ cause: 'error', retriable: false });
    expect(failure('calendar')).toBeUndefined();
  });

  it('reports a server that never answers as a retriable timeout, and closes the connection', async () => {
    fake.reply({ hang: true });
    const selector = new CapabilitySelector({
      registry: registry(),
      provider: provider(),
      prematcher: false,
      timeoutMs: 300,
    });
    const selection = await selector.select('Tell me about my week');
    expect(selection.selected).toEqual(['respond']);
    expect(selection.failures.map((f) => [f.name, f.cause, f.retriable])).toEqual([
      ['current_weather', 'timeout', true],
      ['send_email', 'timeout', true],
      ['calendar', 'timeout', true],
    ]);
    await whenAbandonedClosed(fake);
  });

  it('decides the clear cases locally and sends only the uncertain ones over the wire', async () => {
    fake.reply(answering([]));
    const selector = new CapabilitySelector({ registry: registry(), provider: provider() });
    const selection = await selector.select(
      "What's the weather like in Paris today, and reply to Alice",
    );
    expect(selection.selected).toEqual(['respond', 'current_weather']);
    expect(fake.chatRequests.map(capabilityOf)).toEqual(['send_email']);
  });

  it('retries a classifier that hit a server error, through the router, with the reason in the prompts', async () => {
    fake.script({ status: 502, error: 'bad gateway' });
    fake.reply(answering(['calendar']));
    const selector = new CapabilitySelector({
      registry: registry(),
      provider: provider(),
      prematcher: false,
      concurrency: 1,
    });
    const router = createAgentRouter({ jitter: 0 });
    let state = initialAgentState({
      currentTask: 'Move my meeting',
      reclassificationReason: 'send_email requested reclassification: no mailbox',
    });
    state = applyUpdate(state, await runClassifierStep(state, selector));
    expect(state.error).toMatchObject({ step: 'classifier', severity: 'RETRIABLE' });
    const retry = router(state);
    expect(retry).toMatchObject({ next: 'classifier', delayMs: 1000 });
    state = applyUpdate(state, retry.update);
    state = applyUpdate(state, await runClassifierStep(state, selector));
    expect(state.activeCapabilities).toEqual(['respond', 'calendar']);
    expect(state.reclassificationReason).toBeUndefined();
    for (const request of fake.chatRequests) {
      expect(request.system).toContain('send_email requested reclassification: no mailbox');
    }
  });
});
