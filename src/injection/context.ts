import { charTables, SPACE, WORD } from '../text/index.js';
import { injectionFoldTable } from './fold.js';

/**
 * Small look-arounds at a keyword hit, used only where a hit was found (never per character of
 * the text): where the match ends, whether it was written with obfuscated characters, whether it
 * sits inside quotes or at the start of a line, and whether its clause is a question.
 */

// Module-local copies: imported bindings can become getters under some loaders.
const SPACE_CLASS: number = SPACE;
const WORD_CLASS: number = WORD;

/** Where a match ends, and whether it needed the injection fold table to match. */
export interface MatchSpan {
  end: number;
  obfuscated: boolean;
}

/**
 * Walks a match of `plain` (a phrase as the shared fold table sees it, see `plainForm`) that the
 * lexicon found at `start`: white space, hyphens and skipped characters are passed over; an
 * open-ended entry (`word*`) extends to the end of its word. The match is obfuscated when a
 * character only matched through the injection fold (leetspeak, a homoglyph) or a zero-width
 * character hid inside it. Writes into `into` (reused) and never reads beyond `limit`.
 */
export function walkMatch(
  text: string,
  start: number,
  plain: string,
  openEnd: boolean,
  limit: number,
  into: MatchSpan,
): MatchSpan {
  const base = charTables().fold;
  const { classOf } = charTables();
  let j = start;
  let obfuscated = false;
  for (let u = 0; u < plain.length && j < limit; j++) {
    const code = text.charCodeAt(j);
    const f = base[code]!;
    if (f === 0) {
      if (u > 0 && isZeroWidth(code)) obfuscated = true;
      continue;
    }
    if (f === 0x2d || classOf[f] === SPACE_CLASS) continue;
    if (f !== plain.charCodeAt(u)) obfuscated = true;
    u++;
  }
  if (openEnd) {
    const fold = injectionFoldTable();
    while (j < limit) {
      const f = fold[text.charCodeAt(j)]!;
      if (f !== 0 && classOf[f] !== WORD_CLASS) break;
      j++;
    }
  }
  into.end = j;
  into.obfuscated = obfuscated;
  return into;
}

function isZeroWidth(code: number): boolean {
  return (
    code === 0x200b || code === 0x200c || code === 0x200d || code === 0x2060 || code === 0xfeff
  );
}

/** Characters looked back from a clause for the quotes that may open before it. */
const QUOTE_REACH = 1000;

function isQuote(c: number): boolean {
  return c === 0x22 || c === 0x201c || c === 0x201d || c === 0x201e || c === 0xab || c === 0xbb;
}

/**
 * True when `index` stands inside double quotes (straight, curly or guillemets): an odd number
 * of them precede it since the start of its paragraph (a blank line, or at most
 * {@link QUOTE_REACH} characters before the clause that starts at `from`), so that a quotation
 * cut into clauses at its full stops (`"Access Denied. The instructions so far are:"`) still
 * reads as one.
 */
export function insideQuotes(text: string, from: number, index: number): boolean {
  let quotes = 0;
  const stop = Math.max(0, from - QUOTE_REACH);
  for (let i = from - 1; i >= stop; i--) {
    const c = text.charCodeAt(i);
    if (c === 0x0a && i > 0 && text.charCodeAt(i - 1) === 0x0a) break;
    if (isQuote(c)) quotes++;
  }
  for (let i = from; i < index; i++) if (isQuote(text.charCodeAt(i))) quotes++;
  return quotes % 2 === 1;
}

/**
 * True when only indentation or markup (`#`, `*`, `>`, `-`, brackets) stands between the start of
 * the line, or the end of the previous sentence, and `index`: where a forged role header
 * (`System:`) would begin.
 */
export function atLineStart(text: string, index: number): boolean {
  for (let i = index - 1; i >= 0; i--) {
    if (index - i > 24) return false;
    const c = text.charCodeAt(i);
    if (c === 0x0a || c === 0x0d || c === 0x2e || c === 0x21 || c === 0x3f) return true;
    const markup =
      c === 0x20 ||
      c === 0x09 ||
      c === 0x23 ||
      c === 0x2a ||
      c === 0x3e ||
      c === 0x2d ||
      c === 0x5b ||
      c === 0x28 ||
      c === 0x7b ||
      c === 0x7c ||
      c === 0x5f;
    if (!markup) return false;
  }
  return true;
}

/** True when the clause `text[start, end)` ends with a question mark (ASCII or full-width). */
export function endsWithQuestion(text: string, start: number, end: number): boolean {
  for (let i = end - 1; i >= start; i--) {
    const c = text.charCodeAt(i);
    if (c === 0x3f || c === 0xff1f || c === 0x61f) return true;
    if (c !== 0x20 && c !== 0x0a && c !== 0x0d && c !== 0x09 && c !== 0x22 && c !== 0x27) {
      return c === 0x5417 || c === 0x55ce; // 吗 / 嗎 end a Chinese question without a mark
    }
  }
  return false;
}

/** Words that negate the verb after them ("don't forget", "never ignore", "without skipping"). */
const NEGATORS: ReadonlySet<string> = new Set([
  'not',
  "don't",
  'dont',
  'never',
  "won't",
  "wouldn't",
  "shouldn't",
  "can't",
  'cannot',
  "mustn't",
  "didn't",
  "doesn't",
  'without',
  'before',
]);

/**
 * True when the word before `at` (within the clause from `from`) negates it: `don't forget`,
 * `never ignore`, `not to skip`, `without skipping`. English only; other languages list their
 * negated forms as verbs of weight 0.
 */
export function negatedBefore(text: string, from: number, at: number): boolean {
  let word = previousWord(text, from, at);
  if (word === undefined) return false;
  if (word.text === 'to') {
    const before = previousWord(text, from, word.start);
    if (before === undefined) return false;
    word = before;
  }
  return NEGATORS.has(word.text);
}

/** Words before a noun that make it the writer's or a new one ("my password", "a new password"). */
const OWNERS: ReadonlySet<string> = new Set([
  'my',
  'our',
  'a',
  'an',
  'new',
  'strong',
  'secure',
  'good',
  'random',
  'weak',
  'default',
  'temporary',
  'wifi',
  'wi-fi',
  'email',
  'account',
]);

/** True when the word before `at` (within the clause from `from`) makes a noun the writer's own. */
export function ownedBefore(text: string, from: number, at: number): boolean {
  const word = previousWord(text, from, at);
  return word !== undefined && OWNERS.has(word.text);
}

function previousWord(
  text: string,
  from: number,
  at: number,
): { text: string; start: number } | undefined {
  let j = at - 1;
  while (j >= from && (text.charCodeAt(j) === 0x20 || text.charCodeAt(j) === 0x09)) j--;
  const end = j + 1;
  while (j >= from) {
    const code = text.charCodeAt(j);
    const c = code | 0x20;
    if (!((c >= 0x61 && c <= 0x7a) || code === 0x27 || code === 0x2019)) break;
    j--;
  }
  if (end - (j + 1) === 0 || end - (j + 1) > 10) return undefined;
  return {
    text: text
      .slice(j + 1, end)
      .toLowerCase()
      .replace('\u2019', "'"),
    start: j + 1,
  };
}

/** A place to send data to: an e-mail address, a URL, or an IPv4 address. */
const DESTINATION =
  /[\w.+-]+@[\w-]+(?:\.[\w-]+)+|\bhttps?:\/\/|\bwww\.[\w-]|\b\d{1,3}(?:\.\d{1,3}){3}\b|\b[\w-]+\.(?:io|com|net|org|biz|xyz|ru|cn|info|app|dev|site|online|top)\/\S/;

/** True when the clause `text[start, end)` names a place to send data to (see `DESTINATION`). */
export function destinationIn(text: string, start: number, end: number): boolean {
  return DESTINATION.test(text.slice(start, end));
}

/**
 * True when `text[start, end)` mentions one of `words` (lower case) as a whole word, in any
 * case: a person's name from a system prompt.
 */
export function mentionsAny(
  text: string,
  start: number,
  end: number,
  words: readonly string[],
): boolean {
  const clause = text.slice(start, end).toLowerCase();
  for (const word of words) {
    let at = clause.indexOf(word);
    while (at >= 0) {
      const before = at === 0 ? 0x20 : clause.charCodeAt(at - 1);
      const after = at + word.length >= clause.length ? 0x20 : clause.charCodeAt(at + word.length);
      if (!isLetter(before) && !isLetter(after)) return true;
      at = clause.indexOf(word, at + 1);
    }
  }
  return false;
}

function isLetter(code: number): boolean {
  return ((code | 0x20) >= 0x61 && (code | 0x20) <= 0x7a) || code >= 0xc0;
}

/**
 * True when the word at `text[start, end)` belongs to an e-mail address (`payroll@…`,
 * `…@data.example`), where it names no data.
 */
export function partOfAddress(text: string, start: number, end: number): boolean {
  const before = start > 0 ? text.charCodeAt(start - 1) : 0;
  const after = end < text.length ? text.charCodeAt(end) : 0;
  return before === 0x40 || after === 0x40;
}
