import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ConfigError } from '../core/errors.js';
import { DIMENSIONS } from './keywords/index.js';
import { buildTierLexicon } from './lexicon.js';
import { tierOptions } from './options.js';
import { TierScorer } from './scorer.js';
import { TIERS, tierRank } from './tiers.js';

const scorer = new TierScorer(tierOptions());
const score = (text: string) => scorer.score(text);

describe('TierScorer', () => {
  it('scores the document’s examples into the expected tiers', () => {
    expect(score('What is the capital of France?').tier).toBe('SIMPLE');
    expect(score('hello').tier).toBe('SIMPLE');
    expect(score('3+1').tier).toBe('SIMPLE');
    expect(score('Prove that sqrt(2) is irrational, step by step.').tier).toBe('REASONING');
    expect(
      score(
        'Design a distributed microservice architecture on Kubernetes, implement the API gateway, ' +
          'deploy it and fix the failing tests. First set up the cluster, then deploy.',
      ).tier,
    ).toBe('COMPLEX');
  });

  it('writes human-readable signals', () => {
    const result = score('What is the capital of France?');
    expect(result.signals).toContain('short (8 tokens)');
    expect(result.signals).toContain('simple (what is, capital of)');
    expect(score('Write a Python function and a class').signals).toContain(
      'code (python, function, class)',
    );
  });

  it('matches keywords on word boundaries (departing from the original design: improve is not prove)', () => {
    const improve = score('Please improve and approve this history of basic undefined values');
    expect(improve.signals.join(' ')).not.toMatch(/reasoning \(|creative \(|simple \(/);
    expect(score('prove it').signals.join(' ')).toContain('reasoning (prove)');
  });

  it('computes confidence as the sigmoid of the distance to the nearest boundary', () => {
    const result = score('What is the capital of France?');
    // score -0.19, nearest boundary 0: 1 / (1 + e^(-12 × 0.19))
    expect(result.score).toBeCloseTo(-0.19, 6);
    expect(result.confidence).toBeCloseTo(1 / (1 + Math.exp(-12 * 0.19)), 6);
    expect(result.ambiguous).toBe(false);
  });

  it('marks a prompt with no recognised signal as ambiguous, whatever its score', () => {
    const result = score('Thơ về biển');
    expect(result.recognized).toBe(false);
    expect(result.confidence).toBe(0.5);
    expect(result.ambiguous).toBe(true);
    expect(result.signals).toContain('no recognised signal');
  });

  it('gives SIMPLE only with a simple indicator: a short request for an action is MEDIUM', () => {
    const haiku = score('Write a haiku about the first snow of winter.');
    expect(haiku).toMatchObject({ tier: 'MEDIUM', ambiguous: false });
    expect(haiku.score).toBeLessThan(0); // SIMPLE's range: shortness alone scores below 0
    expect(haiku.signals).toContain('no simple evidence → MEDIUM');
    // Confidence is measured to COMPLEX's boundary, the nearest one it could still cross.
    expect(haiku.confidence).toBeCloseTo(1 / (1 + Math.exp(-12 * (0.15 - haiku.score!))), 6);
    // A simple indicator keeps the document's rule; so does turning the rule off.
    expect(score('What is the capital of France?').tier).toBe('SIMPLE');
    const off = new TierScorer(
      tierOptions({ dimensions: { simpleIndicators: { requiredForSimple: false } } }),
    ).score('Write a haiku about the first snow of winter.');
    expect(off).toMatchObject({ tier: 'SIMPLE', ambiguous: true });
    // Nothing recognised: still ambiguous, the LLM check (or the fallback) decides.
    expect(score('Zorblax quindle frampton')).toMatchObject({ tier: 'SIMPLE', ambiguous: true });
  });

  it('applies the reasoning override at two reasoning markers, with confidence ≥ 0.85', () => {
    const result = score('Prove the theorem.');
    expect(result).toMatchObject({ tier: 'REASONING', override: 'reasoning' });
    expect(result.confidence).toBeGreaterThanOrEqual(0.85);
    expect(score('Prove it.').override).toBeUndefined();
  });

  it('applies the complexity override: 4+ technical, imperative and agentic signals and multi-step', () => {
    const result = score(
      'Build the API, deploy it to Kubernetes, then fix the database migration. First install Docker.',
    );
    expect(result).toMatchObject({ tier: 'COMPLEX', override: 'complexity' });
    expect(result.confidence).toBeGreaterThanOrEqual(0.85);
  });

  it('applies the huge-context override above 100k tokens, without scanning when provable', () => {
    const huge = 'word '.repeat(90_000); // 450k chars: at least 112,500 tokens
    const result = score(huge);
    expect(result).toMatchObject({ tier: 'COMPLEX', override: 'huge-context', confidence: 0.95 });
    expect(result.score).toBeUndefined();
    const scanned = new TierScorer(
      tierOptions({ overrides: { hugeContext: { skipScan: false } } }),
    ).score(huge);
    expect(scanned).toMatchObject({ tier: 'COMPLEX', override: 'huge-context' });
    expect(scanned.score).toBeTypeOf('number');
  });

  it('counts the unscored context toward the huge-context override', () => {
    const context = ['x'.repeat(500_000)];
    expect(scorer.score('hello', { context })).toMatchObject({
      tier: 'COMPLEX',
      override: 'huge-context',
    });
    expect(scorer.score('hello', { context: ['x'.repeat(1000)] }).tier).toBe('SIMPLE');
  });

  it('raises a request with images to the vision tier floor', () => {
    const result = scorer.score('What is in this picture?', { images: 1 });
    expect(result.tier).toBe('MEDIUM');
    expect(result.signals).toContain('vision (1 image) → MEDIUM');
    const off = new TierScorer(tierOptions({ vision: { minTier: 'SIMPLE' } }));
    expect(off.score('hello', { images: 2 }).tier).toBe('SIMPLE');
  });

  it('reads number density as a sign of a maths problem', () => {
    const result = score(
      'A train leaves at 9:40 at 80 km/h; another at 10:15 at 95 km/h. When do they meet?',
    );
    expect(result.signals.some((signal) => signal.startsWith('numbers ('))).toBe(true);
  });

  it('classifies prompts in every supported language', () => {
    const cases: [string, string][] = [
      ['你好', 'SIMPLE'],
      ['请证明这个定理，一步一步推导', 'REASONING'],
      ['この定理を段階的に証明してください', 'REASONING'],
      ['피타고라스 정리를 단계별로 증명해 주세요', 'REASONING'],
      ['Докажите теорему шаг за шагом', 'REASONING'],
      ['Demuestra el teorema paso a paso', 'REASONING'],
      ['Demonstre o teorema passo a passo', 'REASONING'],
      ['Beweise den Satz Schritt für Schritt', 'REASONING'],
      ['Démontre le théorème étape par étape', 'REASONING'],
      ['برهن النظرية خطوة بخطوة', 'REASONING'],
      ['مرحبا', 'SIMPLE'],
      ['Hola', 'SIMPLE'],
    ];
    for (const [text, tier] of cases) expect(score(text).tier, text).toBe(tier);
  });

  it('exposes the per-dimension scores of the last call', () => {
    score('Write a Python function');
    const dimensions = scorer.lastDimensionScores();
    expect(Object.keys(dimensions)).toEqual([...DIMENSIONS]);
    expect(dimensions.codePresence).toBe(1);
    expect(dimensions.tokenCount).toBe(-1);
  });

  it('takes every weight, boundary and keyword list from the options', () => {
    const custom = new TierScorer(
      tierOptions({
        boundaries: { MEDIUM: -0.5, COMPLEX: 0.15, REASONING: 0.35 },
        dimensions: { codePresence: { keywords: ['widget'], weight: 0.5 } },
      }),
    );
    expect(custom.score('hello').tier).toBe('MEDIUM');
    expect(custom.score('a widget please').signals).toContain('code (widget)');
    expect(custom.score('a function please').signals.join(' ')).not.toContain('code');
    const extra = new TierScorer(
      tierOptions({ dimensions: { reasoningMarkers: { extraKeywords: ['hypothesize'] } } }),
    );
    expect(extra.score('hypothesize and prove').override).toBe('reasoning');
  });

  it('rejects bad options with every bad field named', () => {
    expect(() => tierOptions({ boundaries: { MEDIUM: 0.5, COMPLEX: 0.1 } })).toThrow(
      /\/boundaries must increase/,
    );
    expect(() => tierOptions({ fallbackChain: { SIMPLE: ['MEDIUM'] } })).toThrow(
      /\/fallbackChain\/SIMPLE must start with SIMPLE/,
    );
    expect(() => tierOptions({ dimensions: { codePresence: { weight: 2 } } })).toThrow(ConfigError);
    expect(() => tierOptions({ languages: ['xx'] } as never)).toThrow(/\/languages\/0/);
    expect(
      () =>
        new TierScorer(tierOptions({ dimensions: { codePresence: { extraKeywords: ['a*b'] } } })),
    ).toThrow(/extraKeywords\/0 may have \* only at its start or end/);
  });

  it('keeps its results in range and deterministic on any text', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary', maxLength: 300 }), (text) => {
        const a = score(text);
        expect(a.confidence).toBeGreaterThanOrEqual(0.5);
        expect(a.confidence).toBeLessThanOrEqual(1);
        expect(score(text)).toEqual(a);
      }),
    );
  });

  it('never places a prompt in a lower tier when a reasoning marker is added', () => {
    const rank = ['SIMPLE', 'MEDIUM', 'COMPLEX', 'REASONING'];
    fc.assert(
      fc.property(
        fc.constantFrom('What is a cat?', 'hello', 'Write a poem', 'Explain DNS'),
        (text) => {
          const before = rank.indexOf(score(text).tier);
          const after = rank.indexOf(score(`${text} Prove the theorem step by step.`).tier);
          expect(after).toBeGreaterThanOrEqual(before);
        },
      ),
    );
  });

  // The scorer keeps the signals it writes (label lists in a table where one list can evict
  // another, count lines by count) and reuses them: a scorer that has written thousands must
  // write what a new one writes, for any prompt.
  it('writes the same signals warm as cold, whatever it wrote before', () => {
    const options = tierOptions();
    const lexicon = buildTierLexicon(options);
    const warm = new TierScorer(options, lexicon);
    const labels = lexicon.lexicon.entries.map((entry) => entry.label);
    const prompt = fc
      .tuple(
        fc.array(fc.constantFrom(...labels), { minLength: 1, maxLength: 6 }),
        fc.array(fc.constantFrom('?', '3', '12', '\n1. ', 'and'), { maxLength: 6 }),
      )
      .map(([words, extras]) => [...words, ...extras].join(' '));
    fc.assert(
      fc.property(fc.array(prompt, { minLength: 1, maxLength: 20 }), (prompts) => {
        const cold = new TierScorer(options, lexicon);
        for (const text of prompts) expect(warm.score(text)).toEqual(cold.score(text));
      }),
      { numRuns: 150 },
    );
  });

  it('gives each score the rank of its tier', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 200 }), (text) => {
        const result = score(text);
        expect(result.rank).toBe(tierRank(result.tier));
        expect(TIERS[result.rank]).toBe(result.tier);
      }),
    );
  });
});

describe('tierRank', () => {
  it('ranks the four tiers and nothing else', () => {
    expect(TIERS.map(tierRank)).toEqual([0, 1, 2, 3]);
    for (const other of ['', 'S', 'SIMPLEX', 'simple', 'Medium', 'COMPLEXITY', 'R', 'MEDIUMS']) {
      expect(tierRank(other as never)).toBe(-1);
    }
  });
});
