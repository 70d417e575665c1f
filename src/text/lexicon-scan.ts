import type { Lexicon, LexiconEntry } from './lexicon.js';
import { emptyStats, type TextStats } from './stats.js';
import { RESULT, type WasmBlock } from './wasm-scanner.js';

/**
 * A lexicon's entries and patterns in flat arrays, so that reading a scan's results costs no
 * object loads (a pattern is a distinct folded phrase; several entries can share one).
 */
export interface EntryTables {
  /** Per entry: its category index. */
  readonly category: Int32Array;
  /** Per entry: its weight. */
  readonly weight: Float64Array;
  /** Per pattern p: its entries are `patternEntries[patternStart[p] .. patternStart[p + 1])`. */
  readonly patternStart: Int32Array;
  readonly patternEntries: Int32Array;
}

// Offsets of the WebAssembly scanner's results, module-local: some loaders (tsx, vitest) turn
// imported bindings into property getters, which would cost a call each.
const R_WORDS: number = RESULT.words;
const R_NUMBERS: number = RESULT.numbers;
const R_UNBOUNDED: number = RESULT.unbounded;
const R_NON_ASCII: number = RESULT.nonAscii;
const R_LINES: number = RESULT.lines;
const R_QUESTIONS: number = RESULT.questions;
const R_NUMBERED: number = RESULT.numbered;
const R_BULLETS: number = RESULT.bullets;

/**
 * What one scan found. Reusable: pass it back to `Lexicon.scan` as `into` to scan again without
 * allocating. Accessors by category index are allocation-free; those returning arrays allocate.
 */
export class LexiconScan {
  readonly lexicon: Lexicon;
  readonly stats: TextStats = emptyStats();
  #hits = new Int32Array(16);
  #hitOccurrences = new Int32Array(16);
  #hitFirst = new Int32Array(16);
  #hitCount = 0;
  // The lexicon's entry tables, each in a field of its own: read through the tables object, they
  // were megamorphic loads (its literal's map changes while lexicons are being built).
  readonly #entryCategory: Int32Array;
  readonly #entryWeight: Float64Array;
  readonly #patternStart: Int32Array;
  readonly #patternEntries: Int32Array;
  readonly #distinct: Int32Array;
  readonly #occurrences: Int32Array;
  readonly #weights: Float64Array;
  /** The categories with a hit, so that a reset clears only those. */
  readonly #touched: Int32Array;
  #touchedCount = 0;

  constructor(lexicon: Lexicon) {
    this.lexicon = lexicon;
    const tables = lexicon.entryTables;
    this.#entryCategory = tables.category;
    this.#entryWeight = tables.weight;
    this.#patternStart = tables.patternStart;
    this.#patternEntries = tables.patternEntries;
    const categories = lexicon.categories.length;
    this.#distinct = new Int32Array(categories);
    this.#occurrences = new Int32Array(categories);
    this.#weights = new Float64Array(categories);
    this.#touched = new Int32Array(categories);
  }

  /** @internal Clears the previous scan. */
  reset(): void {
    this.#hitCount = 0;
    const touched = this.#touched;
    for (let k = 0; k < this.#touchedCount; k++) {
      const category = touched[k]!;
      this.#distinct[category] = 0;
      this.#occurrences[category] = 0;
      this.#weights[category] = 0;
    }
    this.#touchedCount = 0;
  }

  /** @internal Adds an entry found for the first time in this scan. */
  pushHit(entry: number): void {
    if (this.#hitCount === this.#hits.length) this.#grow();
    this.#hits[this.#hitCount++] = entry;
  }

  /** @internal Copies the per-entry counts of a scan in JS, for the entries pushed. */
  collect(occurrences: Int32Array, first: Int32Array): void {
    for (let k = 0; k < this.#hitCount; k++) {
      const id = this.#hits[k]!;
      this.#hitOccurrences[k] = occurrences[id]!;
      this.#hitFirst[k] = first[id]!;
      this.#count(id, occurrences[id]!);
    }
  }

  /** @internal Fills the scan from the WebAssembly scanner's results (see wasm-scanner.ts). */
  fromWasm(i32: Int32Array, block: WasmBlock, patternHits: number, chars: number): void {
    this.reset();
    const stats = this.stats;
    stats.chars = chars;
    stats.words = i32[R_WORDS]!;
    stats.numbers = i32[R_NUMBERS]!;
    stats.unboundedChars = i32[R_UNBOUNDED]!;
    stats.nonAsciiWordChars = i32[R_NON_ASCII]!;
    stats.lines = chars > 0 ? i32[R_LINES]! + 1 : 0;
    stats.questionMarks = i32[R_QUESTIONS]!;
    stats.numberedLines = i32[R_NUMBERED]!;
    stats.bulletLines = i32[R_BULLETS]!;
    const patternStart = this.#patternStart;
    const patternEntries = this.#patternEntries;
    const hits = block.hits;
    for (let k = 0; k < patternHits; k++) {
      const pattern = i32[hits + k]!;
      const occurrences = i32[block.occurrences + pattern]!;
      const first = i32[block.first + pattern]!;
      for (let e = patternStart[pattern]!; e < patternStart[pattern + 1]!; e++) {
        const id = patternEntries[e]!;
        const at = this.#hitCount;
        this.pushHit(id);
        this.#hitOccurrences[at] = occurrences;
        this.#hitFirst[at] = first;
        this.#count(id, occurrences);
      }
    }
  }

  #grow(): void {
    this.#hits = grow(this.#hits);
    this.#hitOccurrences = grow(this.#hitOccurrences);
    this.#hitFirst = grow(this.#hitFirst);
  }

  #count(entry: number, occurrences: number): void {
    const category = this.#entryCategory[entry]!;
    if (this.#distinct[category]!++ === 0) this.#touched[this.#touchedCount++] = category;
    this.#occurrences[category]! += occurrences;
    this.#weights[category]! += this.#entryWeight[entry]!;
  }

  /** Number of distinct entries found (over all categories). */
  get hitCount(): number {
    return this.#hitCount;
  }

  /** The k-th entry found (in order of first detection). */
  hitEntry(k: number): LexiconEntry {
    return this.lexicon.entries[this.#hits[k]!]!;
  }

  /**
   * The ids of the entries found, in order of first detection, in the scan's own buffer (valid
   * for `hitCount` items until the scan is reused; read, do not write): for a caller that walks
   * every hit on a hot path without a call per hit.
   */
  hitIdBuffer(): Int32Array {
    return this.#hits;
  }

  /** Where each entry found first occurs, in the scan's own buffer (see {@link hitIdBuffer}). */
  hitIndexBuffer(): Int32Array {
    return this.#hitFirst;
  }

  /** The id (index in the lexicon's `entries`) of the k-th entry found. */
  hitId(k: number): number {
    return this.#hits[k]!;
  }

  /** How often the k-th entry found occurs. */
  hitOccurrences(k: number): number {
    return this.#hitOccurrences[k]!;
  }

  /** Where the k-th entry found first occurs (a UTF-16 index into the scanned text). */
  hitIndex(k: number): number {
    return this.#hitFirst[k]!;
  }

  /** Number of categories with at least one entry found. */
  get categoryCount(): number {
    return this.#touchedCount;
  }

  /** The k-th category with an entry found (in order of first detection). */
  categoryAt(k: number): number {
    return this.#touched[k]!;
  }

  /** Distinct entries of a category found. */
  distinct(categoryIndex: number): number {
    return this.#distinct[categoryIndex]!;
  }

  /** Occurrences of all entries of a category. */
  occurrences(categoryIndex: number): number {
    return this.#occurrences[categoryIndex]!;
  }

  /** Sum of the weights of the distinct entries of a category found. */
  weight(categoryIndex: number): number {
    return this.#weights[categoryIndex]!;
  }

  /** Labels of the entries of a category found, in order of detection. Allocates. */
  labels(categoryIndex: number, limit = Number.POSITIVE_INFINITY): string[] {
    return this.lexicon.labelsOf(this.#hits, this.#hitCount, categoryIndex, limit);
  }

  /** The ids of the entries found, in order of first detection (a copy). */
  hitIds(): number[] {
    // A plain array: allocating a small typed array costs several times more.
    const count = this.#hitCount;
    const ids: number[] = new Array(count);
    for (let k = 0; k < count; k++) ids[k] = this.#hits[k]!;
    return ids;
  }

  /** Every entry found, with count and first index. Allocates; for display and evidence. */
  hits(): { entry: LexiconEntry; occurrences: number; index: number }[] {
    const out = [];
    for (let k = 0; k < this.#hitCount; k++) {
      out.push({
        entry: this.hitEntry(k),
        occurrences: this.hitOccurrences(k),
        index: this.hitIndex(k),
      });
    }
    return out;
  }
}

function grow(array: Int32Array): Int32Array<ArrayBuffer> {
  const bigger = new Int32Array(array.length * 2);
  bigger.set(array);
  return bigger;
}
