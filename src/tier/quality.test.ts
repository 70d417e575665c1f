import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { sharedData } from '../../test/data.js';
import { parseTierRow } from '../cli/commands/tier.js';
import { createTierRouter } from './router.js';
import { tierRank } from './tiers.js';

/**
 * Quality floors, so that a change that makes routing worse fails: the labelled set in the repo
 * (written for this project: four tiers, ten languages, system-prompt contamination, wrapped
 * messages) and the public routing data beside the repository.
 */
const router = createTierRouter();
const readJsonl = (path: string) =>
  readFileSync(path, 'utf8')
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => JSON.parse(line) as unknown);

describe('tier routing quality', () => {
  it('classifies at least 95% of the labelled set correctly', async () => {
    const file = fileURLToPath(new URL('../../test/fixtures/tier.jsonl', import.meta.url));
    const rows = readJsonl(file).map(parseTierRow);
    expect(rows.length).toBeGreaterThanOrEqual(150);
    let correct = 0;
    for (const row of rows) {
      const expected = Array.isArray(row.expected) ? row.expected : [row.expected];
      if (expected.includes((await router.decide(row.input)).tier)) correct++;
    }
    expect(correct / rows.length).toBeGreaterThanOrEqual(0.95);
  });

  it('decides at least 80% of the labelled set locally, at least 97% of those right', () => {
    const file = fileURLToPath(new URL('../../test/fixtures/tier.jsonl', import.meta.url));
    const rows = readJsonl(file).map(parseTierRow);
    let local = 0;
    let right = 0;
    for (const row of rows) {
      const decision = router.classify(row.input);
      if (decision.source !== 'local') continue;
      local++;
      const expected = Array.isArray(row.expected) ? row.expected : [row.expected];
      if (expected.includes(decision.tier)) right++;
    }
    expect(local / rows.length).toBeGreaterThanOrEqual(0.8);
    expect(right / local).toBeGreaterThanOrEqual(0.97);
  });

  const arena = sharedData('routing/arena_hard_v2_question.jsonl');
  it.skipIf(!arena)('sends at most 2% of the 750 Arena-Hard prompts to SIMPLE', () => {
    const rows = readJsonl(arena!) as { prompt: string }[];
    const simple = rows.filter(
      (row) =>
        router.classify({ messages: [{ role: 'user', content: row.prompt }] }).tier === 'SIMPLE',
    ).length;
    expect(rows.length).toBe(750);
    expect(simple / rows.length).toBeLessThanOrEqual(0.02);
  });

  const mtBench = sharedData('routing/mt_bench_question.jsonl');
  it.skipIf(!mtBench)(
    'ranks MT-Bench coding, math and extraction above humanities and STEM',
    () => {
      const rows = readJsonl(mtBench!) as { category: string; turns: string[] }[];
      const mean = (category: string) => {
        const ranks = rows
          .filter((row) => row.category === category)
          .map((row) =>
            tierRank(
              router.classify({ messages: [{ role: 'user', content: row.turns[0]! }] }).tier,
            ),
          );
        return ranks.reduce((a, b) => a + b, 0) / ranks.length;
      };
      for (const hard of ['coding', 'math', 'extraction']) {
        for (const easy of ['humanities', 'stem'])
          expect(mean(hard), `${hard} > ${easy}`).toBeGreaterThan(mean(easy));
      }
    },
  );
});
