import { charTables, WORD as WORD_CLASS } from '../text/chars.js';

/**
 * The sentence splitter behind the sentence cap (the original design), shared by the after-the-fact
 * limiter ({@link limitSentences}) and the streaming transform (`SentenceStream`), so both agree
 * on what a sentence is.
 *
 * The source split on every `.`, `!` or `?` (`[^.!?]+(?:[.!?]+|$)`), cutting "e.g.", "Dr.", "3.14"
 * and URLs into sentences (a departure from the original design). Here a sentence ends at a run of terminal marks
 * (`. ! ? …`, and `。！？` without a following space), taken with any closing quotes and
 * brackets after it, and only where white space (or the end of the text) follows. So:
 * - decimals (`3.14`), URLs (`example.com/a.b?c=d`), `e.g.,` and `...and` never end a sentence;
 * - an abbreviation that does not end sentences (`Dr.`, `e.g.`, `vs.`, `Fig.`, …), an initialism
 *   with inner dots (`U.S.`, `Ph.D.`), a single capital initial (`J. Smith`, but not a unit after
 *   a number: `3.5 K.` ends one) or a list number at
 *   the start of a line (`1. `) does not end one either;
 * - `etc.`, `Inc.`, `a.m.`, `p.m.` and the like end a sentence only before a capital letter, and
 *   `No.`, `Fig.`, `Eq.`, `p.` and month names only when no number follows;
 * - an ellipsis, or `?`/`!` inside quotes (`"Why?" she asked`), ends one unless a lower-case
 *   letter follows;
 * - a blank line ends a sentence, and so does a line break before a list item (`- `, `* `, `1. `),
 *   so a bulleted answer counts one sentence per item.
 */

/** Options of a {@link SentenceSplitter}. */
export interface SentenceSplitterOptions {
  /**
   * Abbreviations (without the final dot, any case) after which a `.` never ends a sentence.
   * Replaces the default list ({@link DEFAULT_ABBREVIATIONS}).
   */
  readonly abbreviations?: readonly string[];
  /** Abbreviations that end a sentence only before a capital letter ({@link DEFAULT_FINAL_ABBREVIATIONS}). */
  readonly finalAbbreviations?: readonly string[];
  /** Abbreviations that do not end a sentence before a number ({@link DEFAULT_NUMBER_ABBREVIATIONS}). */
  readonly numberAbbreviations?: readonly string[];
}

/** Abbreviations after which a `.` does not end a sentence. */
export const DEFAULT_ABBREVIATIONS: readonly string[] = (
  'mr mrs ms dr prof sr st mt rev gen col lt sgt capt gov sen rep vs cf e.g i.e viz approx ca al ' +
  'dept'
).split(' ');

/** Abbreviations that end a sentence when a capital letter follows, and only then. */
export const DEFAULT_FINAL_ABBREVIATIONS: readonly string[] =
  'etc inc ltd co corp jr a.m p.m'.split(' ');

/** Abbreviations that do not end a sentence before a number (`No. 5`, `Fig. 3`, `Eq. (2)`). */
export const DEFAULT_NUMBER_ABBREVIATIONS: readonly string[] = (
  'no nos p pp fig figs eq eqs sec ch chap vol para ref refs art jan feb mar apr jun jul aug sep ' +
  'sept oct nov dec'
).split(' ');

/** The result of looking for the next boundary. */
export type BoundaryScan =
  /** A sentence ends at `end` (exclusive; white space after it belongs to no sentence). */
  | { readonly kind: 'end'; readonly end: number }
  /** A possible end at `at` needs text that has not arrived yet; scan again from `at`. */
  | { readonly kind: 'pending'; readonly at: number }
  /** No sentence ends before the end of the text. */
  | { readonly kind: 'none' };

const NONE: BoundaryScan = { kind: 'none' };

// What each UTF-16 unit is to the splitter, one table read per character in the scan loop.
const TERMINAL = 1;
/** A CJK full stop, question or exclamation mark: ends a sentence without a space after it. */
const CJK = 2;
const CLOSER = 4;
const WHITE = 8;
const MARKS = new Uint8Array(0x10000);
const mark = (chars: string, flag: number) => {
  for (const char of chars) MARKS[char.charCodeAt(0)]! |= flag;
};
mark('.!?…‼⁇⁈⁉؟。！？．', TERMINAL);
mark('。！？', CJK);
mark('"\'”’»›)]}）】」』〕〉》＂', CLOSER);
// Exactly JavaScript's \s.
mark('\t\n\v\f\r \u00a0\u1680\u2028\u2029\u202f\u205f\u3000\ufeff', WHITE);
for (let c = 0x2000; c <= 0x200a; c++) MARKS[c]! |= WHITE;
const DOT = 0x2e;
const WORD: number = WORD_CLASS;
const ELLIPSIS = 0x2026;
const NEWLINE = 0x0a;

const LOWER = /\p{Ll}/u;
const UPPER = /\p{Lu}/u;
const DIGIT = /\p{Nd}/u;
// U.S, e.g, Ph.D: letters (one or two) separated by dots.
const INITIALISM = /^(\p{L}{1,2}\.)+\p{L}{1,2}$/u;

/** Finds sentence boundaries; immutable and safe to share. */
export class SentenceSplitter {
  readonly #never: ReadonlySet<string>;
  readonly #final: ReadonlySet<string>;
  readonly #beforeNumber: ReadonlySet<string>;

  constructor(options: SentenceSplitterOptions = {}) {
    const normalise = (list: readonly string[]) =>
      new Set(list.map((word) => word.toLowerCase().replace(/\.$/, '')));
    this.#never = normalise(options.abbreviations ?? DEFAULT_ABBREVIATIONS);
    this.#final = normalise(options.finalAbbreviations ?? DEFAULT_FINAL_ABBREVIATIONS);
    this.#beforeNumber = normalise(options.numberAbbreviations ?? DEFAULT_NUMBER_ABBREVIATIONS);
  }

  /**
   * Looks for the first sentence end at or after `from`. With `final`, the text is complete (its
   * end decides what is still open); without, a possible end whose decision needs more text is
   * reported as `pending`.
   */
  nextBoundary(text: string, from: number, final: boolean): BoundaryScan {
    const length = text.length;
    for (let i = from; i < length; i++) {
      const code = text.charCodeAt(i);
      if (code === NEWLINE) {
        const decided = this.#atLineBreak(text, i, final);
        if (decided !== undefined) return decided;
        continue;
      }
      if ((MARKS[code]! & TERMINAL) === 0) continue;
      let end = i;
      let cjk = false;
      let ellipsis = false;
      let strong = false;
      let dots = 0;
      for (; end < length; end++) {
        const next = text.charCodeAt(end);
        const flags = MARKS[next]!;
        if ((flags & TERMINAL) === 0) break;
        if (flags & CJK) cjk = true;
        else if (next === ELLIPSIS) ellipsis = true;
        else if (next === DOT) dots++;
        else strong = true;
      }
      if (dots >= 2) ellipsis = true;
      let quoted = false;
      while (end < length && MARKS[text.charCodeAt(end)]! & CLOSER) {
        quoted = true;
        end++;
      }
      if (end === length) return final ? { kind: 'end', end } : { kind: 'pending', at: i };
      if (cjk) return { kind: 'end', end };
      if ((MARKS[text.charCodeAt(end)]! & WHITE) === 0) {
        i = end - 1;
        continue;
      }
      const decided = this.#decide(text, i, end, { ellipsis, strong, quoted, dots }, final);
      if (decided !== undefined) return decided;
      i = end - 1;
    }
    return NONE;
  }

  /** Every sentence of a complete text (from index `from`), trimmed, in order. */
  split(text: string, from = 0): string[] {
    const out: string[] = [];
    let start = from;
    for (;;) {
      const found = this.nextBoundary(text, start, true);
      const end = found.kind === 'end' ? found.end : text.length;
      const sentence = text.slice(start, end).trim();
      if (sentence !== '') out.push(sentence);
      if (found.kind !== 'end') return out;
      start = end;
    }
  }

  /**
   * The text cut after its first `max` sentences (the original design's `limit_sentences`): trimmed,
   * unchanged when it has at most `max` sentences or `max` is `null` or below 1. Unlike the
   * source, the kept text is a slice of the original, so its line breaks and formatting survive.
   */
  limit(text: string, max: number | null): string {
    if (max === null || !(max >= 1)) return text.trim();
    let start = 0;
    let first = -1;
    for (let count = 0; ; ) {
      const found = this.nextBoundary(text, start, true);
      const end = found.kind === 'end' ? found.end : text.length;
      if (text.slice(start, end).trim() !== '') {
        if (first < 0) first = start;
        count++;
        if (count === max)
          return found.kind === 'end' ? text.slice(first, end).trim() : text.trim();
      }
      if (found.kind !== 'end') return text.trim();
      start = end;
    }
  }

  /** A blank line, or a line break before a list item, ends a sentence. */
  #atLineBreak(text: string, i: number, final: boolean): BoundaryScan | undefined {
    let j = i + 1;
    while (j < text.length && (text[j] === ' ' || text[j] === '\t' || text[j] === '\r')) j++;
    if (j === text.length) return final ? undefined : { kind: 'pending', at: i };
    // The end is past the line break, so a scan from it always moves on.
    if (text[j] === '\n') return { kind: 'end', end: i + 1 };
    const item = listItemAt(text, j, final);
    if (item === undefined) return { kind: 'pending', at: i };
    return item ? { kind: 'end', end: i + 1 } : undefined;
  }

  #decide(
    text: string,
    at: number,
    end: number,
    run: { ellipsis: boolean; strong: boolean; quoted: boolean; dots: number },
    final: boolean,
  ): BoundaryScan | undefined {
    // What the next visible character must be for this to be a boundary.
    let needs: 'capital' | 'not_lower' | 'not_number' | undefined;
    if (run.ellipsis || (run.strong && run.quoted)) {
      needs = 'not_lower';
    } else if (!run.strong && run.dots === 1) {
      const word = wordBefore(text, at);
      const lower = word.toLowerCase();
      if (this.#never.has(lower)) return undefined;
      if (this.#final.has(lower)) needs = 'capital';
      else if (this.#beforeNumber.has(lower)) needs = 'not_number';
      else if (INITIALISM.test(word)) return undefined;
      else if (word.length === 1 && UPPER.test(word) && !afterNumber(text, at - 1)) {
        return undefined; // an initial (J. Smith), not a unit after a number (3.5 K.)
      } else if (/^\d{1,3}$/.test(word) && atLineStart(text, at - word.length)) return undefined;
    }
    if (needs === undefined) return { kind: 'end', end };
    const next = nextVisible(text, end);
    if (next < 0) return final ? { kind: 'end', end } : { kind: 'pending', at };
    const char = text[next]!;
    const boundary =
      needs === 'capital'
        ? UPPER.test(char)
        : needs === 'not_lower'
          ? !LOWER.test(char)
          : !(DIGIT.test(char) || char === '(');
    return boundary ? { kind: 'end', end } : undefined;
  }
}

/** The default splitter. */
export const sentenceSplitter = new SentenceSplitter();

/** Every sentence of `text` (see {@link SentenceSplitter}). */
export function splitSentences(text: string, splitter = sentenceSplitter): string[] {
  return splitter.split(text);
}

/** `text` cut after `max` sentences (see {@link SentenceSplitter.limit}). */
export function limitSentences(
  text: string,
  max: number | null,
  splitter = sentenceSplitter,
): string {
  return splitter.limit(text, max);
}

/** The word (letters, digits and inner dots) just before index `at`. */
function wordBefore(text: string, at: number): string {
  const { classOf } = charTables();
  let start = at;
  while (start > 0) {
    const code = text.charCodeAt(start - 1);
    if (code === DOT || classOf[code] === WORD) start--;
    else break;
  }
  return text.slice(start, at);
}

/** Whether a number (then spaces) comes just before index `at`. */
function afterNumber(text: string, at: number): boolean {
  let j = at - 1;
  while (j >= 0 && text[j] === ' ') j--;
  return j >= 0 && j < at - 1 && DIGIT.test(text[j]!);
}

function atLineStart(text: string, at: number): boolean {
  for (let j = at - 1; j >= 0; j--) {
    const char = text[j]!;
    if (char === '\n') return true;
    if (char !== ' ' && char !== '\t') return false;
  }
  return true;
}

/** The index of the first non-space character from `from`, or -1. */
function nextVisible(text: string, from: number): number {
  for (let j = from; j < text.length; j++) if ((MARKS[text.charCodeAt(j)]! & WHITE) === 0) return j;
  return -1;
}

/**
 * Whether a list item (`-`, `*`, `•`, `12.` or `3)`, then white space) starts at `at`. At the end of the text:
 * `undefined` (cannot tell yet) unless `final`, when the end counts as white space.
 */
function listItemAt(text: string, at: number, final: boolean): boolean | undefined {
  const char = text[at]!;
  let next = at + 1;
  if (char !== '-' && char !== '*' && char !== '•') {
    let j = at;
    while (j < text.length && j - at < 3 && text[j]! >= '0' && text[j]! <= '9') j++;
    if (j === at) return false;
    if (j === text.length) return final ? false : undefined; // "12" then white space: no item
    if (text[j] !== '.' && text[j] !== ')') return false;
    next = j + 1;
  }
  if (next === text.length) return final ? true : undefined; // the marker then white space
  return (MARKS[text.charCodeAt(next)]! & WHITE) !== 0;
}
