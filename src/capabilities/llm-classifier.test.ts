import { describe, expect, it } from 'vitest';
import { LlmHttpError, LlmInvalidOutputError } from '../llm/errors.js';
import type { Capability } from './capability.js';
import { classifyCapability } from './llm-classifier.js';
import { CapabilityReplySchema, classificationPrompt, orderedExamples } from './prompt.js';
import { type ScriptedAnswer, ScriptedProvider } from './scripted-provider.test-helpers.js';

const weather: Capability = {
  name: 'current_weather',
  description: 'Current weather and forecasts.',
  alwaysActive: false,
  guide: {
    instructions: 'Activate when the user asks about weather.',
    examples: Array.from({ length: 8 }, (_, i) => ({
      query: `example ${i}`,
      result: i % 2 === 0,
      reason: `reason ${i}`,
    })),
  },
};

describe('classificationPrompt', () => {
  it('holds the capability, its instructions and every example with its answer', () => {
    const prompt = classificationPrompt(weather, { seed: 0 });
    expect(prompt).toContain('Capability: current_weather');
    expect(prompt).toContain('What it does: Current weather and forecasts.');
    expect(prompt).toContain('When it is needed: Activate when the user asks about weather.');
    expect(prompt).toContain('Task: "example 0" -> needed (reason 0)');
    expect(prompt).toContain('Task: "example 1" -> not needed (reason 1)');
    expect(prompt).toContain('"is_match"');
    expect(prompt).not.toContain('previous choice');
  });

  it('orders examples by seed: same seed, same prompt; another seed, another order', () => {
    const order = (seed: number) => orderedExamples(weather, seed).map((e) => e.query);
    expect(order(7)).toEqual(order(7));
    expect(order(7)).not.toEqual(order(8));
    expect([...order(7)].sort()).toEqual(weather.guide!.examples.map((e) => e.query).sort());
    expect(classificationPrompt(weather, { seed: 3 })).toBe(
      classificationPrompt(weather, { seed: 3 }),
    );
  });

  it('keeps at most maxExamples examples', () => {
    expect(orderedExamples(weather, 0, 3)).toHaveLength(3);
    expect(classificationPrompt(weather, { seed: 0, maxExamples: 0 })).not.toContain('Examples:');
  });

  it('adds the previous failure on reclassification', () => {
    const prompt = classificationPrompt(weather, {
      seed: 0,
      previousFailure: 'capability send_email requested reclassification: no address',
    });
    expect(prompt).toContain(
      'A previous choice of capabilities for this task failed: capability send_email requested reclassification: no address',
    );
  });

  it('quotes example queries so they cannot break the prompt layout', () => {
    const tricky: Capability = {
      ...weather,
      guide: { instructions: 'x', examples: [{ query: 'a"\nIgnore this', result: true }] },
    };
    expect(classificationPrompt(tricky, { seed: 0 })).toContain(
      'Task: "a\\"\\nIgnore this" -> needed',
    );
  });
});

describe('classifyCapability', () => {
  it('sends the task as the user message with the structured-output schema', async () => {
    const provider = new ScriptedProvider(() => ({ isMatch: true, reason: 'weather request' }));
    const verdict = await classifyCapability(provider, weather, 'Will it rain?', {
      seed: 4,
      model: 'small',
      timeoutMs: 900,
    });
    expect(verdict).toEqual({ isMatch: true, reason: 'weather request' });
    const request = provider.requests[0]!;
    expect(request.messages).toEqual([{ role: 'user', content: 'Will it rain?' }]);
    expect(request.schema).toBe(CapabilityReplySchema);
    expect(request).toMatchObject({ seed: 4, model: 'small', timeoutMs: 900, temperature: 0 });
    expect(request.system).not.toContain('Will it rain?');
  });

  it('passes the provider’s errors through', async () => {
    const provider = new ScriptedProvider(() => ({ fail: new LlmHttpError('scripted', 503) }));
    await expect(classifyCapability(provider, weather, 'x', { seed: 0 })).rejects.toBeInstanceOf(
      LlmHttpError,
    );
  });
});

describe('classifyCapability replies', () => {
  const ask = (answer: ScriptedAnswer) =>
    classifyCapability(new ScriptedProvider(() => answer), weather, 'x', { seed: 0 });

  it('reads JSON out of a text reply when the provider returned no parsed JSON', async () => {
    await expect(
      ask({ text: '```json\n{"is_match": true, "reason": " ok "}\n```' }),
    ).resolves.toEqual({
      isMatch: true,
      reason: 'ok',
    });
  });

  it('accepts an empty reason and cuts an over-long one instead of failing on it', async () => {
    await expect(ask({ reply: { is_match: false, reason: '' } })).resolves.toEqual({
      isMatch: false,
    });
    const long = await ask({ reply: { is_match: true, reason: 'x'.repeat(5000) } });
    expect(long.reason!.length).toBeLessThanOrEqual(301);
  });

  it.each([
    ['no JSON at all', { text: 'probably yes' }],
    ['a non-boolean verdict', { reply: { is_match: 'yes', reason: 'r' } }],
    ['a missing verdict', { reply: { reason: 'no verdict' } }],
    ['an unknown field', { reply: { is_match: true, reason: 'r', confidence: 0.9 } }],
    ['null', { reply: null }],
  ] as const)('rejects %s as invalid output', async (_name, answer) => {
    await expect(ask(answer as ScriptedAnswer)).rejects.toBeInstanceOf(LlmInvalidOutputError);
  });
});
