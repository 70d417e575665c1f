import { describe, expect, it } from 'vitest';
import { needSharedData, readJsonlFile } from '../../test/data.js';
import { createTierRouter } from './router.js';
import { tierRank } from './tiers.js';

/**
 * Quality floors on the public routing data beside the repository, so that a change that makes
 * routing worse fails (the labelled set in the repo is checked in quality.test.ts).
 */
const router = createTierRouter();

describe('tier routing quality on public data', () => {
  it('sends at most 2% of the 750 Arena-Hard prompts to SIMPLE', (context) => {
    const arena = needSharedData(context, 'routing/arena_hard_v2_question.jsonl');
    const rows = readJsonlFile(arena) as { prompt: string }[];
    const simple = rows.filter(
      (row) =>
        router.classify({ messages: [{ role: 'user', content: row.prompt }] }).tier === 'SIMPLE',
    ).length;
    expect(rows.length).toBe(750);
    expect(simple / rows.length).toBeLessThanOrEqual(0.02);
  });

  it('ranks MT-Bench coding, math and extraction above humanities and STEM', (context) => {
    const mtBench = needSharedData(context, 'routing/mt_bench_question.jsonl');
    const rows = readJsonlFile(mtBench) as { category: string; turns: string[] }[];
    const mean = (category: string) => {
      const ranks = rows
        .filter((row) => row.category === category)
        .map((row) =>
          tierRank(router.classify({ messages: [{ role: 'user', content: row.turns[0]! }] }).tier),
        );
      return ranks.reduce((a, b) => a + b, 0) / ranks.length;
    };
    for (const hard of ['coding', 'math', 'extraction']) {
      for (const easy of ['humanities', 'stem'])
        expect(mean(hard), `${hard} > ${easy}`).toBeGreaterThan(mean(easy));
    }
  });
});
