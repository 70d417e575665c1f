import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { charTables, foldString, SKIP, UNBOUNDED, WORD } from './chars.js';
import { expandAlternatives } from './expand.js';
import { estimateTextTokens, textStats } from './measure.js';
import { sanitizeText } from './sanitize.js';

describe('character tables', () => {
  it('classify scripts with and without word spacing', () => {
    const { classOf } = charTables();
    for (const char of 'aZ9_éжαبㄱ가') expect(classOf[char.charCodeAt(0)], char).toBe(WORD);
    for (const char of '中日カなไ') expect(classOf[char.charCodeAt(0)], char).toBe(UNBOUNDED);
    expect(classOf[0x200b]).toBe(SKIP);
  });

  it('fold case, Latin diacritics and full-width forms; keep other scripts distinct', () => {
    expect(foldString('ÉCOLE Ｈｅｌｌｏ ÀÇÑ Łódź')).toBe('ecole hello acn lodz');
    expect(foldString('ПРИВЕТ ёж й')).toBe('привет еж й');
    expect(foldString('a\u200bb')).toBe('ab');
    expect(foldString('“quoted” – dash')).toBe('"quoted" - dash');
  });
});

describe('expandAlternatives', () => {
  it('expands groups, optional groups and nesting', () => {
    expect(expandAlternatives('ignore (all |)(previous|prior) instructions')).toEqual([
      'ignore all previous instructions',
      'ignore all prior instructions',
      'ignore previous instructions',
      'ignore prior instructions',
    ]);
    expect(expandAlternatives('a (b (c|d)|e)')).toEqual(['a b c', 'a b d', 'a e']);
  });

  it('rejects unbalanced patterns and explosive ones', () => {
    expect(() => expandAlternatives('a (b')).toThrow(/unclosed/);
    expect(() => expandAlternatives('a b)')).toThrow(/unbalanced/);
    expect(() => expandAlternatives('(a|b|c|d|e)'.repeat(8), 1000)).toThrow(/more than 1000/);
  });
});

describe('sanitizeText', () => {
  it('strips a BOM and control characters but keeps tab, LF and CR', () => {
    expect(sanitizeText('\ufeffa\u0000b\u0007c\td\ne\rf\u009f')).toBe('abc\td\ne\rf');
  });

  it('replaces unpaired surrogates and normalises to NFC', () => {
    expect(sanitizeText('a\ud800b')).toBe('a\ufffdb');
    expect(sanitizeText('e\u0301')).toBe('\u00e9');
  });

  it('always returns well-formed text without control characters', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary' }), (text) => {
        const clean = sanitizeText(text);
        expect(clean.isWellFormed()).toBe(true);
        expect(/[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f]/.test(clean)).toBe(false);
      }),
    );
  });
});

describe('token estimate', () => {
  it('is about four characters a token for English and one per Han character', () => {
    expect(estimateTextTokens('')).toBe(0);
    expect(estimateTextTokens('a'.repeat(400))).toBe(100);
    expect(estimateTextTokens('中'.repeat(100))).toBe(100);
    expect(estimateTextTokens('Привет'.repeat(10))).toBe(24);
  });

  it('grows with the text', () => {
    fc.assert(
      fc.property(fc.string(), fc.string(), (a, b) => {
        expect(estimateTextTokens(a + b)).toBeGreaterThanOrEqual(estimateTextTokens(a));
      }),
    );
  });

  it('textStats returns a copy the caller may keep', () => {
    const first = textStats('one two');
    textStats('three four five');
    expect(first.words).toBe(2);
  });
});
