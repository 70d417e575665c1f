/** Text utilities shared by the local classifiers. */
export {
  type CharTables,
  charTables,
  extendFoldTable,
  type FoldTable,
  foldCode,
  foldString,
  OTHER,
  SKIP,
  SPACE,
  UNBOUNDED,
  WORD,
} from './chars.js';
export { expandAlternatives } from './expand.js';
export {
  compileLexicon,
  Lexicon,
  type LexiconEntry,
  type LexiconEntryInput,
  type LexiconOptions,
  type LexiconSpec,
} from './lexicon.js';
export { LexiconScan } from './lexicon-scan.js';
export { estimateTextTokens, textStats } from './measure.js';
export { sanitizeText } from './sanitize.js';
export { emptyStats, estimateTokens, type TextStats } from './stats.js';
