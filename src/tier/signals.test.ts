import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { CountedLines } from './signals.js';

describe('CountedLines', () => {
  const write = (count: number) =>
    `override: ${Number.isInteger(count) ? String(count) : count.toFixed(1)} markers`;

  it('writes the line of a count once and gives it again', () => {
    const lines = new CountedLines(write);
    const first = lines.line(2.5);
    expect(first).toBe('override: 2.5 markers');
    expect(lines.line(2.5)).toBe(first);
    expect(lines.line(3)).toBe('override: 3 markers');
  });

  // A count near a tenth but not on it (2.96 rounds to 30 tenths, as 3 does) is written for
  // itself: its line is not the one kept for 3.
  it('gives every count its own line, whatever counts came before', () => {
    const count = fc.oneof(
      fc.integer({ min: 0, max: 200 }).map((tenths) => tenths / 10),
      fc.double({ min: -5, max: 150, noNaN: true }),
      fc.integer({ min: 0, max: 2000 }),
    );
    const lines = new CountedLines(write);
    fc.assert(
      fc.property(fc.array(count, { minLength: 1, maxLength: 30 }), (counts) => {
        for (const c of counts) expect(lines.line(c)).toBe(write(c));
      }),
    );
    expect(lines.line(2.96)).toBe('override: 3.0 markers');
    expect(lines.line(3)).toBe('override: 3 markers');
  });
});
