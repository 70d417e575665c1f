/**
 * The structural pass: one walk over the text, before the keyword scan, that finds what keywords
 * cannot: where sentences end (so phrases are combined within a clause, not across a document),
 * and the shapes of hidden payloads: base64 and hex runs, words split into letters
 * (`i g n o r e`), words mixing Latin with Cyrillic or Greek letters, zero-width characters inside
 * words, bidirectional overrides, invisible Unicode tag characters and "styled" mathematical
 * letters. It records offsets into reusable typed arrays; the only copy is of the text's UTF-16
 * units into a reusable buffer, which the pass reads faster than the string (see `unitsOf`).
 */

// Per-code-unit flags of the pass (one table read per code unit). A character is either a word
// character (W set, with script and base64 details) or one of the separator classes.
const W = 1; // letter or digit, any script
const B64 = 2; // in the base64 alphabets: A-Z a-z 0-9 + / = - _
const LOWER = 4;
const UPPER = 8;
const DIGIT = 16;
const NOT_HEX = 32; // a letter past f / F, or a base64 symbol
const LATIN = 64;
const CYRGREEK = 128;
const SYMBOL = 1 << 12; // + / = - _
const LEET = 1 << 13; // digits read as letters in leetspeak: 0 1 3 4 5 7
const ALNUM = W | B64; // an ASCII letter or digit
// Classes of non-word characters, in bits 8-11 ((flags >> 8) & 15).
const C_SPACE = 1;
const C_NEWLINE = 2;
const C_CR = 3;
const C_TERM = 4; // . ! ? …
const C_TERM_CJK = 5; // 。！？ end a sentence without a following space
const C_ZW = 6; // zero-width characters that may hide inside words
const C_BIDI = 7; // bidirectional embeddings and overrides
const C_HIGH = 8; // high surrogate

/**
 * The flags of every code unit. Allocated when the module loads and filled on first use: the
 * pass reads it through this constant binding, which V8 compiles to a fixed address (measured:
 * a table loop about 25% faster than through a variable).
 */
const FLAGS = new Uint16Array(0x10000);
let flagsFilled = false;

/** The filled flag table (small, so that V8 inlines it where it is called per clause). */
function flags(): Uint16Array {
  return flagsFilled ? FLAGS : fillFlags();
}

function fillFlags(): Uint16Array {
  const t = FLAGS;
  const letter = /[\p{L}\p{N}]/u;
  for (let c = 0x80; c < 0x10000; c++) {
    if (c >= 0xd800 && c <= 0xdfff) continue;
    if (letter.test(String.fromCharCode(c))) {
      t[c] = W;
      if (c <= 0x24f || (c >= 0x1e00 && c <= 0x1eff)) t[c]! |= LATIN;
      else if (c >= 0x370 && c <= 0x52f) t[c]! |= CYRGREEK;
    }
  }
  for (let c = 0x61; c <= 0x7a; c++) t[c] = W | B64 | LOWER | LATIN | (c > 0x66 ? NOT_HEX : 0);
  for (let c = 0x41; c <= 0x5a; c++) t[c] = W | B64 | UPPER | LATIN | (c > 0x46 ? NOT_HEX : 0);
  for (let c = 0x30; c <= 0x39; c++) {
    t[c] = W | B64 | DIGIT | ('013457'.includes(String.fromCharCode(c)) ? LEET : 0);
  }
  for (const c of '+/=-_') t[c.charCodeAt(0)] = B64 | NOT_HEX | SYMBOL;
  const set = (codes: Iterable<number>, cls: number) => {
    for (const c of codes) t[c] = (t[c]! & 0xf0ff) | (cls << 8);
  };
  set([0x20, 0x09, 0xa0, 0x3000, 0x2002, 0x2003, 0x2009], C_SPACE);
  set([0x0a, 0x2028, 0x2029], C_NEWLINE);
  set([0x0d], C_CR);
  set(
    [...'.!?…'].map((c) => c.charCodeAt(0)),
    C_TERM,
  );
  set(
    [...'。！？'].map((c) => c.charCodeAt(0)),
    C_TERM_CJK,
  );
  set([0x200b, 0x200c, 0x200d, 0x2060, 0xfeff], C_ZW);
  set([0x202a, 0x202b, 0x202d, 0x202e, 0x2066, 0x2067, 0x2068], C_BIDI);
  for (let c = 0xd800; c <= 0xdbff; c++) t[c] = C_HIGH << 8;
  flagsFilled = true;
  return t;
}

/** Kinds of runs the pass records. */
export const RUN_BASE64 = 1;
export const RUN_HEX = 2;
export const RUN_SPLIT = 3;
export const RUN_TAGS = 4;
export const RUN_STYLED = 5;
export const RUN_LEET = 6;

/** Longest clause before the pass cuts at the next space (phrases never span a cut). */
const MAX_SENTENCE = 480;
/** Shortest base64 run worth decoding (12 bytes of text). */
const MIN_BASE64 = 16;
/** Shortest hex run worth decoding (8 bytes of text). */
const MIN_HEX = 16;
/** Shortest run of either kind. */
const MIN_ENCODED = Math.min(MIN_BASE64, MIN_HEX);
/** Fewest single letters in a row that count as a split word. */
const MIN_SPLIT_LETTERS = 6;
/** Fewest tag characters that count as hidden text (flag emoji use up to 6). */
const MIN_TAGS = 7;
/** Fewest styled letters that count as a styled run. */
const MIN_STYLED = 4;
/** Characters around a leetspeak word that are spelled out with it (the rest of its phrase). */
const LEET_CONTEXT = 80;
/** Texts up to this many units are copied for the pass with a loop, longer ones by `Buffer.write`. */
const LOOP_COPY_UNITS = 32;
/** Most runs recorded per text: enough for any real payload, bounded for hostile input. */
const MAX_RUNS = 64;

/** What the structural pass found. Reusable: pass it back to {@link scanStructure}. */
export class TextStructure {
  /** End offsets of the clauses, in order; the first clause starts at the scan start. */
  sentenceEnds = new Int32Array(64);
  sentenceCount = 0;
  /** Runs as (kind, start, end) triples. */
  readonly runs = new Int32Array(MAX_RUNS * 3);
  #units = new Uint16Array(256);
  #bytes = Buffer.from(this.#units.buffer);
  runCount = 0;
  mixedScriptWords = 0;
  mixedScriptStart = -1;
  mixedScriptEnd = -1;
  zeroWidthInWords = 0;
  zeroWidthStart = -1;
  bidiOverrides = 0;
  bidiStart = -1;

  /**
   * `text[start, end)` as UTF-16 units in a buffer reused between texts (it grows to the longest
   * text scanned). The pass reads the copy: V8 reads a typed array about 2.5 times faster than
   * `charCodeAt` (measured on a 100 KB text: 0.10 ms against 0.26 ms for a bare loop), far more
   * than the copy costs (a memory copy by `Buffer.write`; a loop for short texts, where the call
   * costs more than the copy).
   */
  unitsOf(text: string, start: number, end: number): Uint16Array {
    const length = end - start;
    if (length > this.#units.length) {
      this.#units = new Uint16Array(Math.max(length, this.#units.length * 2));
      this.#bytes = Buffer.from(this.#units.buffer);
    }
    const units = this.#units;
    if (length <= LOOP_COPY_UNITS) {
      for (let i = 0; i < length; i++) units[i] = text.charCodeAt(start + i);
    } else {
      const range = start === 0 && end === text.length ? text : text.slice(start, end);
      this.#bytes.write(range, 0, 'utf16le');
    }
    return units;
  }

  reset(): void {
    this.sentenceCount = 0;
    this.runCount = 0;
    this.mixedScriptWords = 0;
    this.mixedScriptStart = -1;
    this.mixedScriptEnd = -1;
    this.zeroWidthInWords = 0;
    this.zeroWidthStart = -1;
    this.bidiOverrides = 0;
    this.bidiStart = -1;
  }

  pushSentence(end: number): void {
    if (this.sentenceCount === this.sentenceEnds.length) {
      const bigger = new Int32Array(this.sentenceEnds.length * 2);
      bigger.set(this.sentenceEnds);
      this.sentenceEnds = bigger;
    }
    this.sentenceEnds[this.sentenceCount++] = end;
  }

  /** Counts a word that mixes Latin with Cyrillic or Greek letters (the first one is kept). */
  addMixedScript(start: number, end: number): void {
    this.mixedScriptWords++;
    if (this.mixedScriptStart < 0) {
      this.mixedScriptStart = start;
      this.mixedScriptEnd = end;
    }
  }

  /** Records a leetspeak word with its context, merged into the previous leet run if they meet. */
  pushLeet(start: number, end: number): void {
    const last = (this.runCount - 1) * 3;
    if (this.runCount > 0 && this.runs[last] === RUN_LEET && this.runs[last + 2]! >= start) {
      this.runs[last + 2] = Math.max(this.runs[last + 2]!, end);
      return;
    }
    this.pushRun(RUN_LEET, start, end);
  }

  pushRun(kind: number, start: number, end: number): void {
    if (this.runCount === MAX_RUNS) return;
    const at = this.runCount++ * 3;
    this.runs[at] = kind;
    this.runs[at + 1] = start;
    this.runs[at + 2] = end;
  }
}

/**
 * Walks `text[start, end)` once and fills `into`. Sentences end after `.`, `!`, `?` or `…`
 * followed by white space, after `。！？`, at blank lines, and (for run-on text) at the first
 * space after {@link MAX_SENTENCE} characters.
 */
export function scanStructure(
  text: string,
  into: TextStructure,
  start = 0,
  end = text.length,
): TextStructure {
  if (!warmedUp) warmUp();
  flags();
  const table = FLAGS;
  into.reset();
  const units = into.unitsOf(text, start, end);
  // Offsets below are relative to `start` (`units[i]` is `text[start + i]`): V8 compiles the loop
  // over `units[i]` about twice as fast as one over `units[i - start]` (measured: 0.10 against
  // 0.20 ms per 100 KB for the word loop alone). Offsets are made absolute where recorded.
  const n = end - start;
  let sentenceStart = 0;
  let afterTerm = false;
  let newlines = 0;
  // Current run of base64 characters and the union of their flags.
  let b64Start = -1;
  let b64Flags = 0;
  // Current word (letters and digits) and the union of its flags.
  let wordStart = -1;
  let wordFlags = 0;
  let pendingZeroWidth = false;
  let splitStart = -1;
  let splitLetters = 0;
  let splitLastEnd = -1;
  // Runs of astral characters.
  let tagStart = -1;
  let tagCount = 0;
  let styledStart = -1;
  let styledCount = 0;
  let styledLastEnd = -1;

  let i = 0;
  while (i < n) {
    const code = units[i]!;
    let f = table[code]!;
    if (f & B64) {
      if (b64Start < 0) {
        b64Start = i;
        b64Flags = 0;
      }
      b64Flags |= f;
    } else if (b64Start >= 0) {
      if (i - b64Start >= MIN_ENCODED) closeEncoded(into, start + b64Start, start + i, b64Flags);
      b64Start = -1;
    }
    if (f & W) {
      if (wordStart < 0) {
        wordStart = i;
        wordFlags = 0;
        afterTerm = false;
        newlines = 0;
      } else if (pendingZeroWidth) {
        into.zeroWidthInWords++;
        if (into.zeroWidthStart < 0) into.zeroWidthStart = start + i - 1;
        pendingZeroWidth = false;
      }
      i++;
      if ((f & ALNUM) === ALNUM) {
        // An ASCII letter or digit, most of any text: those that follow it only extend the word
        // and the base64 run, in a loop of their own.
        let seen = f;
        while (i < n) {
          const next = table[units[i]!]!;
          if ((next & ALNUM) !== ALNUM) break;
          seen |= next;
          i++;
        }
        b64Flags |= seen;
        f = seen;
      }
      wordFlags |= f;
      continue;
    }
    const cls = (f >> 8) & 15;
    if (cls === C_ZW && wordStart >= 0) {
      pendingZeroWidth = true; // counted only if the word goes on after it
      i++;
      continue;
    }
    if (tagStart >= 0 && code !== 0xdb40) {
      if (tagCount >= MIN_TAGS) into.pushRun(RUN_TAGS, start + tagStart, start + i);
      tagStart = -1;
    }
    if (wordStart >= 0) {
      // A word just ended.
      if ((wordFlags & (LATIN | CYRGREEK)) === (LATIN | CYRGREEK))
        into.addMixedScript(start + wordStart, start + i);
      if (wordFlags & LEET && wordFlags & NOT_HEX && isLeetWord(units, wordStart, i)) {
        into.pushLeet(
          start + Math.max(0, wordStart - LEET_CONTEXT),
          start + Math.min(n, i + LEET_CONTEXT),
        );
      }
      if (i - wordStart === 1) {
        if (splitLetters > 0 && wordStart - splitLastEnd <= 3) splitLetters++;
        else {
          if (splitLetters >= MIN_SPLIT_LETTERS)
            into.pushRun(RUN_SPLIT, start + splitStart, start + splitLastEnd);
          splitStart = wordStart;
          splitLetters = 1;
        }
        splitLastEnd = i;
      } else if (splitLetters > 0) {
        if (splitLetters >= MIN_SPLIT_LETTERS)
          into.pushRun(RUN_SPLIT, start + splitStart, start + splitLastEnd);
        splitLetters = 0;
      }
      wordStart = -1;
      pendingZeroWidth = false;
    }
    switch (cls) {
      case C_SPACE:
        if (afterTerm || i - sentenceStart >= MAX_SENTENCE) {
          into.pushSentence(start + i);
          sentenceStart = i;
          afterTerm = false;
        }
        i++;
        if (code === 0x20 && splitLetters === 0 && tagStart < 0) {
          const next = skipPlainWords(units, i, n, sentenceStart + MAX_SENTENCE);
          if (next > i) {
            i = next;
            afterTerm = false;
            newlines = 0;
          }
        }
        continue;
      case C_NEWLINE:
        newlines++;
        if (afterTerm || newlines >= 2 || i - sentenceStart >= MAX_SENTENCE) {
          into.pushSentence(start + i);
          sentenceStart = i;
          afterTerm = false;
        }
        i++;
        continue;
      case C_CR:
        i++;
        continue;
      case C_TERM:
        afterTerm = true;
        break;
      case C_TERM_CJK:
        into.pushSentence(start + i + 1);
        sentenceStart = i + 1;
        afterTerm = false;
        break;
      case C_ZW:
        i++;
        continue;
      case C_BIDI:
        into.bidiOverrides++;
        if (into.bidiStart < 0) into.bidiStart = start + i;
        break;
      case C_HIGH: {
        const low = i + 1 < n ? units[i + 1]! : 0;
        if (code === 0xdb40 && low >= 0xdc20 && low <= 0xdc7e) {
          if (tagStart < 0) {
            tagStart = i;
            tagCount = 0;
          }
          tagCount++;
          i += 2;
          continue;
        }
        if (code === 0xd835 && low >= 0xdc00 && low <= 0xdfff) {
          if (styledCount > 0 && i - styledLastEnd <= 1) styledCount++;
          else {
            if (styledCount >= MIN_STYLED)
              into.pushRun(RUN_STYLED, start + styledStart, start + styledLastEnd);
            styledStart = i;
            styledCount = 1;
          }
          styledLastEnd = i + 2;
          i += 2;
          continue;
        }
        afterTerm = false;
        break;
      }
      default:
        afterTerm = false;
    }
    newlines = 0;
    if (i - sentenceStart >= MAX_SENTENCE * 4) {
      into.pushSentence(start + i);
      sentenceStart = i;
    }
    i++;
  }
  if (b64Start >= 0) closeEncoded(into, start + b64Start, end, b64Flags);
  if (wordStart >= 0) {
    if ((wordFlags & (LATIN | CYRGREEK)) === (LATIN | CYRGREEK))
      into.addMixedScript(start + wordStart, end);
    if (wordFlags & LEET && wordFlags & NOT_HEX && isLeetWord(units, wordStart, n)) {
      into.pushLeet(start + Math.max(0, wordStart - LEET_CONTEXT), end);
    }
    if (n - wordStart === 1 && splitLetters > 0 && wordStart - splitLastEnd <= 3) {
      splitLetters++;
      splitLastEnd = n;
    }
  }
  if (splitLetters >= MIN_SPLIT_LETTERS)
    into.pushRun(RUN_SPLIT, start + splitStart, start + splitLastEnd);
  if (tagStart >= 0 && tagCount >= MIN_TAGS) into.pushRun(RUN_TAGS, start + tagStart, end);
  if (styledCount >= MIN_STYLED)
    into.pushRun(RUN_STYLED, start + styledStart, start + styledLastEnd);
  if (sentenceStart < n || into.sentenceCount === 0) into.pushSentence(end);
  return into;
}

/**
 * Skips plain words from `from`: words of two or more ASCII letters, each followed by one space,
 * while no clause needs cutting (before `limit`). They change nothing the pass records (no
 * digits, no other script, not a single letter, too plain for base64, no sentence end), and most
 * of a text in a language written in Latin letters is made of them: this loop reads them with
 * far fewer tests than the pass's. Returns where the pass goes on (`from` when nothing was
 * skipped), at the start of the first word that is not plain.
 */
function skipPlainWords(units: Uint16Array, from: number, n: number, limit: number): number {
  const table = FLAGS;
  let at = from;
  for (;;) {
    let j = at;
    while (j < n && (table[units[j]!]! & (LOWER | UPPER)) !== 0) j++;
    if (j - at < 2 || j >= limit || j >= n || units[j] !== 0x20) return at;
    at = j + 1;
  }
}

/**
 * Whether a clause that ends at `at` ends at white space (a space or a line break): there the
 * lexicon, too, sees a separator, so clauses cut there may be scanned together (see window.ts).
 * Cuts after `。！？` and the forced cuts of text without spaces are not such ends.
 */
export function endsAtWhiteSpace(text: string, at: number): boolean {
  const cls = (flags()[text.charCodeAt(at)]! >> 8) & 15;
  return cls === C_SPACE || cls === C_NEWLINE;
}

/**
 * Texts that take every path of the pass, the ends of text included (a word, base64, hex, split
 * letters, leetspeak, mixed scripts, tag characters and styled letters last).
 */
const WARM_UP_TEXTS = [
  'Hello, world! How are you?\n\nFine. 。Next\u200bword \u202e ok',
  'aGVsbG8gd29ybGQgaWdub3Jl',
  '0123456789abcdef0123456789abcdef',
  'i g n o r e a l l',
  'pr3v10us 1gn0r3',
  'p\u0430ss',
  '\u{e0069}\u{e0067}\u{e006e}\u{e006f}\u{e0072}\u{e0065}\u{e0020}\u{e0061}',
  '\u{1d422}\u{1d420}\u{1d427}\u{1d428}\u{1d42b}',
  `${'x'.repeat(500)} ${'-'.repeat(2000)}`,
];
let warmedUp = false;

/**
 * Runs the pass once over texts that take all its paths. V8 compiles the pass's loop while it
 * runs (on-stack replacement) the first time it meets a long text; code that had not run by
 * then has no type feedback, and the compiled loop was measured to deoptimise at its exit on
 * every later call (a 100 KB document: 1.0 ms instead of 0.65). Short texts first give every
 * statement its feedback.
 */
function warmUp(): void {
  warmedUp = true;
  const into = new TextStructure();
  for (const text of WARM_UP_TEXTS) scanStructure(text, into);
}

/**
 * A word written in leetspeak: a leet digit between two letters (`1gn0r3`, `pr3v10us`), at most
 * 24 characters. Versions and units (`v1`, `ipv4`, `mp3`, `4k`) have their digits at one end;
 * hex hashes have no letter past f, which the caller checks first.
 */
function isLeetWord(units: Uint16Array, start: number, end: number): boolean {
  if (end - start > 24) return false;
  const table = flags();
  let state = 0; // 1: after a letter, 2: after a letter and a leet digit
  for (let i = start; i < end; i++) {
    const f = table[units[i]!]!;
    if (f & (LOWER | UPPER)) {
      if (state === 2) return true;
      state = 1;
    } else if (f & LEET) {
      if (state === 1) state = 2;
    } else state = 0;
  }
  return false;
}

function closeEncoded(into: TextStructure, start: number, end: number, runFlags: number): void {
  const length = end - start;
  const mixedCase = (runFlags & (LOWER | UPPER)) === (LOWER | UPPER);
  if (
    !(runFlags & NOT_HEX) &&
    runFlags & DIGIT &&
    !mixedCase &&
    length >= MIN_HEX &&
    length % 2 === 0
  ) {
    into.pushRun(RUN_HEX, start, end);
  } else if (length >= MIN_BASE64 && mixedCase && runFlags & (DIGIT | SYMBOL)) {
    into.pushRun(RUN_BASE64, start, end);
  }
}
