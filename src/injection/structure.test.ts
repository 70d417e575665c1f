import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { RUN_BASE64, RUN_LEET, RUN_SPLIT, scanStructure, TextStructure } from './structure.js';

/** The clause ends of a text, and its runs as [kind, text] pairs. */
function structureOf(text: string) {
  const s = scanStructure(text, new TextStructure());
  const ends = Array.from(s.sentenceEnds.subarray(0, s.sentenceCount));
  const runs: [number, string][] = [];
  for (let r = 0; r < s.runCount; r++) {
    runs.push([s.runs[r * 3]!, text.slice(s.runs[r * 3 + 1]!, s.runs[r * 3 + 2]!)]);
  }
  return { ends, runs };
}

// Plain words (two or more ASCII letters, one space after each) are skipped by a loop of their
// own; these tests hold the pass to what it records around and after them.
const plainWord = fc.stringMatching(/^[A-Za-z]{2,12}$/);

describe('structural pass over plain words', () => {
  it('cuts run-on text at the first space after 480 characters of a clause', () => {
    fc.assert(
      fc.property(fc.array(plainWord, { minLength: 150, maxLength: 600 }), (words) => {
        const text = words.join(' ');
        const { ends } = structureOf(text);
        let start = 0;
        for (const end of ends.slice(0, -1)) {
          expect(text[end]).toBe(' ');
          expect(end - start).toBeGreaterThanOrEqual(480);
          expect(text.slice(start + 480, end)).not.toContain(' ');
          start = end;
        }
        expect(ends[ends.length - 1]).toBe(text.length);
        // The last clause has no space where a cut was due.
        expect(text.slice(start + 480)).not.toContain(' ');
      }),
    );
  });

  it('finds split letters, leetspeak and base64 that follow plain words', () => {
    const prose = 'please read the quarterly report and tell me what you think about ';
    expect(structureOf(`${prose}i g n o r e all`).runs).toContainEqual([RUN_SPLIT, 'i g n o r e']);
    expect(structureOf(`${prose}pr3v10us rules`).runs.map(([kind]) => kind)).toContain(RUN_LEET);
    expect(structureOf(`${prose}aGVsbG8gd29ybGQgaWdub3Jl now`).runs).toContainEqual([
      RUN_BASE64,
      'aGVsbG8gd29ybGQgaWdub3Jl',
    ]);
  });

  it('ends a sentence after a full stop between plain words', () => {
    const text = 'the first sentence ends here. the second one follows it';
    expect(structureOf(text).ends).toEqual([text.indexOf('. ') + 1, text.length]);
  });
});
