import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { CycleTracker } from './cycles.js';

/** How many keys at the tail are L-periodic, by looking at every key. */
function naiveSpan(keys: readonly number[], length: number): number {
  if (keys.length < length) return 0;
  let span = length;
  for (let i = keys.length - 1 - length; i >= 0 && keys[i] === keys[i + length]; i--) span++;
  return span;
}

function naivePrimitive(keys: readonly number[], length: number): boolean {
  const cycle = keys.slice(keys.length - length);
  for (let d = 1; d < length; d++) {
    if (length % d === 0 && cycle.every((key, i) => i < d || key === cycle[i - d])) return false;
  }
  return true;
}

describe('CycleTracker', () => {
  it('finds A,B repeated at the tail, and forgets it when the cycle breaks', () => {
    const tracker = new CycleTracker(4);
    for (const key of [9, 1, 2, 1, 2, 1, 2]) tracker.push(key);
    expect(tracker.repetitions(2)).toBe(3);
    expect(tracker.isPrimitive(2)).toBe(true);
    expect(tracker.repetitions(4)).toBe(1);
    tracker.push(3);
    expect(tracker.repetitions(2)).toBe(1); // the last two keys, once: no repetition
  });

  it('knows A,A is not a cycle of two', () => {
    const tracker = new CycleTracker(4);
    for (let i = 0; i < 6; i++) tracker.push(7);
    expect(tracker.repetitions(2)).toBe(3);
    expect(tracker.isPrimitive(1)).toBe(true);
    expect(tracker.isPrimitive(2)).toBe(false);
    expect(tracker.isPrimitive(3)).toBe(false);
  });

  it('agrees with a full rescan after every key (property)', () => {
    fc.assert(
      fc.property(
        fc.array(fc.integer({ min: 0, max: 3 }), { maxLength: 80 }),
        fc.integer({ min: 1, max: 8 }),
        (keys, maxLength) => {
          const tracker = new CycleTracker(maxLength);
          for (let n = 0; n < keys.length; n++) {
            tracker.push(keys[n]!);
            const seen = keys.slice(0, n + 1);
            for (let length = 1; length <= maxLength; length++) {
              expect(tracker.span(length)).toBe(naiveSpan(seen, length));
              if (tracker.repetitions(length) >= 2) {
                expect(tracker.isPrimitive(length)).toBe(naivePrimitive(seen, length));
              }
            }
          }
        },
      ),
      { numRuns: 300 },
    );
  });
});
