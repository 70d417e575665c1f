import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  indicesByGroup,
  pointForQuality,
  pointForShare,
  randomShareForQuality,
  routingCurve,
  shareForQuality,
} from './routing.js';

// Four prompts: the strong model helps on the first two only.
const outcomes = [
  { weak: 0, strong: 1 },
  { weak: 0, strong: 1 },
  { weak: 1, strong: 1 },
  { weak: 0, strong: 0 },
];

describe('routingCurve', () => {
  it('gives an oracle ranking the whole gap at once, a reversed one at the end', () => {
    const oracle = routingCurve([4, 3, 2, 1], outcomes);
    expect(oracle).toMatchObject({ rows: 4, weakQuality: 0.25, strongQuality: 0.75 });
    expect(oracle.points.map((p) => p.pgr)).toEqual([0, 0.5, 1, 1, 1]);
    // Area: 0.25 × (0 + 0.5) / 2 + 0.25 × (0.5 + 1) / 2 + 0.5 × 1.
    expect(oracle.apgr).toBeCloseTo(0.0625 + 0.1875 + 0.5, 12);
    expect(routingCurve([1, 2, 3, 4], outcomes).apgr).toBeCloseTo(1 - oracle.apgr, 12);
  });

  it('scores equal scores as random order: a constant score is exactly 0.5', () => {
    expect(routingCurve([7, 7, 7, 7], outcomes).apgr).toBeCloseTo(0.5, 12);
    const ties = routingCurve([2, 2, 1, 1], outcomes);
    expect(ties.points.map((p) => p.strongShare)).toEqual([0, 0.5, 1]);
  });

  it('sends +Infinity (an override) first and has no APGR when the strong model is no better', () => {
    const curve = routingCurve([Number.POSITIVE_INFINITY, 0, 1, 2], outcomes);
    expect(curve.points[1]).toMatchObject({ strongShare: 0.25, pgr: 0.5 });
    expect(
      routingCurve(
        [1, 2],
        [
          { weak: 1, strong: 1 },
          { weak: 1, strong: 0 },
        ],
      ).apgr,
    ).toBeNaN();
    expect(() => routingCurve([Number.NaN], [{ weak: 0, strong: 1 }])).toThrow(RangeError);
    expect(() => routingCurve([], [])).toThrow(RangeError);
    expect(() => routingCurve([1], [])).toThrow(RangeError);
  });

  it('holds for any outcomes: APGR(score) + APGR(−score) = 1, a constant gives 0.5', () => {
    const row = fc.record({
      score: fc.integer({ min: -5, max: 5 }),
      weak: fc.constantFrom(0, 1),
      strong: fc.constantFrom(0, 1),
    });
    fc.assert(
      fc.property(fc.array(row, { minLength: 1, maxLength: 40 }), (rows) => {
        const scored = rows.map((r) => ({ weak: r.weak, strong: r.strong }));
        const up = routingCurve(
          rows.map((r) => r.score),
          scored,
        );
        if (!(up.strongQuality > up.weakQuality)) return;
        const down = routingCurve(
          rows.map((r) => -r.score),
          scored,
        );
        expect(up.apgr + down.apgr).toBeCloseTo(1, 9);
        expect(
          routingCurve(
            rows.map(() => 0),
            scored,
          ).apgr,
        ).toBeCloseTo(0.5, 9);
        expect(up.points.at(-1)!.quality).toBeCloseTo(up.strongQuality, 9);
      }),
    );
  });
});

describe('reading the curve', () => {
  const curve = routingCurve([4, 3, 2, 1], outcomes);

  it('finds the share of strong calls for a quality, interpolating inside a step', () => {
    expect(shareForQuality(curve, 0.25)).toBe(0);
    expect(shareForQuality(curve, 0.5)).toBeCloseTo(0.25, 12);
    expect(shareForQuality(curve, 0.625)).toBeCloseTo(0.375, 12);
    expect(shareForQuality(curve, 0.9)).toBeUndefined();
    expect(randomShareForQuality(curve, 0.5)).toBeCloseTo(0.5, 12);
    expect(randomShareForQuality(curve, 0.9)).toBeUndefined();
  });

  it('gives the threshold of the nearest share, and of the first point reaching a quality', () => {
    expect(pointForShare(curve, 0.5)).toMatchObject({ threshold: 3, strongShare: 0.5 });
    expect(pointForShare(curve, 0.3)).toMatchObject({ threshold: 4, strongShare: 0.25 });
    expect(pointForShare(curve, 0)).toMatchObject({ strongShare: 0 });
    expect(pointForQuality(curve, 0.75)).toMatchObject({ threshold: 3 });
    expect(pointForQuality(curve, 0.8)).toBeUndefined();
  });

  it('groups row indices by name, sorted', () => {
    expect(indicesByGroup(['b', 'a', undefined, 'b'])).toEqual([
      ['(none)', [2]],
      ['a', [1]],
      ['b', [0, 3]],
    ]);
  });
});
