import { describe, expect, it } from 'vitest';
import { KEYWORD_DIMENSIONS } from './keywords/index.js';
import { buildTierLexicon } from './lexicon.js';
import { tierOptions } from './options.js';

const build = (keywords: (string | { phrase: string; weight?: number })[]) => {
  const { lexicon, index } = buildTierLexicon(
    tierOptions({ dimensions: { creativeMarkers: { keywords } } }),
  );
  const category = index.creativeMarkers;
  return (text: string) => lexicon.scan(text).weight(category);
};

describe('the tier lexicon', () => {
  it('counts a span of text once per dimension, at its most specific entry', () => {
    const weight = build(['fiction', 'science fiction', { phrase: 'fictional', weight: 0.5 }]);
    expect(weight('science fiction')).toBe(1);
    expect(weight('fiction')).toBe(1);
    const heavier = build(['fiction', { phrase: 'science fiction', weight: 2 }]);
    expect(heavier('science fiction')).toBe(2);
    expect(heavier('fiction')).toBe(1);
  });

  it('merges the same keyword from several languages, and a word with its stem', () => {
    const weight = build(['imagine', 'imagine*', 'Imagine', 'poem']);
    expect(weight('imagine a poem')).toBe(2);
    expect(weight('imagined')).toBe(1);
  });

  it('keeps the stem when the exact word would miss inflections', () => {
    const weight = build(['architecture', 'architecture*']);
    expect(weight('architectures')).toBe(1);
    expect(weight('architecture')).toBe(1);
  });

  it('folds Arabic letter variants, so spelling with or without hamza matches', () => {
    const { lexicon, index } = buildTierLexicon(tierOptions());
    const reasoning = index.reasoningMarkers;
    expect(lexicon.scan('أثبت النظرية').distinct(reasoning)).toBeGreaterThan(0);
    expect(lexicon.scan('اثبت النظريه').distinct(reasoning)).toBeGreaterThan(0);
    expect(lexicon.scan('وبرهن ذلك').distinct(reasoning)).toBeGreaterThan(0);
  });

  it('matches Korean stems followed by particles', () => {
    const { lexicon, index } = buildTierLexicon(tierOptions());
    expect(lexicon.scan('코드를 작성해 주세요').distinct(index.codePresence)).toBe(1);
  });

  it('has one category per keyword dimension, all non-empty', () => {
    const { lexicon, index } = buildTierLexicon(tierOptions());
    for (const dimension of KEYWORD_DIMENSIONS) {
      expect(
        lexicon.entries.some((entry) => entry.categoryIndex === index[dimension]),
        dimension,
      ).toBe(true);
    }
  });

  it('loads only the chosen languages', () => {
    const { lexicon, index } = buildTierLexicon(tierOptions({ languages: ['en'] }));
    expect(lexicon.scan('证明').distinct(index.reasoningMarkers)).toBe(0);
    expect(lexicon.scan('prove').distinct(index.reasoningMarkers)).toBe(1);
  });
});
