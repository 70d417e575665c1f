import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { MAX_SEQUENCE_ATTEMPTS, SignalMatcher } from './signal-matcher.js';

const matcher = new SignalMatcher({
  near: { phrases: [], sequences: [{ parts: [['in the'], ['page', 'top']], maxGap: 2 }] },
  far: { phrases: [], sequences: [{ parts: [['what does'], ['mean']] }] },
  three: {
    phrases: [],
    sequences: [{ parts: [['alpha'], ['beta'], ['gamma']], maxGap: 1 }],
  },
  word: { phrases: ['define', 'страниц*', '页面'], sequences: [] },
});
const flags = new Uint8Array(4);
const found = (text: string) => {
  matcher.match(text, text.length, flags);
  return matcher.names.filter((_, i) => flags[i] === 1);
};

/** The same rule as a regular expression, to compare with on random texts. */
const nearRegex = /\bin\s+the\s+(?:\S+\s+){0,2}(?:page|top)\b/i;

describe('SignalMatcher', () => {
  it('checks order and gap of a sequence', () => {
    expect(found('in the page')).toEqual(['near']);
    expect(found('in the old red page')).toEqual(['near']);
    expect(found('in the big old red page')).toEqual([]);
    expect(found('page in the')).toEqual([]);
  });

  it('finds a later occurrence of the first part when the first one is too far', () => {
    // "in the" occurs twice: the first is far from "page", the second close.
    expect(found('in the morning we read a lot, then in the page')).toEqual(['near']);
  });

  it('finds a later occurrence of a part that also occurs before the first part', () => {
    // "mean" occurs before "what does" and again after it.
    expect(found('I mean, what does entropy mean?')).toEqual(['far']);
    expect(found('I mean, what does entropy do?')).toEqual([]);
    expect(found('the page, then in the page')).toEqual(['near']);
  });

  it('checks every gap of a longer sequence', () => {
    expect(found('alpha beta gamma')).toEqual(['three']);
    expect(found('alpha x beta x gamma')).toEqual(['three']);
    expect(found('alpha x beta x y gamma')).toEqual([]);
  });

  it('gives up after MAX_SEQUENCE_ATTEMPTS occurrences of the first part (linear work)', () => {
    const far = 'in the a b c d, '.repeat(MAX_SEQUENCE_ATTEMPTS);
    expect(found(`${far}in the page`)).toEqual([]);
    const fewer = 'in the a b c d, '.repeat(MAX_SEQUENCE_ATTEMPTS - 1);
    expect(found(`${fewer}in the page`)).toEqual(['near']);
  });

  it('matches phrases with non-ASCII letters only when the question has such letters', () => {
    expect(found('на странице 5')).toEqual(['word']);
    expect(found('页面上的词')).toEqual(['word']);
    expect(found('DEFINE it')).toEqual(['word']);
    expect(found('defíne it')).toEqual(['word']); // folded to ASCII
  });

  it('reports the phrases behind each signal', () => {
    expect(matcher.evidence('In the morning, in the top corner, define страницу', 60)).toEqual({
      near: ['in the … top'],
      word: ['define', 'страниц'],
    });
  });

  it('agrees with the equivalent regular expression on random texts of words', () => {
    // (Punctuation differs on purpose: a gap counts words, and steps over commas.)
    const token = fc.constantFrom('in', 'the', 'page', 'top', 'a', 'b', 'In', 'THE', 'pages');
    fc.assert(
      fc.property(fc.array(token, { maxLength: 14 }), (tokens) => {
        const text = tokens.join(' ');
        const occurrences = text.match(/\bin\s+the\b/gi)?.length ?? 0;
        fc.pre(occurrences <= MAX_SEQUENCE_ATTEMPTS);
        expect(found(text).includes('near'), text).toBe(nearRegex.test(text));
      }),
      { numRuns: 500 },
    );
  });
});
