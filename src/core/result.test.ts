import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  CERTAINTY_SCORES,
  CERTAINTY_TAGS,
  certaintyFromConfidence,
  certaintyScore,
  clampConfidence,
  isCertainty,
} from './certainty.js';
import { ClassificationResult } from './result.js';

describe('ClassificationResult', () => {
  it('yes is relevant with the given confidence and always has a reason', () => {
    const result = ClassificationResult.yes(0.8);
    expect(result).toMatchObject({ relevant: true, confidence: 0.8 });
    expect(result.reason).toBeTruthy();
    expect(ClassificationResult.yes(0.9, { reason: 'doom loop' }).reason).toBe('doom loop');
  });

  it('maybe is relevant with a lower default confidence (a departure from the original design)', () => {
    const result = ClassificationResult.maybe();
    expect(result.relevant).toBe(true);
    expect(result.confidence).toBeLessThan(ClassificationResult.yes().confidence);
  });

  it('no is not relevant, confidence 0, and allocates nothing without arguments', () => {
    expect(ClassificationResult.no()).toEqual({ relevant: false, confidence: 0 });
    expect(ClassificationResult.no()).toBe(ClassificationResult.no());
    expect(Object.isFrozen(ClassificationResult.no())).toBe(true);
    expect(ClassificationResult.no({ reason: 'quiet' }).reason).toBe('quiet');
  });

  it('clamps confidence into [0, 1], NaN to 0', () => {
    expect(ClassificationResult.yes(7).confidence).toBe(1);
    expect(ClassificationResult.yes(-1).confidence).toBe(0);
    expect(ClassificationResult.yes(Number.NaN).confidence).toBe(0);
  });

  it('keeps metadata', () => {
    expect(ClassificationResult.yes(1, { metadata: { cycle: ['a', 'b'] } }).metadata).toEqual({
      cycle: ['a', 'b'],
    });
  });

  it('converts from a certainty tag against a threshold', () => {
    expect(ClassificationResult.fromCertainty('strong', 0.65)).toMatchObject({
      relevant: true,
      confidence: 0.75,
    });
    expect(ClassificationResult.fromCertainty('reasonable', 0.65)).toMatchObject({
      relevant: false,
      confidence: 0.6,
    });
    expect(ClassificationResult.certaintyOf(ClassificationResult.yes(0.8))).toBe('strong');
  });
});

describe('certainty tags', () => {
  it('have the corrected scores, weakest first', () => {
    expect(CERTAINTY_SCORES).toEqual({
      no_signal: 0,
      very_weak: 0.15,
      weak: 0.3,
      tentative: 0.45,
      reasonable: 0.6,
      strong: 0.75,
      very_strong: 0.88,
      near_certain: 0.97,
    });
    const scores = CERTAINTY_TAGS.map(certaintyScore);
    expect([...scores].sort((a, b) => a - b)).toEqual(scores);
  });

  it('round-trips every tag through its score', () => {
    for (const tag of CERTAINTY_TAGS)
      expect(certaintyFromConfidence(certaintyScore(tag))).toBe(tag);
  });

  it('never overstates a confidence when converting to a tag', () => {
    fc.assert(
      fc.property(fc.double({ noNaN: false }), (confidence) => {
        const tag = certaintyFromConfidence(confidence);
        expect(certaintyScore(tag)).toBeLessThanOrEqual(clampConfidence(confidence));
      }),
    );
  });

  it('recognises tags and rejects anything else', () => {
    expect(isCertainty('strong')).toBe(true);
    expect(isCertainty('Strong')).toBe(false);
    expect(isCertainty(0.75)).toBe(false);
  });
});
