import { compileLexicon, type Lexicon } from './lexicon.js';
import { LexiconScan } from './lexicon-scan.js';
import { estimateTokens, type TextStats } from './stats.js';

let empty: { lexicon: Lexicon; scan: LexiconScan } | undefined;

/** The statistics of a text, from one pass (for callers that have no lexicon of their own). */
export function textStats(text: string): TextStats {
  if (!empty) {
    const lexicon = compileLexicon({});
    empty = { lexicon, scan: new LexiconScan(lexicon) };
  }
  return { ...empty.lexicon.scan(text, empty.scan).stats };
}

/** Estimated tokens of a text (see {@link estimateTokens}). */
export function estimateTextTokens(text: string): number {
  return estimateTokens(textStats(text));
}
