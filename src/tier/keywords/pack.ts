import type { LexiconEntryInput } from '../../text/index.js';

/** The fifteen dimensions of the original design, in its order. */
export const DIMENSIONS = [
  'tokenCount',
  'codePresence',
  'reasoningMarkers',
  'technicalTerms',
  'creativeMarkers',
  'simpleIndicators',
  'multiStepPatterns',
  'questionComplexity',
  'imperativeVerbs',
  'constraintCount',
  'outputFormat',
  'referenceComplexity',
  'negationComplexity',
  'domainSpecificity',
  'agenticTask',
] as const;

/** One of the fifteen dimensions. */
export type Dimension = (typeof DIMENSIONS)[number];

/**
 * The dimensions fed by keywords: all but token count and question complexity, which come from
 * the text statistics of the same scan.
 */
export const KEYWORD_DIMENSIONS = DIMENSIONS.filter(
  (dimension): dimension is Exclude<Dimension, 'tokenCount' | 'questionComplexity'> =>
    dimension !== 'tokenCount' && dimension !== 'questionComplexity',
);

/** A dimension scored from keywords. */
export type KeywordDimension = (typeof KEYWORD_DIMENSIONS)[number];

/**
 * One language's keywords, by dimension. An entry is a phrase (weight 1) or a phrase with a
 * weight: 0.5 for words that are only weak evidence on their own, 2 for phrases that are enough by
 * themselves (`step 1`, `prove that`). Phrases follow the lexicon's syntax: whole words,
 * `stem*` for inflected forms, `*stem` for compounds (sparingly: it is checked at every
 * occurrence of its first letter).
 */
export type KeywordPack = { readonly [D in KeywordDimension]?: readonly LexiconEntryInput[] };

/** A weak keyword: evidence, but not enough on its own (weight 0.5). */
export function weak(...phrases: string[]): LexiconEntryInput[] {
  return phrases.map((phrase) => ({ phrase, weight: 0.5 }));
}

/**
 * A keyword that counts twice (weight 2): a multi-step marker that is enough on its own
 * (`step 1`), or a reasoning phrase that asks for a proof or a chain of thought by itself
 * (`prove that`), which the reasoning override then counts as two markers.
 */
export function strong(...phrases: string[]): LexiconEntryInput[] {
  return phrases.map((phrase) => ({ phrase, weight: 2 }));
}
