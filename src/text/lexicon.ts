import {
  charTables,
  type FoldTable,
  OTHER as OTHER_CLASS,
  SPACE as SPACE_CLASS,
  UNBOUNDED as UNBOUNDED_CLASS,
  WORD as WORD_CLASS,
} from './chars.js';
import { type EntryTables, LexiconScan } from './lexicon-scan.js';
import { type WasmBlock, type WasmScanner, wasmScanner } from './wasm-scanner.js';
import { FNV_OFFSET, FNV_PRIME, hashUnits, pairHash } from './word-hash.js';

// LexiconScan lives in its own file; importers of this module keep finding it here.
export { LexiconScan };

/**
 * A keyword lexicon compiled once and matched in one pass over a text.
 *
 * Entries are words or phrases grouped in categories (a tier router's "code", "reasoning", …).
 * One scan finds every entry of every category, so all the dimensions of a classifier are fed by
 * a single walk over the text instead of one search per keyword (which is what makes keyword
 * routers slow on long prompts). The same walk gathers {@link TextStats}.
 *
 * Matching rules:
 * - Case-insensitive, through a fold table (by default: lower case, Latin diacritics removed,
 *   full-width forms narrowed; zero-width characters and combining marks are looked through).
 * - Whole words where the script separates words with spaces: `prove` does not match `improve`,
 *   `class` does not match `subclass`. Han, kana, Thai and similar scripts match anywhere.
 * - A phrase's inner spaces match any run of white space; a hyphen between two letters matches
 *   a hyphen or white space (`step-by-step` = `step by step`).
 * - A trailing `*` allows more word characters after the entry (`optimi*` matches `optimize`,
 *   `optimisation`); a leading `*` allows word characters before it (`*architektur` matches
 *   `Softwarearchitektur`). Leading `*` entries are checked at every occurrence of their first
 *   letter, so they cost more: use them for compounding languages, not by default.
 */

/** One entry as given: a phrase, or a phrase with a weight and a display label. */
export type LexiconEntryInput =
  | string
  | { readonly phrase: string; readonly weight?: number; readonly label?: string };

/** Entries by category name. */
export type LexiconSpec = Readonly<Record<string, readonly LexiconEntryInput[]>>;

/** A compiled entry. */
export interface LexiconEntry {
  readonly id: number;
  readonly phrase: string;
  readonly category: string;
  readonly categoryIndex: number;
  readonly weight: number;
  /** How the entry is shown in signals (defaults to the phrase without `*`). */
  readonly label: string;
}

/** Options of {@link compileLexicon}. */
export interface LexiconOptions {
  /** The fold table (see `extendFoldTable`); defaults to the shared table. */
  readonly fold?: FoldTable;
  /**
   * `auto` (default) and `wasm` scan with the WebAssembly scanner where WebAssembly is available
   * (it is faster at every length, from an empty text on: measured), and in JS elsewhere; `js`
   * always scans in JS (the reference the WebAssembly scanner is tested against). All find
   * exactly the same entries and statistics.
   */
  readonly scanner?: 'auto' | 'js' | 'wasm';
}

// Module-local copies of the class constants: some loaders (tsx, vitest) turn imported bindings
// into property getters, which would cost a call per character in the scan loop.
const OTHER: number = OTHER_CLASS;
const WORD: number = WORD_CLASS;
const SPACE: number = SPACE_CLASS;
const UNBOUNDED: number = UNBOUNDED_CLASS;

// Pattern units: folded code units, and this marker for "one or more spaces or hyphens".
const SEP = -1;
/** Bits of the filter of prefix entries' first three letters (a word whose first three letters
 * are not in it cannot match a prefix entry of three or more letters). */
const PREFIX_FILTER_BITS = 1 << 13;

/** @internal A compiled phrase: its folded units and the entries it stands for. */
export interface Pattern {
  readonly units: Int32Array;
  readonly leftBounded: boolean;
  readonly rightBounded: boolean;
  /**
   * Letters of one word, left-bounded: a one-word entry (`prove`, not `c++`) or a prefix entry
   * (`optimi*`), which the WebAssembly scanner verifies against its folded copy of the text.
   */
  readonly lettersOnly: boolean;
  readonly entries: number[];
}

/** @internal An open-addressing table from a word hash to the patterns that start with it. */
export interface WordTable {
  readonly mask: number;
  readonly hashes: Int32Array;
  readonly starts: Int32Array;
  readonly counts: Int32Array;
  readonly patterns: Int32Array;
}

function wordTable(groups: Map<number, number[]>): WordTable {
  // Sparse on purpose (at most 1/4 full): most words of a text are not keywords, and a sparse
  // table answers "no" with one read of an empty slot.
  let size = 16;
  while (size < groups.size * 4) size <<= 1;
  const mask = size - 1;
  const hashes = new Int32Array(size);
  const starts = new Int32Array(size);
  const counts = new Int32Array(size);
  let total = 0;
  for (const ids of groups.values()) total += ids.length;
  const patterns = new Int32Array(total);
  let next = 0;
  for (const [hash, ids] of groups) {
    let slot = hash & mask;
    while (counts[slot] !== 0) slot = (slot + 1) & mask;
    hashes[slot] = hash;
    starts[slot] = next;
    counts[slot] = ids.length;
    for (const id of ids) patterns[next++] = id;
  }
  return { mask, hashes, starts, counts, patterns };
}

/**
 * @internal A lexicon's compiled tables: everything {@link compileLexicon} computes from a spec,
 * as plain data (typed arrays, arrays, a map), so that the build can store them ahead for a
 * lexicon that is always the same (see `core/prebuilt.ts`) and {@link restoreLexicon} rebuild it.
 */
export interface LexiconTables {
  readonly categories: readonly string[];
  readonly entries: readonly LexiconEntry[];
  readonly patterns: readonly Pattern[];
  readonly exact: WordTable;
  readonly bigram: WordTable;
  readonly prefix: WordTable;
  readonly prefixFilter2: Uint8Array;
  readonly prefixFilter: Uint8Array;
  readonly prefixLengths: number;
  readonly anywhere: ReadonlyMap<number, readonly number[]>;
  readonly hasAnywhereWordStarts: boolean;
}

/** Compiles the tables of a lexicon (see {@link Lexicon} for the matching rules). */
export function lexiconTables(
  spec: LexiconSpec,
  fold: FoldTable = charTables().fold,
): LexiconTables {
  const { classOf } = charTables();
  const categories = Object.keys(spec);
  const entries: LexiconEntry[] = [];
  const patterns: Pattern[] = [];
  const byKey = new Map<string, number>();
  const exact = new Map<number, number[]>();
  const bigram = new Map<number, number[]>();
  const prefix = new Map<number, number[]>();
  const prefixFilter = new Uint8Array(PREFIX_FILTER_BITS >>> 3);
  const prefixFilter2 = new Uint8Array(PREFIX_FILTER_BITS >>> 3);
  const anywhere = new Map<number, number[]>();
  let prefixLengths = 0;
  let hasAnywhereWordStarts = false;

  categories.forEach((category, categoryIndex) => {
    for (const input of spec[category]!) {
      const phrase = typeof input === 'string' ? input : input.phrase;
      const weight = typeof input === 'string' ? 1 : (input.weight ?? 1);
      const label =
        typeof input === 'string' ? stripStars(phrase) : (input.label ?? stripStars(phrase));
      const compiled = compilePhrase(phrase, fold, classOf);
      const entry: LexiconEntry = {
        id: entries.length,
        phrase,
        category,
        categoryIndex,
        weight,
        label,
      };
      entries.push(entry);
      const key = `${compiled.leftOpen ? '*' : ''}${Array.from(compiled.units).join(',')}${compiled.rightOpen ? '*' : ''}`;
      const known = byKey.get(key);
      if (known !== undefined) {
        patterns[known]!.entries.push(entry.id);
        continue;
      }
      const id = patterns.length;
      byKey.set(key, id);
      const { units, classes, leftOpen, rightOpen } = compiled;
      const firstClass = classes[0]!;
      const lastClass = classes[classes.length - 1]!;
      patterns.push({
        units,
        leftBounded: !leftOpen && firstClass === WORD,
        rightBounded: !rightOpen && lastClass === WORD,
        lettersOnly: !leftOpen && classes.every((cls) => cls === WORD),
        entries: [entry.id],
      });
      if (!leftOpen && firstClass === WORD) {
        let wordLength = 0;
        while (wordLength < units.length && classes[wordLength] === WORD) wordLength++;
        const hash = hashUnits(units, wordLength);
        const second = secondWord(units, classes, wordLength, rightOpen);
        if (wordLength === units.length && rightOpen) {
          if (wordLength >= 32) throw new RangeError(`prefix entry too long: ${phrase}`);
          prefixLengths |= 1 << wordLength;
          push(prefix, hash, id);
          for (const [letters, filter] of [
            [2, prefixFilter2],
            [3, prefixFilter],
          ] as const) {
            if (wordLength < letters) continue;
            const head = hashUnits(units, letters) & (PREFIX_FILTER_BITS - 1);
            filter[head >>> 3]! |= 1 << (head & 7);
          }
        } else if (second !== undefined) {
          const [from, to] = second;
          push(bigram, pairHash(hash, hashUnits(units.subarray(from), to - from)), id);
        } else {
          push(exact, hash, id);
        }
      } else {
        if (firstClass === WORD) hasAnywhereWordStarts = true;
        push(anywhere, units[0]!, id);
      }
    }
  });
  return {
    categories,
    entries,
    patterns,
    exact: wordTable(exact),
    bigram: wordTable(bigram),
    prefix: wordTable(prefix),
    prefixFilter2,
    prefixFilter,
    prefixLengths,
    anywhere,
    hasAnywhereWordStarts,
  };
}

/** A compiled lexicon. Immutable and safe to share; `scan` is synchronous. */
export class Lexicon {
  readonly entries: readonly LexiconEntry[];
  readonly categories: readonly string[];
  /** @internal The entries and patterns in flat arrays (read by LexiconScan). */
  readonly entryTables: EntryTables;
  readonly #categoryIndex: ReadonlyMap<string, number>;
  readonly #fold: FoldTable;
  readonly #classOf: Uint8Array;
  readonly #patterns: readonly Pattern[];
  // Word-start patterns, by the hash of their first word (exact) or of their prefix (`word*`).
  readonly #exact: WordTable;
  /** Phrases whose first two words are whole words, by the pair of their hashes. */
  readonly #bigram: WordTable;
  readonly #prefix: WordTable;
  /** Bit sets of the hashes of the first two (three) letters of prefix entries of ≥ 2 (3). */
  readonly #prefixFilter2: Uint8Array;
  readonly #prefixFilter: Uint8Array;
  /** Bit n set when some prefix pattern is n letters long (n < 32). */
  readonly #prefixLengths: number;
  // Patterns checked at every position whose folded unit starts one (CJK, symbols, `*x`): a bit
  // per folded unit (only when there are such patterns), and the patterns by unit.
  readonly #anywhereBits: Uint8Array | undefined;
  readonly #anywhere: ReadonlyMap<number, readonly number[]>;
  readonly #hasAnywhereWordStarts: boolean;
  // Per-entry scratch of the scan in progress (a scan is synchronous, so one set suffices).
  readonly #stamp: Int32Array;
  readonly #occurrences: Int32Array;
  readonly #firstIndex: Int32Array;
  #generation = 0;
  /** Whether to scan with WebAssembly where it is available. */
  readonly #useWasm: boolean;
  /** The WebAssembly scanner and this lexicon's block in it (prepared on first use). */
  #wasm: { scanner: WasmScanner; block: WasmBlock } | undefined;

  /**
   * Wraps compiled tables: use {@link compileLexicon} to compile a spec, {@link restoreLexicon} for
   * tables compiled ahead. `options.fold` must be the fold table the tables were compiled with.
   */
  constructor(tables: LexiconTables, options: LexiconOptions = {}) {
    const { classOf, fold } = charTables();
    this.#fold = options.fold ?? fold;
    this.#classOf = classOf;
    this.#useWasm = options.scanner !== 'js';
    this.categories = tables.categories;
    this.#categoryIndex = new Map(this.categories.map((name, index) => [name, index]));
    this.entries = tables.entries;
    this.#patterns = tables.patterns;
    this.#exact = tables.exact;
    this.#bigram = tables.bigram;
    this.#prefix = tables.prefix;
    this.#prefixFilter = tables.prefixFilter;
    this.#prefixFilter2 = tables.prefixFilter2;
    this.#prefixLengths = tables.prefixLengths;
    this.#anywhere = tables.anywhere;
    this.#hasAnywhereWordStarts = tables.hasAnywhereWordStarts;
    if (tables.anywhere.size > 0) {
      const bits = new Uint8Array(0x10000 / 8);
      for (const unit of tables.anywhere.keys()) bits[unit >>> 3]! |= 1 << (unit & 7);
      this.#anywhereBits = bits;
    } else {
      this.#anywhereBits = undefined;
    }
    const count = this.entries.length;
    this.#stamp = new Int32Array(count);
    this.#occurrences = new Int32Array(count);
    this.#firstIndex = new Int32Array(count);
    this.entryTables = flatTables(this.entries, this.#patterns);
  }

  /** The index of a category, for the fast accessors of {@link LexiconScan}. */
  categoryIndex(name: string): number {
    const index = this.#categoryIndex.get(name);
    if (index === undefined) throw new RangeError(`unknown lexicon category: ${name}`);
    return index;
  }

  /**
   * Labels of the entries of a category among the first `count` of `entryIds`, in order, each
   * label once, at most `limit` (see {@link LexiconScan.labels}). Allocates.
   */
  labelsOf(
    entryIds: ArrayLike<number>,
    count: number,
    categoryIndex: number,
    limit = Number.POSITIVE_INFINITY,
  ): string[] {
    const out: string[] = [];
    const entries = this.entries;
    for (let k = 0; k < count && out.length < limit; k++) {
      const entry = entries[entryIds[k]!]!;
      if (entry.categoryIndex === categoryIndex && !out.includes(entry.label))
        out.push(entry.label);
    }
    return out;
  }

  /**
   * Scans `text` (or `text[start, end)`) once and returns every entry found and the text's
   * statistics. Pass a scan from an earlier call as `into` to reuse its memory: it is reset.
   */
  scan(text: string, into?: LexiconScan, start = 0, end = text.length): LexiconScan {
    const result = into ?? new LexiconScan(this);
    if (result.lexicon !== this) throw new RangeError('scan result belongs to another lexicon');
    const wasm = this.#useWasm ? (this.#wasm ?? this.#wasmOf()) : undefined;
    if (wasm) {
      const hitCount = wasm.scanner.scan(text, start, end, wasm.block);
      result.fromWasm(wasm.scanner.i32, wasm.block, hitCount, end - start);
      return result;
    }
    this.#scanJs(text, result, start, end);
    return result;
  }

  /** The scan in JS: the reference the WebAssembly scanner is tested against, and its fallback. */
  #scanJs(text: string, result: LexiconScan, start: number, end: number): void {
    result.reset();
    const stats = result.stats;
    const fold = this.#fold;
    const classOf = this.#classOf;
    const anywhereBits = this.#anywhereBits;
    const hasAnywhereWordStarts = this.#hasAnywhereWordStarts;
    const prefixLengths = this.#prefixLengths;
    const exact = this.#exact;
    const exactCounts = exact.counts;
    const exactHashes = exact.hashes;
    const exactMask = exact.mask;
    const bigram = this.#bigram;
    const bigramCounts = bigram.counts;
    const bigramHashes = bigram.hashes;
    const bigramMask = bigram.mask;
    const prefixFilter = this.#prefixFilter;
    const prefixFilter2 = this.#prefixFilter2;
    this.#generation = (this.#generation + 1) | 0;
    if (this.#generation === 0) {
      this.#stamp.fill(0);
      this.#generation = 1;
    }

    let wordStart = -1;
    let hash = FNV_OFFSET;
    let letters = 0;
    // Letters of the current word still checked against prefix entries (0: none can match).
    let prefixLimit = 0;
    // The previous word, while only separators (spaces, hyphens) follow it: the first word of a
    // two-word phrase ending at the current word.
    let previousStart = -1;
    let previousHash = 0;
    let lineStart = true;
    let words = 0;
    let numbers = 0;
    let unbounded = 0;
    let nonAsciiWord = 0;
    let lines = end > start ? 1 : 0;
    let questions = 0;
    let numbered = 0;
    let bullets = 0;

    for (let i = start; i < end; i++) {
      const code = text.charCodeAt(i);
      const f = fold[code]!;
      if (f === 0) continue; // zero-width, combining mark: look through it
      const cls = classOf[f]!;
      if (cls === WORD) {
        if (wordStart < 0) {
          wordStart = i;
          hash = FNV_OFFSET;
          letters = 0;
          prefixLimit = prefixLengths === 0 ? 0 : 32;
          words++;
          if (code >= 0x30 && code <= 0x39) {
            numbers++;
            if (lineStart && isNumberedItem(text, i, end)) numbered++;
          }
          lineStart = false;
        }
        if (code > 0x7f) nonAsciiWord++;
        hash = Math.imul(hash ^ f, FNV_PRIME);
        letters++;
        if (letters < prefixLimit) {
          if (letters === 2 || letters === 3) {
            const filter = letters === 2 ? prefixFilter2 : prefixFilter;
            const head = hash & (PREFIX_FILTER_BITS - 1);
            if ((filter[head >>> 3]! & (1 << (head & 7))) === 0) prefixLimit = letters;
          }
          if ((prefixLengths >>> letters) & 1) {
            this.#probe(this.#prefix, hash, text, wordStart, end, result);
          }
        }
        if (hasAnywhereWordStarts && (anywhereBits![f >>> 3]! & (1 << (f & 7))) !== 0)
          this.#tryAnywhere(f, text, i, start, end, result);
        continue;
      }
      if (wordStart >= 0) {
        // The lookups of the word that just ended, inlined for the common miss: one empty slot.
        // A two-word phrase starts before a one-word entry here, so it is looked up first.
        if (previousStart >= 0) {
          const pair = pairHash(previousHash, hash);
          let slot = pair & bigramMask;
          while (bigramCounts[slot] !== 0) {
            if (bigramHashes[slot] === pair) {
              this.#checkSlot(bigram, slot, text, previousStart, end, result);
              break;
            }
            slot = (slot + 1) & bigramMask;
          }
        }
        let slot = hash & exactMask;
        while (exactCounts[slot] !== 0) {
          if (exactHashes[slot] === hash) {
            this.#checkSlot(exact, slot, text, wordStart, end, result);
            break;
          }
          slot = (slot + 1) & exactMask;
        }
        previousStart = wordStart;
        previousHash = hash;
        wordStart = -1;
      }
      if (previousStart >= 0 && cls !== SPACE && f !== 0x2d) previousStart = -1;
      if (cls === UNBOUNDED) {
        unbounded++;
        lineStart = false;
      } else if (f === 0x0a) {
        lines++;
        lineStart = true;
      } else if (cls !== SPACE) {
        if (f === 0x3f) questions++;
        if (lineStart) {
          lineStart = false;
          if (
            (f === 0x2d || f === 0x2a || f === 0x2022) &&
            i + 1 < end &&
            classOf[fold[text.charCodeAt(i + 1)]!] === SPACE
          ) {
            bullets++;
          }
        }
      }
      if (anywhereBits !== undefined && (anywhereBits[f >>> 3]! & (1 << (f & 7))) !== 0)
        this.#tryAnywhere(f, text, i, start, end, result);
    }
    if (wordStart >= 0) {
      if (previousStart >= 0) {
        this.#probe(bigram, pairHash(previousHash, hash), text, previousStart, end, result);
      }
      this.#probe(exact, hash, text, wordStart, end, result);
    }

    stats.chars = end - start;
    stats.words = words;
    stats.numbers = numbers;
    stats.unboundedChars = unbounded;
    stats.nonAsciiWordChars = nonAsciiWord;
    stats.lines = lines;
    stats.questionMarks = questions;
    stats.numberedLines = numbered;
    stats.bulletLines = bullets;
    result.collect(this.#occurrences, this.#firstIndex);
  }

  /** The WebAssembly scanner with this lexicon in it, or `undefined` (scan in JS). */
  #wasmOf(): { scanner: WasmScanner; block: WasmBlock } | undefined {
    const scanner = wasmScanner();
    if (!scanner) return undefined;
    const block = scanner.prepare(this, this.#fold, this.#classOf, {
      patterns: this.#patterns,
      exact: this.#exact,
      pair: this.#bigram,
      prefix: this.#prefix,
      prefixLengths: this.#prefixLengths,
      anywhere: this.#anywhere,
      anywhereWordStarts: this.#hasAnywhereWordStarts,
    });
    this.#wasm = { scanner, block };
    return this.#wasm;
  }

  /** Looks `hash` up in `table` and checks each candidate pattern at `at`. */
  #probe(
    table: WordTable,
    hash: number,
    text: string,
    at: number,
    end: number,
    result: LexiconScan,
  ): void {
    const mask = table.mask;
    let slot = hash & mask;
    for (;;) {
      const count = table.counts[slot]!;
      if (count === 0) return;
      if (table.hashes[slot] === hash) {
        this.#checkSlot(table, slot, text, at, end, result);
        return;
      }
      slot = (slot + 1) & mask;
    }
  }

  /** Checks each pattern of a table slot whose hash matched the word at `at`. */
  #checkSlot(
    table: WordTable,
    slot: number,
    text: string,
    at: number,
    end: number,
    result: LexiconScan,
  ): void {
    const first = table.starts[slot]!;
    const count = table.counts[slot]!;
    for (let k = 0; k < count; k++) {
      const id = table.patterns[first + k]!;
      if (this.#matchAt(this.#patterns[id]!, text, at, end) >= 0) this.#record(id, at, result);
    }
  }

  #tryAnywhere(
    unit: number,
    text: string,
    at: number,
    start: number,
    end: number,
    result: LexiconScan,
  ): void {
    const ids = this.#anywhere.get(unit)!;
    for (let k = 0; k < ids.length; k++) {
      const id = ids[k]!;
      const pattern = this.#patterns[id]!;
      if (pattern.leftBounded && this.#wordCharBefore(text, at, start)) continue;
      if (this.#matchAt(pattern, text, at, end) >= 0) this.#record(id, at, result);
    }
  }

  /**
   * Matches `pattern` at `at`; returns the end index, or -1. Skipped characters in the text are
   * looked through; a separator unit consumes one or more spaces or hyphens.
   */
  #matchAt(pattern: Pattern, text: string, at: number, end: number): number {
    const fold = this.#fold;
    const classOf = this.#classOf;
    const units = pattern.units;
    let j = at;
    for (let u = 0; u < units.length; u++) {
      const want = units[u]!;
      let f = j < end ? fold[text.charCodeAt(j)]! : 0;
      while (f === 0) {
        // Looked-through characters (zero-width, combining marks) between units.
        if (++j >= end) return -1;
        f = fold[text.charCodeAt(j)]!;
      }
      if (want === SEP) {
        if (!isSeparator(f, classOf)) return -1;
        j++;
        while (j < end) {
          const g = fold[text.charCodeAt(j)]!;
          if (g !== 0 && !isSeparator(g, classOf)) break;
          j++;
        }
        continue;
      }
      if (f !== want) return -1;
      j++;
    }
    if (pattern.rightBounded) {
      while (j < end) {
        const g = fold[text.charCodeAt(j)]!;
        if (g !== 0) {
          if (classOf[g] === WORD) return -1;
          break;
        }
        j++;
      }
    }
    return j;
  }

  #wordCharBefore(text: string, at: number, start: number): boolean {
    for (let j = at - 1; j >= start; j--) {
      const g = this.#fold[text.charCodeAt(j)]!;
      if (g !== 0) return this.#classOf[g] === WORD;
    }
    return false;
  }

  #record(patternId: number, at: number, result: LexiconScan): void {
    const generation = this.#generation;
    const entries = this.#patterns[patternId]!.entries;
    for (let k = 0; k < entries.length; k++) {
      const entry = entries[k]!;
      if (this.#stamp[entry] !== generation) {
        this.#stamp[entry] = generation;
        this.#occurrences[entry] = 1;
        this.#firstIndex[entry] = at;
        result.pushHit(entry);
      } else {
        this.#occurrences[entry]!++;
      }
    }
  }
}

function compilePhrase(
  phrase: string,
  fold: FoldTable,
  classOf: Uint8Array,
): {
  units: Int32Array;
  classes: number[];
  leftOpen: boolean;
  rightOpen: boolean;
} {
  let text = phrase.trim();
  const leftOpen = text.startsWith('*');
  const rightOpen = text.endsWith('*') && text.length > 1;
  if (leftOpen) text = text.slice(1);
  if (rightOpen) text = text.slice(0, -1);
  const units: number[] = [];
  const classes: number[] = [];
  for (let i = 0; i < text.length; i++) {
    const f = fold[text.charCodeAt(i)]!;
    if (f === 0) continue;
    const cls = classOf[f]!;
    const isHyphenBetweenLetters =
      f === 0x2d && classes[classes.length - 1] === WORD && nextIsWord(text, i + 1, fold, classOf);
    if (cls === SPACE || isHyphenBetweenLetters) {
      if (units.length > 0 && units[units.length - 1] !== SEP) {
        units.push(SEP);
        classes.push(SPACE);
      }
      continue;
    }
    units.push(f);
    classes.push(cls === UNBOUNDED ? UNBOUNDED : cls === WORD ? WORD : OTHER);
  }
  while (units[units.length - 1] === SEP) {
    units.pop();
    classes.pop();
  }
  if (units.length === 0) throw new RangeError(`empty lexicon entry: ${JSON.stringify(phrase)}`);
  return { units: Int32Array.from(units), classes, leftOpen, rightOpen };
}

function nextIsWord(text: string, from: number, fold: FoldTable, classOf: Uint8Array): boolean {
  for (let j = from; j < text.length; j++) {
    const f = fold[text.charCodeAt(j)]!;
    if (f !== 0) return classOf[f] === WORD;
  }
  return false;
}

// Plain loops: this runs once per lexicon, cold, where `TypedArray.from` with a mapping function
// and `forEach` callbacks took ~10 ms for the tier lexicon's 3,000 entries (measured).
function flatTables(entries: readonly LexiconEntry[], patterns: readonly Pattern[]): EntryTables {
  const patternStart = new Int32Array(patterns.length + 1);
  const patternEntries = new Int32Array(entries.length);
  let next = 0;
  for (let p = 0; p < patterns.length; p++) {
    patternStart[p] = next;
    const ids = patterns[p]!.entries;
    for (let k = 0; k < ids.length; k++) patternEntries[next++] = ids[k]!;
  }
  patternStart[patterns.length] = next;
  const category = new Int32Array(entries.length);
  const weight = new Float64Array(entries.length);
  for (let i = 0; i < entries.length; i++) {
    category[i] = entries[i]!.categoryIndex;
    weight[i] = entries[i]!.weight;
  }
  return { category, weight, patternStart, patternEntries };
}

/** Compiles a lexicon (see {@link Lexicon} for the matching rules). */
export function compileLexicon(spec: LexiconSpec, options: LexiconOptions = {}): Lexicon {
  return new Lexicon(lexiconTables(spec, options.fold), options);
}

/**
 * @internal A lexicon from tables compiled ahead by {@link lexiconTables}, with the fold table
 * they were compiled with.
 */
export function restoreLexicon(tables: LexiconTables, options: LexiconOptions = {}): Lexicon {
  return new Lexicon(tables, options);
}

/**
 * Where the second word of a phrase is, when the phrase starts with two whole words separated by
 * a separator (`the docs`, `prove that`, `step 1`): such phrases are looked up by both words,
 * since their first words (`the`, `what`) start many phrases. `undefined` otherwise.
 */
function secondWord(
  units: Int32Array,
  classes: readonly number[],
  firstLength: number,
  rightOpen: boolean,
): [number, number] | undefined {
  if (units[firstLength] !== SEP) return undefined;
  const from = firstLength + 1;
  let to = from;
  while (to < units.length && classes[to] === WORD) to++;
  if (to === from) return undefined;
  if (to === units.length) return rightOpen ? undefined : [from, to];
  return units[to] === SEP ? [from, to] : undefined;
}

function push(map: Map<number, number[]>, key: number, id: number): void {
  const list = map.get(key);
  if (list) list.push(id);
  else map.set(key, [id]);
}

function isSeparator(f: number, classOf: Uint8Array): boolean {
  return f === 0x2d || classOf[f] === SPACE;
}

function isNumberedItem(text: string, at: number, end: number): boolean {
  let j = at;
  while (j < end && j - at < 4) {
    const c = text.charCodeAt(j);
    if (c < 0x30 || c > 0x39) break;
    j++;
  }
  if (j >= end) return false;
  const mark = text.charCodeAt(j);
  if (mark !== 0x2e && mark !== 0x29 && mark !== 0x3001 && mark !== 0xff0e) return false;
  return j + 1 >= end || text.charCodeAt(j + 1) === 0x20 || text.charCodeAt(j + 1) === 0x09;
}

function stripStars(phrase: string): string {
  return phrase.trim().replace(/^\*|\*$/g, '');
}
