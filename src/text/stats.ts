/**
 * Statistics gathered by a lexicon scan in the same pass that finds keywords, so classifiers get
 * them without walking the text again.
 */
export interface TextStats {
  /** UTF-16 code units scanned. */
  chars: number;
  /** Runs of word characters in scripts that separate words with spaces. */
  words: number;
  /** Words that start with an ASCII digit (`42`, `3.14` counts twice, `2x`). */
  numbers: number;
  /** Characters of scripts written without spaces (Han, kana, Thai, …). */
  unboundedChars: number;
  /** Word characters outside ASCII (Cyrillic, Arabic, accented Latin, Hangul, …). */
  nonAsciiWordChars: number;
  /** Lines (0 for an empty text). */
  lines: number;
  /** Question marks, including full-width and Arabic ones. */
  questionMarks: number;
  /** Lines that start (after indentation) with `1.`, `2)`, `3、` and the like. */
  numberedLines: number;
  /** Lines that start (after indentation) with `-`, `*` or `•` and a space. */
  bulletLines: number;
}

/** Zeroed statistics. */
export function emptyStats(): TextStats {
  return {
    chars: 0,
    words: 0,
    numbers: 0,
    unboundedChars: 0,
    nonAsciiWordChars: 0,
    lines: 0,
    questionMarks: 0,
    numberedLines: 0,
    bulletLines: 0,
  };
}

/**
 * Estimates the tokens a typical LLM tokenizer (cl100k / o200k class) makes of a text from its
 * statistics: about 4 characters a token for ASCII text, 2.5 for other alphabetic scripts, and
 * one token per Han, kana or Thai character. Good to ±25% on ordinary prose and code; meant for
 * thresholds such as "over 100k tokens", not for billing.
 */
export function estimateTokens(stats: TextStats): number {
  if (stats.chars === 0) return 0;
  const ascii = stats.chars - stats.unboundedChars - stats.nonAsciiWordChars;
  return Math.ceil(Math.max(0, ascii) / 4 + stats.nonAsciiWordChars / 2.5 + stats.unboundedChars);
}
