import { describe, expect, it } from 'vitest';
import { ConfigError } from '../core/errors.js';
import { learnableWords } from './features.js';
import { createTierRouter } from './router.js';
import { routingScore } from './routing-score.js';
import { type TierWeights, tierWeights } from './weights.js';

const base: TierWeights = {
  version: 1,
  fittedTo: 'outcomes',
  dimensions: {},
  boundaries: { MEDIUM: 0, COMPLEX: 0.15, REASONING: 0.35 },
};
const PROMPT = 'Explain the history of quantum computing to a student.';

describe('tier weights', () => {
  it('change the score: dimension weights, boundaries and the learned term', () => {
    const plain = createTierRouter().classify(PROMPT);
    const learned = createTierRouter({
      weights: {
        ...base,
        learned: {
          features: { logTokens: 0, logNumbers: 0, questionMarks: 0 },
          words: { quantum: 0.3, Student: -0.05, absent: 1 },
        },
      },
    }).classify(PROMPT);
    // Each learned word found adds its weight once; words are folded like the keywords.
    expect(learned.score! - plain.score!).toBeCloseTo(0.25, 6);
    expect(learned.signals).toContain('learned term (+0.250)');
    const features = createTierRouter({
      weights: {
        ...base,
        learned: { features: { logTokens: 0.1, logNumbers: 0, questionMarks: 0.5 }, words: {} },
      },
    }).classify('Why? How?');
    const unlearned = createTierRouter().classify('Why? How?');
    expect(features.score! - unlearned.score!).toBeCloseTo(
      0.1 * Math.log1p(features.tokens) + 0.5 * 2,
      5,
    );
    const reweighted = createTierRouter({
      weights: {
        ...base,
        dimensions: { tokenCount: 0 },
        boundaries: { MEDIUM: -1, COMPLEX: 1, REASONING: 2 },
      },
    }).classify('hello there');
    expect(reweighted).toMatchObject({ tier: 'MEDIUM' });
  });

  it('leave the default router as it was when absent', () => {
    const decision = createTierRouter().classify(PROMPT);
    expect(decision.signals.join(' ')).not.toContain('learned');
  });

  it('are validated like any configuration, every bad field named', () => {
    const bad = {
      ...base,
      dimensions: { codePresense: 1 },
      learned: { features: { logTokens: 'x' }, words: {} },
    };
    expect(() => tierWeights(bad, 'w.json')).toThrow(ConfigError);
    try {
      tierWeights(bad, 'w.json');
    } catch (error) {
      const paths = (error as ConfigError).issues.map((issue) => issue.path);
      expect(paths).toContain('/dimensions/codePresense');
      expect(paths).toContain('/learned/features/logTokens');
      expect((error as Error).message).toMatch(/^invalid w\.json: /);
    }
    const unordered = { ...base, boundaries: { MEDIUM: 1, COMPLEX: 0, REASONING: 2 } };
    expect(() => tierWeights(unordered)).toThrow(/\/boundaries must increase/);
    const phrase = {
      ...base,
      learned: {
        features: { logTokens: 0, logNumbers: 0, questionMarks: 0 },
        words: { 'a b': 1, x2: 1 },
      },
    };
    expect(() => tierWeights(phrase)).toThrow(/\/learned\/words\/a b must be one word/);
    expect(() => tierWeights({ ...base, version: 2 })).toThrow(ConfigError);
    expect(() => tierWeights('weights.json')).toThrow(ConfigError);
    // In router options the same checks, under /weights.
    expect(() => createTierRouter({ weights: unordered })).toThrow(/\/weights\/boundaries/);
    // A path is read by the CLI and the server configuration, not by the library.
    expect(() => createTierRouter({ weights: 'weights.json' as never })).toThrow(
      /\/weights must be object/,
    );
  });

  it('find the words the scan finds: folded, whole words of three letters or more', () => {
    expect(learnableWords('Ünïcode CAFÉ, a b to x2 don’t 3rd naïve naïve')).toEqual([
      'unicode',
      'cafe',
      'don',
      'naive',
    ]);
  });
});

describe('a two-way split', () => {
  const split = (threshold: number) => createTierRouter({ split: { threshold } });

  it('sends a score at or above the threshold to the strong tier, decided locally', () => {
    const score = createTierRouter().classify(PROMPT).score!;
    expect(split(score).classify(PROMPT)).toMatchObject({ tier: 'COMPLEX', source: 'local' });
    const weak = split(score + 1e-6).classify(PROMPT);
    expect(weak).toMatchObject({ tier: 'SIMPLE', source: 'local', needsLlm: false });
    expect(weak.signals).toContain(`split: score < ${score + 1e-6} → SIMPLE`);
    // No ambiguity: the LLM check is never asked, even with a classifier near the threshold.
    const custom = createTierRouter({
      split: { threshold: score, weak: 'MEDIUM', strong: 'REASONING' },
    });
    expect(custom.classify(PROMPT).tier).toBe('REASONING');
  });

  it('sends overrides to the strong tier, and routingScore ranks them first', () => {
    const reasoning = split(100).classify('Prove that sqrt(2) is irrational, step by step.');
    expect(reasoning).toMatchObject({ tier: 'COMPLEX', override: 'reasoning' });
    expect(routingScore(reasoning)).toBe(Number.POSITIVE_INFINITY);
    const huge = split(100).classify('word '.repeat(500_000));
    expect(huge).toMatchObject({ tier: 'COMPLEX', override: 'huge-context' });
    // Decided from its size alone, without a scan: still the split's strong tier.
    const strong = createTierRouter({
      split: { threshold: 100, weak: 'SIMPLE', strong: 'REASONING' },
    }).classify('word '.repeat(500_000));
    expect(strong).toMatchObject({ tier: 'REASONING', override: 'huge-context', needsLlm: false });
    expect(strong.signals[0]).toMatch(/→ REASONING$/);
    const forced = split(100).classify({ model: 'triage/simple', messages: [] });
    expect(routingScore(forced)).toBe(Number.NEGATIVE_INFINITY);
  });

  it('rejects a strong tier that is not above the weak one', () => {
    expect(() =>
      createTierRouter({ split: { threshold: 0, weak: 'COMPLEX', strong: 'MEDIUM' } }),
    ).toThrow(/\/split\/strong must be a higher tier than weak/);
  });
});
