import { extendFoldTable, type FoldTable } from '../text/index.js';

/**
 * The fold table of the injection lexicon: the shared folding (case, Latin diacritics, full-width
 * forms, zero-width characters looked through) plus the homoglyphs attackers use to slip past
 * keyword filters, so that `рrеviоus` (Latin mixed with Cyrillic) reads as `previous`. Every
 * pattern is compiled with the same table, so patterns in Cyrillic or Greek still match their
 * own script consistently.
 *
 * Leetspeak is not folded here: folding digits would turn every number of a document into
 * letters (`4.1` into `a.i`) for the scanner to look up. Words that mix letters with leet
 * digits are found by the structural pass and scanned again, spelled out (`decode.ts`).
 */

/** Leetspeak digits and symbols, by their most common reading in attacks (`1gn0r3`, `@ll`). */
export const LEET_FOLDS: Readonly<Record<string, string>> = {
  '0': 'o',
  '1': 'i',
  '3': 'e',
  '4': 'a',
  '5': 's',
  '7': 't',
  '@': 'a',
  $: 's',
};

/**
 * Characters drawn like Latin letters (Cyrillic, Greek, IPA small capitals, enclosed letters).
 * Upper and lower case are both listed: the shared table lower-cases before this table applies
 * only to the key itself.
 */
export const HOMOGLYPH_FOLDS: Readonly<Record<string, string>> = {
  // Cyrillic
  а: 'a',
  А: 'a',
  В: 'b',
  в: 'b',
  е: 'e',
  Е: 'e',
  ё: 'e',
  Ё: 'e',
  К: 'k',
  к: 'k',
  М: 'm',
  м: 'm',
  Н: 'h',
  н: 'h',
  о: 'o',
  О: 'o',
  р: 'p',
  Р: 'p',
  с: 'c',
  С: 'c',
  Т: 't',
  т: 't',
  у: 'y',
  У: 'y',
  х: 'x',
  Х: 'x',
  і: 'i',
  І: 'i',
  ј: 'j',
  Ј: 'j',
  ѕ: 's',
  Ѕ: 's',
  ԁ: 'd',
  ӏ: 'l',
  Ӏ: 'l',
  ԛ: 'q',
  ԝ: 'w',
  // Greek
  α: 'a',
  Α: 'a',
  Β: 'b',
  ε: 'e',
  Ε: 'e',
  Η: 'h',
  ι: 'i',
  Ι: 'i',
  κ: 'k',
  Κ: 'k',
  Μ: 'm',
  ν: 'v',
  Ν: 'n',
  ο: 'o',
  Ο: 'o',
  ρ: 'p',
  Ρ: 'p',
  τ: 't',
  Τ: 't',
  υ: 'u',
  Υ: 'y',
  χ: 'x',
  Χ: 'x',
  Ζ: 'z',
  // Latin look-alikes the shared table keeps apart
  ɡ: 'g',
  ℓ: 'l',
  ı: 'i',
  // IPA small capitals, used as a "font"
  ᴀ: 'a',
  ʙ: 'b',
  ᴄ: 'c',
  ᴅ: 'd',
  ᴇ: 'e',
  ғ: 'f',
  ɢ: 'g',
  ʜ: 'h',
  ɪ: 'i',
  ᴊ: 'j',
  ᴋ: 'k',
  ʟ: 'l',
  ᴍ: 'm',
  ɴ: 'n',
  ᴏ: 'o',
  ᴘ: 'p',
  ʀ: 'r',
  ꜱ: 's',
  ᴛ: 't',
  ᴜ: 'u',
  ᴠ: 'v',
  ᴡ: 'w',
  ʏ: 'y',
  ᴢ: 'z',
};

/** Circled letters (Ⓐ-Ⓩ, ⓐ-ⓩ) fold to their letter. */
function circledLetters(): Record<string, string> {
  const out: Record<string, string> = {};
  for (let k = 0; k < 26; k++) {
    const letter = String.fromCharCode(0x61 + k);
    out[String.fromCharCode(0x24b6 + k)] = letter;
    out[String.fromCharCode(0x24d0 + k)] = letter;
  }
  return out;
}

let table: FoldTable | undefined;

/** The injection fold table, built once. */
export function injectionFoldTable(): FoldTable {
  table ??= extendFoldTable({ ...HOMOGLYPH_FOLDS, ...circledLetters() });
  return table;
}
