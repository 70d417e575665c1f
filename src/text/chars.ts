import { prebuildable, prebuilt } from '../core/prebuilt.js';

/**
 * Per-code-unit tables shared by every scanner: a character class and a folded form. Both are
 * built once, lazily, for the whole Basic Multilingual Plane (128 KB + 64 KB), so a scanner pays
 * one array read per character instead of a regular expression or a `toLowerCase` call. Building
 * them takes tens of milliseconds, so the build stores them ahead (see `core/prebuilt.ts`).
 */

/** Punctuation, symbols, and anything not covered below (also unpaired surrogates). */
export const OTHER = 0;
/** A letter, digit or underscore of a script that separates words with spaces. */
export const WORD = 1;
/**
 * A letter of a script written without spaces between words (Han, kana, Thai, Lao, Khmer,
 * Myanmar, Tibetan): keywords in these scripts match anywhere, without word boundaries.
 */
export const UNBOUNDED = 2;
/** White space, including no-break and ideographic spaces. */
export const SPACE = 3;
/**
 * A character that scanners look through as if it were not there: combining marks, zero-width
 * characters, soft hyphens and variation selectors. Obfuscation such as `ig\u200Bnore` folds away.
 */
export const SKIP = 4;

/** A folding table: the folded code unit of each code unit (0 means "skip this character"). */
export type FoldTable = Uint16Array;

/** The class table and the default fold table. */
export interface CharTables {
  readonly classOf: Uint8Array;
  readonly fold: FoldTable;
}

let tables: CharTables | undefined;

/** The shared tables, built on first use (or stored by the build), once per process. */
export function charTables(): CharTables {
  tables ??= prebuilt<CharTables>('char-tables', '') ?? buildTables();
  return tables;
}

prebuildable('char-tables', () => ({ input: '', value: buildTables() }));

// Blocks filled by range instead of character by character: they are large and uniform.
const UNBOUNDED_BLOCKS: readonly [number, number][] = [
  [0x3040, 0x30ff], // Hiragana, Katakana
  [0x31f0, 0x31ff], // Katakana phonetic extensions
  [0x3400, 0x4dbf], // CJK extension A
  [0x4e00, 0x9fff], // CJK unified ideographs
  [0xf900, 0xfaff], // CJK compatibility ideographs
  [0xff66, 0xff9f], // Halfwidth katakana
  [0x0e00, 0x0eff], // Thai, Lao
  [0x0f00, 0x0fff], // Tibetan
  [0x1000, 0x109f], // Myanmar
  [0x1780, 0x17ff], // Khmer
];
const WORD_BLOCKS: readonly [number, number][] = [
  [0xac00, 0xd7a3], // Hangul syllables: Korean separates words with spaces
  [0xa000, 0xa4cf], // Yi
];
const SKIP_CODES: readonly number[] = [
  0x00ad, 0x034f, 0x061c, 0x180e, 0x200b, 0x200c, 0x200d, 0x200e, 0x200f, 0x202a, 0x202b, 0x202c,
  0x202d, 0x202e, 0x2060, 0x2061, 0x2062, 0x2063, 0x2064, 0x2066, 0x2067, 0x2068, 0x2069, 0xfeff,
];
// White space that ends a line folds to a line feed (all other white space folds to a space).
const LINE_BREAKS: readonly number[] = [0x0a, 0x2028, 0x2029];
// Folds that neither lower-casing nor canonical decomposition gives.
const EXTRA_FOLDS: Readonly<Record<string, string>> = {
  ł: 'l',
  ø: 'o',
  đ: 'd',
  ħ: 'h',
  ı: 'i',
  ς: 'σ',
  ё: 'е',
  '\u2018': "'",
  '\u2019': "'",
  '\u201a': "'",
  '\u201b': "'",
  '\u02bc': "'",
  '\u2032': "'",
  '\u201c': '"',
  '\u201d': '"',
  '\u201e': '"',
  '\u00ab': '"',
  '\u00bb': '"',
  '\u2010': '-',
  '\u2011': '-',
  '\u2012': '-',
  '\u2013': '-',
  '\u2014': '-',
  '\u2212': '-',
  '\u061f': '?',
  '\u060c': ',',
  '\u3002': '.',
  '\u3001': ',',
};

function buildTables(): CharTables {
  const classOf = new Uint8Array(0x10000);
  const fold = new Uint16Array(0x10000);
  const letterOrDigit = /[\p{L}\p{N}\p{Mc}_]/u;
  const mark = /[\p{Mn}\p{Me}]/u;
  const space = /\s/u;
  const inBlocks = (c: number, blocks: readonly [number, number][]) =>
    blocks.some(([from, to]) => c >= from && c <= to);

  for (let c = 0; c < 0x10000; c++) {
    fold[c] = c;
    if (c >= 0xd800 && c <= 0xdfff) continue; // surrogate halves: OTHER, folded to themselves
    if (inBlocks(c, UNBOUNDED_BLOCKS) && c >= 0x3040) {
      classOf[c] = UNBOUNDED;
      continue; // CJK and kana have no case and no decomposition worth folding
    }
    if (inBlocks(c, WORD_BLOCKS)) {
      classOf[c] = WORD;
      continue;
    }
    const char = String.fromCharCode(c);
    if (mark.test(char)) classOf[c] = SKIP;
    else if (letterOrDigit.test(char))
      classOf[c] = inBlocks(c, UNBOUNDED_BLOCKS) ? UNBOUNDED : WORD;
    else if (space.test(char)) classOf[c] = SPACE;
    fold[c] = foldOne(char, classOf[c] === WORD);
  }
  for (const c of SKIP_CODES) classOf[c] = SKIP;
  for (let c = 0xfe00; c <= 0xfe0f; c++) classOf[c] = SKIP; // variation selectors
  for (let c = 0; c < 0x10000; c++) {
    if (classOf[c] === SKIP) fold[c] = 0;
    else if (classOf[c] === SPACE) fold[c] = LINE_BREAKS.includes(c) ? 0x0a : 0x20;
  }
  return { classOf, fold };
}

function foldOne(char: string, isWord: boolean): number {
  // Full-width ASCII (！ to ～) folds to ASCII first, then like ASCII.
  const code = char.charCodeAt(0);
  const narrow = code >= 0xff01 && code <= 0xff5e ? String.fromCharCode(code - 0xfee0) : char;
  let lower = narrow.toLowerCase();
  const extra = EXTRA_FOLDS[lower[0] ?? ''];
  if (extra !== undefined) return extra.charCodeAt(0);
  if (isWord) {
    // Latin and Greek letters lose their diacritics (é → e, ά → α); other scripts keep theirs,
    // where a "diacritic" is often a different letter (Cyrillic й is not и).
    const base = lower.normalize('NFD');
    const first = base.charCodeAt(0);
    if (base.length > 1 && (first < 0x250 || (first >= 0x370 && first <= 0x3ff))) lower = base;
  }
  return lower.charCodeAt(0);
}

/** The default fold of one code unit (0 for characters scanners skip). */
export function foldCode(code: number): number {
  return charTables().fold[code & 0xffff]!;
}

/**
 * Folds a whole string the way scanners see it: lower case, Latin diacritics removed, full-width
 * forms narrowed, skipped characters dropped, every space a plain space. For tests and for
 * building keys; scanners fold as they go without building a string.
 */
export function foldString(text: string, table: FoldTable = charTables().fold): string {
  let out = '';
  for (let i = 0; i < text.length; i++) {
    const f = table[text.charCodeAt(i)]!;
    if (f !== 0) out += String.fromCharCode(f);
  }
  return out;
}

/**
 * A copy of the default fold table with extra mappings, for scanners that must see through more
 * (e.g. the injection detector's homoglyphs and leetspeak). Keys and values are single characters;
 * a value of `''` makes the key a skipped character.
 */
export function extendFoldTable(extra: Readonly<Record<string, string>>): FoldTable {
  const table = Uint16Array.from(charTables().fold);
  for (const [from, to] of Object.entries(extra)) {
    if (from.length !== 1)
      throw new RangeError(`fold key must be one UTF-16 unit: ${JSON.stringify(from)}`);
    if (to.length > 1)
      throw new RangeError(`fold value must be at most one unit: ${JSON.stringify(to)}`);
    table[from.charCodeAt(0)] = to === '' ? 0 : table[to.charCodeAt(0)]!;
  }
  return table;
}
