import { describe, expect, it } from 'vitest';
import { createCapabilitySelector } from './capabilities/selection.js';
import { createContextRouter } from './context/router.js';
import { createGuidance } from './guidance/create.js';
import { createInjectionGuard } from './injection/guard.js';
import { useFakeLlm } from './llm/fake.test-helpers.js';
import { createPipeline } from './pipeline/pipeline.js';
import { createTierRouter } from './tier/router.js';

/**
 * One shape for every subsystem: `createX({ ...config, llm, cache })`, `classify` (synchronous,
 * local, says `needsLlm`) and `decide(input, { signal, deadlineMs })`, against a real HTTP LLM.
 */

const fixture = useFakeLlm();
const llm = () => fixture.provider('openai');

describe('createX({ ...config, llm, cache }) → classify / decide', () => {
  it('tier: llm as a provider, or as the check’s settings with the provider', async () => {
    fixture.fake.reply('REASONING');
    const router = createTierRouter({
      confidence: { llmBelow: 0.999 },
      llm: { provider: llm(), timeoutMs: 2_000 },
    });
    expect(router.options.llm.timeoutMs).toBe(2_000);
    const local = router.classify('Write a poem about spring');
    expect(local).toMatchObject({ needsLlm: true, source: 'local' });
    expect(fixture.fake.chatRequests).toHaveLength(0);
    expect(await router.decide('Write a poem about spring', { deadlineMs: 2_000 })).toMatchObject({
      tier: 'REASONING',
      source: 'llm',
      needsLlm: false,
    });
    expect(createTierRouter({ llm: llm() }).llmEnabled).toBe(true);
  });

  it('injection: classify is the detector alone, decide asks the LLM when unsure', async () => {
    fixture.fake.reply({
      json: { risk_level: 'high_risk', certainty: 'strong', reason: 'override' },
    });
    const guard = createInjectionGuard({ llm: llm(), minConfidence: 1 });
    const text = 'Please summarize the text above.';
    expect(guard.classify(text, { source: 'document' })).toMatchObject({
      needsLlm: true,
      local: { source: 'document' },
    });
    expect(await guard.decide(text, { source: 'document' })).toMatchObject({
      riskLevel: 'high_risk',
      source: 'llm',
      llmConfidence: 0.75,
    });
  });

  it('context: the configuration at the top level, its llm settings beside the provider', async () => {
    fixture.fake.reply({ json: { mode: 'general_contextual', confidence: 0.9, reason: 'broad' } });
    const router = createContextRouter({
      localConfidenceThreshold: 1,
      llm: { provider: llm(), timeoutMs: 2_000 },
    });
    expect(router.config.llm.timeoutMs).toBe(2_000);
    expect(router.classify('Define entropy')).toMatchObject({ needsLlm: true });
    expect(await router.decide('Define entropy')).toMatchObject({
      mode: 'general_contextual',
      source: 'llm',
    });
  });

  it('capabilities: classify leaves the unsure ones to the LLM, decide asks about them', async () => {
    fixture.fake.reply({ json: { is_match: true, reason: 'needed' } });
    const selector = createCapabilitySelector({
      registry: [
        { name: 'respond', description: 'Answer', alwaysActive: true },
        { name: 'weather', description: 'Look up the weather' },
      ],
      llm: llm(),
      prematcher: false,
    });
    const local = selector.classify('Will it rain?');
    expect(local.needsLlm).toBe(true);
    expect(local.decisions[1]).toMatchObject({ name: 'weather', needsLlm: true, source: 'local' });
    expect(fixture.fake.chatRequests).toHaveLength(0);
    const decided = await selector.decide('Will it rain?');
    expect(decided.selected).toEqual(['respond', 'weather']);
    expect(decided.decisions.map((d) => d.source)).toEqual(['forced', 'llm']);
  });

  it('capabilities: at the deadline the capabilities still waiting fall back, not selected', async () => {
    fixture.fake.reply({ hang: true });
    const selector = createCapabilitySelector({
      registry: [{ name: 'weather', description: 'Look up the weather' }],
      llm: llm(),
      prematcher: false,
    });
    const decided = await selector.decide('Will it rain?', { deadlineMs: 50 });
    expect(decided.decisions[0]).toMatchObject({
      selected: false,
      source: 'fallback',
      fallbackCause: 'deadline',
      decidedBy: 'failed',
    });
  });

  it('guidance: providers as specs, built with llm; decide asks it', async () => {
    fixture.fake.reply({ json: { relevant: true, confidence: 0.9, reason: 'looping' } });
    const guide = createGuidance({
      llm: llm(),
      providers: [
        { classifier: { type: 'llm', question: 'Is the agent stuck?' }, guidance: 'Stop.' },
      ],
    });
    expect(() => guide.classify({ type: 'turn' })).toThrow(/ask an LLM/);
    const fired = await guide.decide(
      { type: 'tool_invoked', tool: 'bash', result: { success: false, message: 'boom' } },
      { deadlineMs: 2_000 },
    );
    expect(fired).toHaveLength(1);
    expect(fired[0]).toMatchObject({ message: 'Stop.', source: 'llm', llmConfidence: 0.9 });
  });

  it('guidance: a provider still waiting at the deadline gives no guidance', async () => {
    fixture.fake.reply({ hang: true });
    const guide = createGuidance({
      llm: llm(),
      providers: [
        {
          classifier: { type: 'llm', question: 'Is the agent stuck?', timeoutMs: 10_000 },
          guidance: 'Stop.',
        },
      ],
    });
    const event = { type: 'tool_invoked', tool: 'bash', result: { success: true } } as const;
    expect(await guide.decide(event, { deadlineMs: 50 })).toEqual([]);
  });

  it('pipeline: createPipeline({ ...settings, llm }) and decide', async () => {
    fixture.fake.reply({ text: 'not json' });
    const pipeline = createPipeline({ llm: llm(), runner: { retries: 0 } });
    const result = await pipeline.decide([{ role: 'user', content: 'Fix the failing test' }]);
    const statuses = Object.values(result.audit.meta.classifiers).map((c) => c.status);
    expect(
      statuses.some((s) => s.source === 'fallback' && s.fallback_cause === 'llm_invalid'),
    ).toBe(true);
  });
});
