import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Classifier } from './classifier.js';
import { allOf, anyOf, not, threshold } from './composites.js';
import { ClassificationResult } from './result.js';

const fixed = (name: string, result: ClassificationResult): Classifier<unknown> => ({
  name,
  classify: () => result,
});
const yes = (name: string, confidence: number) =>
  fixed(name, ClassificationResult.yes(confidence, { reason: `${name} fired` }));
const no = (name: string) => fixed(name, ClassificationResult.no());

describe('allOf', () => {
  it('fires when every classifier fires, with their mean confidence and joined reasons', () => {
    const result = allOf(yes('a', 0.6), yes('b', 1)).classify({});
    expect(result).toMatchObject({ relevant: true, confidence: 0.8, reason: 'a fired; b fired' });
  });

  it('does not fire when one does not, and stops evaluating there', () => {
    let evaluated = false;
    const spy: Classifier<unknown> = {
      name: 'spy',
      classify: () => {
        evaluated = true;
        return ClassificationResult.yes();
      },
    };
    expect(allOf(no('a'), spy).classify({}).relevant).toBe(false);
    expect(evaluated).toBe(false);
  });

  it('of nothing never fires and does not divide by zero (a departure from the original design)', () => {
    const result = allOf().classify({});
    expect(result.relevant).toBe(false);
    expect(Number.isFinite(result.confidence)).toBe(true);
  });

  it('is named after its parts', () => {
    expect(allOf(no('a'), no('b')).name).toBe('all_of(a, b)');
  });
});

describe('anyOf', () => {
  it('returns the first classifier that fires', () => {
    expect(anyOf(no('a'), yes('b', 0.7), yes('c', 0.9)).classify({}).reason).toBe('b fired');
  });

  it('does not fire when none does, or when empty', () => {
    expect(anyOf(no('a'), no('b')).classify({}).relevant).toBe(false);
    expect(anyOf().classify({}).relevant).toBe(false);
  });
});

describe('not', () => {
  it('turns a fire into no', () => {
    expect(not(yes('a', 0.9)).classify({}).relevant).toBe(false);
  });

  it('turns a no into yes with 1 - confidence and a reason of its own (a departure from the original design)', () => {
    const result = not(no('quiet')).classify({});
    expect(result).toMatchObject({ relevant: true, confidence: 1 });
    expect(result.reason).toBe('quiet did not fire');
    expect(result.reason).not.toContain('undefined');
  });

  it('keeps the inner reason of a no when there is one', () => {
    const inner = fixed('x', ClassificationResult.no({ confidence: 0.3, reason: 'too few calls' }));
    expect(not(inner).classify({})).toMatchObject({
      confidence: 0.7,
      reason: 'x did not fire: too few calls',
    });
  });

  it('twice gives back whether the inner classifier fired', () => {
    fc.assert(
      fc.property(fc.boolean(), fc.double({ min: 0, max: 1 }), (fires, confidence) => {
        const inner = fires ? yes('x', confidence) : no('x');
        expect(not(not(inner)).classify({}).relevant).toBe(fires);
      }),
    );
  });
});

describe('threshold', () => {
  it('passes results at or above the minimum and blocks the rest', () => {
    expect(threshold(yes('a', 0.8), 0.8).classify({}).relevant).toBe(true);
    expect(threshold(yes('a', 0.79), 0.8).classify({}).relevant).toBe(false);
    expect(threshold(no('a'), 0).classify({}).relevant).toBe(false);
  });

  it('rejects a minimum outside [0, 1]', () => {
    expect(() => threshold(no('a'), 1.5)).toThrow(/minConfidence must be in \[0, 1\], got 1.5/);
  });
});
