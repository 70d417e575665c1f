import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { backoffMs, retryAfterMs } from './retry.js';

describe('backoffMs', () => {
  it('doubles from the base up to the cap, with half of it jittered', () => {
    const policy = { maxRetries: 5, baseMs: 100, maxMs: 1000 };
    expect(backoffMs(0, { ...policy, random: () => 0 })).toBe(50);
    expect(backoffMs(0, { ...policy, random: () => 0.999999 })).toBeCloseTo(100, 3);
    expect(backoffMs(2, { ...policy, random: () => 0 })).toBe(200);
    expect(backoffMs(9, { ...policy, random: () => 0 })).toBe(500);
  });

  it('always waits between half the capped delay and the capped delay', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 30 }),
        fc.integer({ min: 1, max: 10_000 }),
        fc.integer({ min: 1, max: 100_000 }),
        fc.double({ min: 0, max: 1, maxExcluded: true, noNaN: true }),
        (retry, baseMs, maxMs, r) => {
          const ceiling = Math.min(maxMs, baseMs * 2 ** retry);
          const wait = backoffMs(retry, { maxRetries: 3, baseMs, maxMs, random: () => r });
          expect(wait).toBeGreaterThanOrEqual(ceiling / 2);
          expect(wait).toBeLessThanOrEqual(ceiling);
        },
      ),
    );
  });
});

describe('retryAfterMs', () => {
  const now = Date.parse('2025-01-01T00:00:00Z');
  it.each([
    [{ 'retry-after': '2' }, 2000],
    [{ 'retry-after': '0.5' }, 500],
    [{ 'retry-after-ms': '150', 'retry-after': '9' }, 150],
    [{ 'retry-after': 'Wed, 01 Jan 2025 00:00:03 GMT' }, 3000],
    [{ 'retry-after': 'Tue, 31 Dec 2024 23:59:00 GMT' }, 0],
    [{ 'retry-after': ['4', '5'] }, 4000],
  ])('%j → %d ms', (headers, expected) => {
    expect(retryAfterMs(headers, now)).toBe(expected);
  });

  it.each([[{}], [{ 'retry-after': 'soon' }], [{ 'retry-after': '' }], [{ 'retry-after': '-1' }]])(
    '%j → undefined',
    (headers) => {
      expect(retryAfterMs(headers, now)).toBeUndefined();
    },
  );
});
