import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { parseTierRow } from '../cli/commands/tier.js';
import { createTierRouter } from './router.js';
import type { Tier } from './tiers.js';
import {
  type OutcomeFigures,
  type TierFigures,
  type TrainingRow,
  trainTierWeights,
} from './train.js';

/**
 * Outcome rows where the strong model helps exactly on prompts about two topics, whatever their
 * length: a fit must find those words, and the untrained scorer cannot know them.
 */
function outcomeRows(count: number): TrainingRow[] {
  const topics = [
    'medieval castles',
    'the old lighthouse',
    'a pasta recipe',
    'the weather',
    'tax forms',
  ];
  const filler = ['please', 'kindly', 'today', 'in detail', 'briefly', 'for my class'];
  return Array.from({ length: count }, (_, i) => {
    const topic = topics[i % topics.length]!;
    const hard = topic.includes('castles') || topic.includes('lighthouse');
    const words = filler.slice(0, 1 + ((i * 7) % filler.length)).join(' ');
    return {
      input: `Tell me about ${topic} ${words}.`,
      outcome: { weak: hard ? 0 : 1, strong: 1 },
      group: hard ? 'hard' : 'easy',
    };
  });
}

describe('trainTierWeights on outcomes', () => {
  const rows = outcomeRows(300);
  const result = trainTierWeights(rows, { seed: 3, holdout: 0.25, minWordRows: 5 });

  it('learns the words that say where the strong model helps, measured on held-out rows', () => {
    expect(result).toMatchObject({
      fittedTo: 'outcomes',
      rows: 300,
      trainRows: 225,
      heldOutRows: 75,
    });
    const heldOut = result.heldOut as OutcomeFigures;
    // The best any ranking can do here: the gap is recovered over the first 40% of calls.
    const oracle = 1 - 0.4 / 2;
    expect(heldOut.trained).toBeGreaterThan(0.95 * oracle);
    expect(heldOut.trained).toBeGreaterThan(heldOut.untrained + 0.1);
    const words = result.weights.learned!.words;
    expect(words.castles).toBeGreaterThan(0);
    expect(words.lighthouse).toBeGreaterThan(0);
    expect(words.recipe ?? 0).toBeLessThan(words.castles!);
    expect(Object.keys(result.groups!)).toEqual(['easy', 'hard']);
    // Words in more than half of the rows say nothing about one of them.
    expect(words.tell).toBeUndefined();
  });

  it('writes weights a router takes, with a score that ranks the hard prompts first', () => {
    const router = createTierRouter({ weights: result.weights });
    const hard = router.classify('Tell me about medieval castles briefly.').score!;
    const easy = router.classify('Tell me about the weather briefly.').score!;
    expect(hard).toBeGreaterThan(easy);
    const { MEDIUM, COMPLEX, REASONING } = result.weights.boundaries;
    expect(MEDIUM).toBeLessThanOrEqual(COMPLEX);
    expect(COMPLEX).toBeLessThanOrEqual(REASONING);
  });

  it('is deterministic for a seed, and the seed draws the held-out rows', () => {
    const again = trainTierWeights(rows, { seed: 3, holdout: 0.25, minWordRows: 5 });
    expect(JSON.stringify(again.weights)).toBe(JSON.stringify(result.weights));
    const other = trainTierWeights(rows, { seed: 4, holdout: 0.25, minWordRows: 5 });
    expect(JSON.stringify(other.weights)).not.toBe(JSON.stringify(result.weights));
  });

  it('fits without words, and on every row without a holdout', () => {
    const plain = trainTierWeights(rows, { holdout: 0, maxWords: 0 });
    expect(plain.heldOut).toBeUndefined();
    expect(plain.trainRows).toBe(300);
    expect(plain.words).toBe(0);
  });

  it('refuses mixed labels, no rows and a bad holdout', () => {
    const mixed: TrainingRow[] = [...rows.slice(0, 5), { input: 'hi', tiers: ['SIMPLE'] }];
    expect(() => trainTierWeights(mixed)).toThrow(/same kind of label/);
    expect(() => trainTierWeights([])).toThrow(RangeError);
    expect(() => trainTierWeights(rows, { holdout: 1 })).toThrow(/holdout/);
  });
});

describe('trainTierWeights on tier labels', () => {
  const file = fileURLToPath(new URL('../../test/fixtures/tier.jsonl', import.meta.url));
  const rows: TrainingRow[] = readFileSync(file, 'utf8')
    .trim()
    .split('\n')
    .map((line) => parseTierRow(JSON.parse(line)))
    .map((row) => ({
      input: row.input,
      tiers: (Array.isArray(row.expected) ? row.expected : [row.expected]) as Tier[],
    }));

  it('refines the document’s weights without losing accuracy on the rows it fits', () => {
    const result = trainTierWeights(rows, { holdout: 0 });
    expect(result.fittedTo).toBe('tiers');
    const fitted = result.train as TierFigures;
    expect(fitted.trained.accuracy).toBeGreaterThanOrEqual(fitted.untrained.accuracy - 0.02);
    const { MEDIUM, COMPLEX, REASONING } = result.weights.boundaries;
    expect(MEDIUM).toBeLessThan(COMPLEX);
    expect(COMPLEX).toBeLessThan(REASONING);
    // A tier fit leaves the overrides to the options.
    expect(result.weights.overrides).toBeUndefined();
  });
});
