import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { hasDotDash } from './smuggling.js';

describe('hasDotDash', () => {
  // The gate before the Morse search: a `.-` or `-.` that starts in the range, exactly as two
  // searches for the pairs would say (a pair may end just past the range).
  it('says what searching for `.-` and `-.` in the range says', () => {
    const text = fc.string({ unit: fc.constantFrom('.', '-', ' ', 'a', '/'), maxLength: 40 });
    fc.assert(
      fc.property(text, fc.nat(), fc.nat(), (value, a, b) => {
        const start = value.length === 0 ? 0 : a % (value.length + 1);
        const end = start + (value.length === 0 ? 0 : b % (value.length - start + 1));
        const startsIn = (pair: string) => {
          const at = value.indexOf(pair, start);
          return at >= 0 && at < end;
        };
        expect(hasDotDash(value, start, end)).toBe(startsIn('.-') || startsIn('-.'));
      }),
      { numRuns: 2000 },
    );
  });
});
