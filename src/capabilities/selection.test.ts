import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { lruDecisionCache } from '../core/decision-cache.js';
import { LlmHttpError, LlmNetworkError } from '../llm/errors.js';
import type { CapabilityInput } from './capability.js';
import { EmptyTaskError } from './errors.js';
import { CapabilityRegistry } from './registry.js';
import { ScriptedProvider } from './scripted-provider.test-helpers.js';
import { CapabilitySelector } from './selection.js';

const ASSISTANT = fileURLToPath(new URL('./testdata/assistant.yaml', import.meta.url));
const registry = () => CapabilityRegistry.fromFile(ASSISTANT);
const answers =
  (yes: readonly string[]) =>
  (capability: string): { isMatch: boolean; reason: string } => ({
    isMatch: yes.includes(capability),
    reason: `scripted answer for ${capability}`,
  });

const sources = (selection: { decisions: readonly { name: string; decidedBy: string }[] }) =>
  Object.fromEntries(selection.decisions.map((d) => [d.name, d.decidedBy]));

describe('CapabilitySelector', () => {
  it('selects always-active capabilities first, then what the LLM says yes to', async () => {
    const provider = new ScriptedProvider(answers(['calendar', 'current_weather']));
    const selector = new CapabilitySelector({ registry: registry(), provider, prematcher: false });
    const selection = await selector.select('Plan my Friday picnic around the weather');
    expect(selection.selected).toEqual(['respond', 'current_weather', 'calendar']);
    expect(selection.decisions.map((d) => [d.name, d.selected, d.decidedBy])).toEqual([
      ['respond', true, 'always-active'],
      ['current_weather', true, 'llm'],
      ['send_email', false, 'llm'],
      ['calendar', true, 'llm'],
    ]);
    expect(selection.decisions[2]!.reason).toBe('scripted answer for send_email');
    expect(selection.llmCalls).toBe(3);
    expect(provider.asked.sort()).toEqual(['calendar', 'current_weather', 'send_email']);
  });

  it('decides the clear cases locally and asks the LLM only about the rest', async () => {
    const provider = new ScriptedProvider(answers([]));
    const selector = new CapabilitySelector({ registry: registry(), provider });
    const selection = await selector.select(
      "What's the weather like in Paris today, and reply to Alice",
    );
    expect(sources(selection)).toEqual({
      respond: 'always-active',
      current_weather: 'local',
      send_email: 'llm',
      calendar: 'local',
    });
    expect(provider.asked).toEqual(['send_email']);
    expect(selection.selected).toEqual(['respond', 'current_weather']);
    expect(selection.decisions[1]!.reason).toMatch(/close to its examples/);
    expect(selector.stats).toMatchObject({ decisions: 3, local: 2, llmCalls: 1 });
  });

  it('reports capabilities whose classification failed, with the error, and keeps the rest', async () => {
    const provider = new ScriptedProvider((capability) => {
      if (capability === 'send_email') return { fail: new LlmHttpError('scripted', 503, 'busy') };
      if (capability === 'calendar') return { reply: { verdict: 'yes' } };
      return { hang: true };
    });
    const selector = new CapabilitySelector({
      registry: registry(),
      provider,
      prematcher: false,
      timeoutMs: 50,
    });
    const selection = await selector.select('Tell me about my week');
    expect(selection.selected).toEqual(['respond']);
    expect(sources(selection)).toMatchObject({
      current_weather: 'failed',
      send_email: 'failed',
      calendar: 'failed',
    });
    const failure = (name: string) => selection.failures.find((f) => f.name === name);
    expect(failure('current_weather')).toMatchObject({ cause: 'timeout', retriable: true });
    expect(failure('send_email')).toMatchObject({ cause: 'error', retriable: true });
    expect(failure('send_email')!.error).toMatch(/HTTP 503: busy/);
    expect(failure('calendar')).toMatchObject({ cause: 'error', retriable: false });
    expect(failure('calendar')!.error).toMatch(/is_match/);
    expect(selection.decisions.find((d) => d.name === 'send_email')!.reason).toMatch(
      /^classification failed: /,
    );
  });

  it('bypasses classification by configuration, selecting everything without LLM calls', async () => {
    const provider = new ScriptedProvider(answers([]));
    const selector = new CapabilitySelector({ registry: registry(), provider, bypass: true });
    const selection = await selector.select('anything');
    expect(selection.selected).toEqual(['respond', 'current_weather', 'send_email', 'calendar']);
    expect(sources(selection)).toEqual({
      respond: 'always-active',
      current_weather: 'bypass',
      send_email: 'bypass',
      calendar: 'bypass',
    });
    expect(selection).toMatchObject({ bypass: true, bypassFrom: 'config', llmCalls: 0 });
    expect(provider.requests).toHaveLength(0);
  });

  it('toggles bypass at run time with /caps:off and /caps:on in the task', async () => {
    const provider = new ScriptedProvider(answers(['calendar']));
    const selector = new CapabilitySelector({ registry: registry(), provider, prematcher: false });
    const off = await selector.select('/caps:off move my meeting');
    expect(off).toMatchObject({ bypass: true, bypassFrom: 'directive', directive: 'off' });
    expect(off.task).toBe('move my meeting');
    expect(off.selected).toHaveLength(4);
    expect(provider.requests).toHaveLength(0);

    const configured = new CapabilitySelector({
      registry: registry(),
      provider,
      bypass: true,
      prematcher: false,
    });
    const on = await configured.select('move my meeting /caps:on');
    expect(on).toMatchObject({ bypass: false, directive: 'on', selected: ['respond', 'calendar'] });
    expect(provider.requests.every((r) => r.messages[0]!.content === 'move my meeting')).toBe(true);

    const session = await selector.select('move my meeting', { bypass: true });
    expect(session).toMatchObject({ bypass: true, bypassFrom: 'session' });
  });

  it('honours the concurrency limit', async () => {
    const many: CapabilityInput[] = Array.from({ length: 12 }, (_, i) => ({
      name: `cap_${i}`,
      description: `capability ${i}`,
    }));
    for (const concurrency of [undefined, 2]) {
      const provider = new ScriptedProvider(answers(['cap_3']), 20);
      const selector = new CapabilitySelector({
        registry: many,
        provider,
        prematcher: false,
        ...(concurrency === undefined ? {} : { concurrency }),
      });
      const selection = await selector.select('do something');
      expect(provider.requests).toHaveLength(12);
      expect(provider.maxInFlight).toBe(concurrency ?? 5);
      expect(selection.selected).toEqual(['cap_3']);
    }
    expect(() => new CapabilitySelector({ registry: many, concurrency: 0 })).toThrow(/concurrency/);
  });

  it('adds the reason of the previous failure to every prompt on reclassification', async () => {
    const provider = new ScriptedProvider(answers([]));
    const selector = new CapabilitySelector({ registry: registry(), provider, prematcher: false });
    await selector.select('book it', {
      previousFailure: 'calendar requested reclassification: read-only',
    });
    expect(provider.requests).toHaveLength(3);
    for (const request of provider.requests) {
      expect(request.system).toContain('calendar requested reclassification: read-only');
    }
  });

  it('gives the same prompts for the same seed and different ones for another', async () => {
    const prompts = async (seed: number) => {
      const provider = new ScriptedProvider(answers([]));
      await new CapabilitySelector({
        registry: registry(),
        provider,
        prematcher: false,
        seed,
      }).select('x');
      return provider.requests.map((r) => r.system).sort();
    };
    expect(await prompts(1)).toEqual(await prompts(1));
    expect(await prompts(1)).not.toEqual(await prompts(2));
  });

  it('uses the pre-matcher alone without an LLM, and says so', async () => {
    const selector = new CapabilitySelector({ registry: registry() });
    const selection = await selector.select('Email Bob the weather forecast for tomorrow');
    expect(selection.llm).toBe(false);
    const uncertain = selection.decisions.filter((d) =>
      d.reason.includes('no LLM configured, best guess'),
    );
    expect(uncertain.length).toBeGreaterThan(0);
    expect(uncertain.every((d) => d.source === 'local')).toBe(true);
  });

  it('falls back to the always-active capabilities with neither LLM nor pre-matcher', async () => {
    const selector = new CapabilitySelector({ registry: registry(), prematcher: false });
    const selection = await selector.select('What is the weather?');
    expect(selection.selected).toEqual(['respond']);
    expect(selection.failures).toEqual([]);
  });

  it('refuses an empty task unless selection is bypassed', async () => {
    const selector = new CapabilitySelector({ registry: registry() });
    await expect(selector.select('  ')).rejects.toBeInstanceOf(EmptyTaskError);
    await expect(selector.select('/caps:on')).rejects.toBeInstanceOf(EmptyTaskError);
    expect((await selector.select('/caps:off')).selected).toHaveLength(4);
  });

  it('serves repeated classifications from the decision cache, with their reasons', async () => {
    const provider = new ScriptedProvider(answers(['calendar']));
    const selector = new CapabilitySelector({
      registry: registry(),
      provider,
      prematcher: false,
      cache: lruDecisionCache(),
    });
    await selector.select('move my meeting');
    const again = await selector.select('move my meeting');
    expect(provider.requests).toHaveLength(3);
    expect(again.llmCalls).toBe(0);
    const calendar = again.decisions.find((d) => d.name === 'calendar')!;
    expect(calendar).toMatchObject({
      selected: true,
      source: 'cached',
      decidedBy: 'llm',
      cached: true,
    });
    expect(calendar.reason).toBe('scripted answer for calendar');
    await selector.select('move my meeting', { previousFailure: 'other' });
    expect(provider.requests).toHaveLength(6);
  });

  it('stops when the caller aborts', async () => {
    const provider = new ScriptedProvider(() => ({ hang: true }));
    const selector = new CapabilitySelector({ registry: registry(), provider, prematcher: false });
    const controller = new AbortController();
    const pending = selector.select('anything', { signal: controller.signal });
    setTimeout(() => controller.abort(new LlmNetworkError('scripted', 'client went away')), 20);
    await expect(pending).rejects.toThrow(/client went away/);
  });

  it('picks up capabilities registered after it was built', async () => {
    const capabilities = registry();
    const selector = new CapabilitySelector({ registry: capabilities });
    capabilities.register({
      name: 'translate',
      description: 'Translates text',
      guide: {
        instructions: 'Activate for translation requests',
        examples: [{ query: 'Translate this sentence into French', result: true }],
      },
    });
    const selection = await selector.select('Translate this sentence into French please');
    expect(selection.selected).toContain('translate');
  });
});
