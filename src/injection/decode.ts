import { LEET_FOLDS } from './fold.js';
import { RUN_BASE64, RUN_HEX, RUN_LEET, RUN_SPLIT, RUN_STYLED, RUN_TAGS } from './structure.js';

/**
 * Decoders for the hidden payloads the structural pass finds. Each returns readable text, or
 * `undefined` when the run does not decode to text (a hash, a key, an image): only text can carry
 * instructions, and only text is scanned again.
 */

/** Most characters of one run that are decoded (a payload of instructions is short). */
const MAX_DECODED_INPUT = 4096;

/** Decodes the run `kind` at `text[start, end)`; `undefined` when it is not readable text. */
export function decodeRun(
  kind: number,
  text: string,
  start: number,
  end: number,
): string | undefined {
  const stop = Math.min(end, start + MAX_DECODED_INPUT);
  switch (kind) {
    case RUN_BASE64:
      return readable(Buffer.from(text.slice(start, stop), 'base64').toString('utf8'));
    case RUN_HEX:
      return readable(
        Buffer.from(text.slice(start, stop - ((stop - start) % 2)), 'hex').toString('utf8'),
      );
    case RUN_TAGS:
      return decodeTags(text, start, stop);
    case RUN_STYLED:
      return decodeStyled(text, start, stop);
    case RUN_SPLIT:
      return joinSplitLetters(text, start, stop);
    case RUN_LEET:
      return spellLeet(text, start, stop);
    default:
      return undefined;
  }
}

/**
 * Accepts decoded bytes (read as UTF-8) as text when nearly all characters are printable, at
 * least half are letters, and there are words (spaces, or a script written without them): a
 * payload of instructions, not binary data that happens to decode.
 */
export function readable(decoded: string): string | undefined {
  if (decoded.length < 6) return undefined;
  let bad = 0;
  let spaces = 0;
  let letters = 0;
  let wide = 0;
  for (let i = 0; i < decoded.length; i++) {
    const c = decoded.charCodeAt(i);
    if (c === 0x20) spaces++;
    else if (c === 0xfffd || c < 0x09 || (c > 0x0d && c < 0x20) || (c >= 0x7f && c < 0xa0)) bad++;
    else if ((c >= 0x41 && c <= 0x5a) || (c >= 0x61 && c <= 0x7a)) letters++;
    else if (c >= 0x2e80) {
      letters++;
      wide++;
    } else if (c >= 0xc0) letters++;
  }
  const words = spaces > 0 || wide >= 4;
  if (bad > decoded.length * 0.05 || !words || letters < decoded.length * 0.5) return undefined;
  return decoded;
}

/** Stems that mark a run-together payload (`ignoreallpreviousinstructions`) as an attack. */
const RUN_TOGETHER_STEMS = [
  'ignore',
  'disregard',
  'forget',
  'instruction',
  'previous',
  'systemprompt',
  'jailbreak',
  'password',
  'reveal',
  'bypass',
  'override',
  'donotfollow',
  'yourrules',
  'therules',
  'secretword',
  'accesscode',
];

/**
 * The risk of letters joined without word boundaries, which the keyword scan cannot split:
 * two attack stems together are an attack, one is suspicious.
 */
export function runTogetherRisk(joined: string): number {
  const flat = joined.toLowerCase().replace(/[^a-z]/g, '');
  let found = 0;
  for (const stem of RUN_TOGETHER_STEMS) if (flat.includes(stem)) found++;
  return found >= 2 ? 0.8 : found === 1 ? 0.3 : 0;
}

/** Invisible tag characters (U+E0020–U+E007E) mirror ASCII: the hidden text they spell. */
function decodeTags(text: string, start: number, end: number): string {
  let out = '';
  for (let i = start; i + 1 < end; i += 2)
    out += String.fromCharCode(text.charCodeAt(i + 1) - 0xdc00);
  return out;
}

// Mathematical alphanumeric symbols (U+1D400–U+1D7FF), bold, italic, script, fraktur, double-
// struck, sans-serif and monospace: 13 styles of 52 letters, then digits from U+1D7CE.
const STYLED_LETTERS_END = 0x1d6a4;
const STYLED_DIGITS = 0x1d7ce;

/** Styled letters (`𝐢𝐠𝐧𝐨𝐫𝐞`) read as plain letters; other characters kept as they are. */
function decodeStyled(text: string, start: number, end: number): string {
  let out = '';
  for (let i = start; i < end; i++) {
    const code = text.codePointAt(i)!;
    if (code > 0xffff) i++;
    if (code >= 0x1d400 && code < STYLED_LETTERS_END) {
      const k = (code - 0x1d400) % 52;
      out += String.fromCharCode(k < 26 ? 0x41 + k : 0x61 + k - 26);
    } else if (code >= STYLED_DIGITS && code <= 0x1d7ff) {
      out += String.fromCharCode(0x30 + ((code - STYLED_DIGITS) % 10));
    } else out += String.fromCodePoint(code);
  }
  return out;
}

/**
 * `i g n o r e   a l l` → `ignore all`: single letters joined; a gap of two or more separators
 * (or a separator other than the one between letters) becomes a space between words.
 */
function joinSplitLetters(text: string, start: number, end: number): string {
  let out = '';
  let gap = 0;
  for (let i = start; i < end; i++) {
    const c = text.charCodeAt(i);
    const isLetter =
      (c >= 0x61 && c <= 0x7a) || (c >= 0x41 && c <= 0x5a) || (c >= 0x30 && c <= 0x39) || c > 0x7f;
    if (isLetter) {
      if (gap >= 2 && out.length > 0) out += ' ';
      out += text[i];
      gap = 0;
    } else gap++;
  }
  return out;
}

/** `1gn0r3 4ll` → `ignore all`: leet digits and symbols read as the letters they stand for. */
function spellLeet(text: string, start: number, end: number): string {
  let out = '';
  for (let i = start; i < end; i++) {
    const char = text[i]!;
    out += LEET_FOLDS[char] ?? char;
  }
  return out;
}
