import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { parseTierRow } from '../cli/commands/tier.js';
import { createTierRouter } from './router.js';
import { type Tier, tierRank } from './tiers.js';

/**
 * Prompt extraction's case 3 on labelled long messages without a system message
 * (`test/fixtures/tier-extraction.jsonl`, written for this project): a system prompt sent as user
 * text, then the request (the case the rule is for); pasted content, then a request about it; a
 * long request, then a sign-off; a chatty preamble, then a question; a request written in several
 * paragraphs. The default (`guarded`) must
 * beat the original design's rule (`always`) and the other modes, and never route a long request
 * below its tier because of its sign-off.
 */
const file = fileURLToPath(new URL('../../test/fixtures/tier-extraction.jsonl', import.meta.url));
const rows = readFileSync(file, 'utf8')
  .split('\n')
  .filter((line) => line.trim() !== '')
  .map((line) => {
    const value = JSON.parse(line) as { kind: string };
    return { ...parseTierRow(value), kind: value.kind };
  });

type Mode = 'guarded' | 'always' | 'persona' | 'off';
function evaluate(mode: Mode) {
  const router = createTierRouter({ extraction: { trailingMessage: mode } });
  let correct = 0;
  let signOffsBelow = 0;
  for (const row of rows) {
    const expected = Array.isArray(row.expected) ? row.expected : [row.expected];
    const tier = router.classify(row.input).tier;
    if (expected.includes(tier)) correct++;
    else if (row.kind === 'sign-off' && expected.every((e) => tierRank(tier) < tierRank(e as Tier)))
      signOffsBelow++;
  }
  return { accuracy: correct / rows.length, signOffsBelow };
}

describe('prompt extraction, case 3, on labelled long messages', () => {
  const results = Object.fromEntries(
    (['guarded', 'always', 'persona', 'off'] as const).map((mode) => [mode, evaluate(mode)]),
  ) as Record<Mode, ReturnType<typeof evaluate>>;

  it('covers every kind of long message, over 500 characters each', () => {
    expect(rows.length).toBeGreaterThanOrEqual(30);
    expect(new Set(rows.map((r) => r.kind))).toEqual(
      new Set(['system-prompt', 'pasted-content', 'sign-off', 'preamble', 'multi-paragraph']),
    );
    for (const row of rows) expect((row.input as string).length).toBeGreaterThan(500);
  });

  it('the default beats the original rule and the other modes', () => {
    expect(results.guarded.accuracy).toBeGreaterThanOrEqual(0.75);
    for (const mode of ['always', 'persona', 'off'] as const) {
      expect(results.guarded.accuracy, mode).toBeGreaterThan(results[mode].accuracy);
    }
  });

  it('never sends a long request below its tier because it ends with "thanks"', () => {
    expect(results.guarded.signOffsBelow).toBe(0);
    expect(results.always.signOffsBelow).toBeGreaterThan(0); // why the default is guarded
  });
});
