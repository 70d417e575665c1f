import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { evaluatePrematcher } from './evaluate.js';
import { Prematcher } from './prematcher.js';
import { CapabilityRegistry } from './registry.js';

const registry = CapabilityRegistry.fromFile(
  fileURLToPath(new URL('./testdata/assistant.yaml', import.meta.url)),
);
const prematcher = new Prematcher(registry.all().filter((c) => !c.alwaysActive));

describe('evaluatePrematcher', () => {
  it('tallies local decisions, their precision, the calls saved and the rankings', () => {
    // Weather near-duplicate: weather yes, e-mail and calendar no. A counter-example of
    // weather: three local "no". A task in Chinese: nothing decided, no similarity at all.
    const result = evaluatePrematcher(prematcher, [
      { text: "What's the weather like in Paris today?", expected: ['current_weather'] },
      { text: 'What time is it?', expected: [] },
      { text: '明天会下雨吗', expected: ['current_weather'] },
    ]);
    expect(result).toMatchObject({
      tasks: 3,
      capabilities: 3,
      decisions: 9,
      localYes: 1,
      localNo: 5,
      localPrecision: 1,
      localYesPrecision: 1,
      localNoPrecision: 1,
      neededRuledOut: 0,
      top1Accuracy: 0.5,
      exactWithPerfectLlm: 1,
    });
    expect(result.localShare).toBeCloseTo(6 / 9, 10);
    expect(result.llmCallsPerTask).toBeCloseTo(3 / 3, 10);
    expect(result.llmCallsSavedPerTask).toBeCloseTo(6 / 3, 10);
    expect(result.exactWithoutLlm).toBeCloseTo(2 / 3, 10);
  });

  it('counts a needed capability ruled out locally as a miss', () => {
    const result = evaluatePrematcher(prematcher, [
      { text: 'What time is it?', expected: ['current_weather'] },
    ]);
    expect(result).toMatchObject({ neededRuledOut: 1, exactWithPerfectLlm: 0 });
    expect(result.localNoPrecision).toBeCloseTo(2 / 3, 10);
  });

  it('reports nothing measured for no tasks, without dividing by zero', () => {
    const result = evaluatePrematcher(prematcher, []);
    expect(result).toMatchObject({ tasks: 0, localShare: 0, localPrecision: 1, top1Accuracy: 0 });
  });
});
