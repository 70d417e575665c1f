import {
  charTables,
  SKIP as SKIP_CLASS,
  SPACE as SPACE_CLASS,
  UNBOUNDED as UNBOUNDED_CLASS,
  WORD as WORD_CLASS,
} from '../text/index.js';

// Module-local copies of the class constants: some loaders (tsx, vitest) turn imported bindings
// into property getters, which would cost a call per character in the extraction loop.
const WORD: number = WORD_CLASS;
const UNBOUNDED: number = UNBOUNDED_CLASS;
const SPACE: number = SPACE_CLASS;
const SKIP: number = SKIP_CLASS;

/**
 * Lexical features of a text for the local pre-matcher: folded words, pairs of adjacent words, and
 * character n-grams of each padded word (` wea`, `weat`, …), so that "weather", "Weather's" and
 * "weatherman" share most of their features without any language-specific stemming. Scripts
 * written without spaces (Han, kana, Thai) count each character as a word, so their adjacent
 * pairs play the role of words.
 *
 * A feature is identified by two independent 32-bit hashes (64 bits together, so collisions are
 * out of the question at any registry's size), kept in open-addressing tables of typed arrays:
 * extracting features builds no strings and allocates nothing once the tables have grown.
 */

/** Which part of the vector a feature belongs to: words (and word pairs), or character n-grams. */
export const WORD_BLOCK = 0;
/** See {@link WORD_BLOCK}. */
export const CHAR_BLOCK = 1;

/** Options of {@link FeatureExtractor}. */
export interface FeatureOptions {
  /** Shortest character n-gram. Default 3. */
  readonly minGram?: number;
  /** Longest character n-gram. Default 5. */
  readonly maxGram?: number;
  /** Only the first `maxChars` UTF-16 units of a text are read. Default 4,000. */
  readonly maxChars?: number;
}

/** Default of {@link FeatureOptions.maxChars}: tasks are short; a pasted log is not read whole. */
export const DEFAULT_MAX_CHARS = 4_000;

/**
 * A set of features keyed by their hash pair, each with a value (a count, or an id): an
 * open-addressing table that is cleared in constant time and grows when half full.
 */
export class FeatureTable {
  #mask = 0;
  #first = new Int32Array(0);
  #second = new Int32Array(0);
  #stamp = new Uint32Array(0);
  #values = new Int32Array(0);
  #blocks = new Uint8Array(0);
  /** Slots in use, in insertion order. */
  #order = new Int32Array(0);
  #generation = 1;
  #size = 0;

  constructor(capacity = 256) {
    let size = 16;
    while (size < capacity * 2) size <<= 1;
    this.#allocate(size);
  }

  /** Fresh, empty arrays of `size` slots (a power of two). */
  #allocate(size: number): void {
    this.#mask = size - 1;
    this.#first = new Int32Array(size);
    this.#second = new Int32Array(size);
    this.#stamp = new Uint32Array(size);
    this.#values = new Int32Array(size);
    this.#blocks = new Uint8Array(size);
    this.#order = new Int32Array(size >> 1);
    this.#generation = 1;
    this.#size = 0;
  }

  /** Number of distinct features. */
  get size(): number {
    return this.#size;
  }

  /** Empties the table (constant time). */
  clear(): void {
    this.#size = 0;
    this.#generation++;
    if (this.#generation === 0xffffffff) {
      this.#stamp.fill(0);
      this.#generation = 1;
    }
  }

  /** Adds 1 to the feature's value (inserting it with value 1). */
  count(first: number, second: number, block: number): void {
    const slot = this.#find(first, second);
    if (this.#stamp[slot] === this.#generation) this.#values[slot]!++;
    else this.#insert(slot, first, second, block, 1);
  }

  /** Sets the feature's value if it is absent; returns the value it has. */
  intern(first: number, second: number, block: number, value: number): number {
    const slot = this.#find(first, second);
    if (this.#stamp[slot] === this.#generation) return this.#values[slot]!;
    this.#insert(slot, first, second, block, value);
    return value;
  }

  /** The feature's value, or -1 when it is absent. */
  get(first: number, second: number): number {
    const slot = this.#find(first, second);
    return this.#stamp[slot] === this.#generation ? this.#values[slot]! : -1;
  }

  /** The `i`-th feature inserted (0 ≤ i < size): its hashes, block and value. */
  firstAt(i: number): number {
    return this.#first[this.#order[i]!]!;
  }
  secondAt(i: number): number {
    return this.#second[this.#order[i]!]!;
  }
  blockAt(i: number): number {
    return this.#blocks[this.#order[i]!]!;
  }
  valueAt(i: number): number {
    return this.#values[this.#order[i]!]!;
  }

  #find(first: number, second: number): number {
    const mask = this.#mask;
    let slot = (first ^ Math.imul(second, 0x9e3779b1)) & mask;
    while (
      this.#stamp[slot] === this.#generation &&
      (this.#first[slot] !== first || this.#second[slot] !== second)
    ) {
      slot = (slot + 1) & mask;
    }
    return slot;
  }

  #insert(slot: number, first: number, second: number, block: number, value: number): void {
    this.#stamp[slot] = this.#generation;
    this.#first[slot] = first;
    this.#second[slot] = second;
    this.#blocks[slot] = block;
    this.#values[slot] = value;
    this.#order[this.#size++] = slot;
    if (this.#size * 2 >= this.#mask + 1) this.#grow();
  }

  #grow(): void {
    const entries = Array.from({ length: this.#size }, (_, i) => [
      this.firstAt(i),
      this.secondAt(i),
      this.blockAt(i),
      this.valueAt(i),
    ]);
    this.#allocate((this.#mask + 1) * 2);
    for (const [first, second, block, value] of entries) {
      this.#insert(this.#find(first!, second!), first!, second!, block!, value!);
    }
  }
}

const FNV_OFFSET = 0x811c9dc5 | 0;
const FNV_PRIME = 0x01000193;
const MIX_SEED = 0x9747b28c | 0;
const MIX_PRIME = 0x5bd1e995;
// Seeds that keep the kinds of feature apart: the word "the" and the 3-gram "the" differ.
const KIND_WORD = 1;
const KIND_PAIR = 2;
const KIND_GRAM = 3;

/** Extracts features of texts into {@link FeatureTable}s (counting occurrences). */
export class FeatureExtractor {
  readonly minGram: number;
  readonly maxGram: number;
  readonly maxChars: number;
  readonly #classOf: Uint8Array;
  readonly #fold: Uint16Array;
  #word = new Uint16Array(64);
  // Hashes of the previous word, for word pairs.
  #lastFirst = 0;
  #lastSecond = 0;
  #hasPrevious = false;

  constructor(options: FeatureOptions = {}) {
    this.minGram = options.minGram ?? 3;
    this.maxGram = options.maxGram ?? 5;
    this.maxChars = options.maxChars ?? DEFAULT_MAX_CHARS;
    if (!(Number.isInteger(this.minGram) && this.minGram >= 1 && this.maxGram >= this.minGram)) {
      throw new RangeError(
        `character n-grams need 1 <= minGram <= maxGram, got ${this.minGram}..${this.maxGram}`,
      );
    }
    if (!(this.maxChars > 0)) throw new RangeError(`maxChars must be > 0, got ${this.maxChars}`);
    const { classOf, fold } = charTables();
    this.#classOf = classOf;
    this.#fold = fold;
  }

  /** Fills `into` (cleared first) with the features of `text` and their counts. */
  extract(text: string, into: FeatureTable): FeatureTable {
    into.clear();
    const classOf = this.#classOf;
    const fold = this.#fold;
    const end = Math.min(text.length, this.maxChars);
    let length = 0;
    this.#hasPrevious = false;
    for (let i = 0; i < end; i++) {
      const code = text.charCodeAt(i);
      const kind = classOf[code]!;
      if (kind === WORD) {
        this.#push(fold[code]!, length++);
      } else if (kind === UNBOUNDED) {
        if (length > 0) this.#addWord(length, into);
        this.#push(fold[code]!, 0);
        this.#addWord(1, into);
        length = 0;
      } else if (kind !== SKIP) {
        if (length > 0) this.#addWord(length, into);
        length = 0;
        // Punctuation other than spaces breaks the chain of word pairs ("weather. time" is not
        // the phrase "weather time").
        if (kind !== SPACE) this.#hasPrevious = false;
      }
    }
    if (length > 0) this.#addWord(length, into);
    return into;
  }

  #push(unit: number, at: number): void {
    if (at === this.#word.length) {
      const grown = new Uint16Array(this.#word.length * 2);
      grown.set(this.#word);
      this.#word = grown;
    }
    this.#word[at] = unit;
  }

  /** Adds the word in the buffer, its pair with the previous word, and its n-grams. */
  #addWord(length: number, into: FeatureTable): void {
    const word = this.#word;
    let first = FNV_OFFSET ^ KIND_WORD;
    let second = MIX_SEED ^ KIND_WORD;
    for (let i = 0; i < length; i++) {
      first = fnv(first, word[i]!);
      second = mix(second, word[i]!);
    }
    into.count(first, second, WORD_BLOCK);
    if (this.#hasPrevious) {
      const pairFirst = fnv(
        fnv(fnv(fnv(FNV_OFFSET ^ KIND_PAIR, this.#lastFirst), this.#lastSecond), first),
        second,
      );
      const pairSecond = mix(
        mix(mix(mix(MIX_SEED ^ KIND_PAIR, this.#lastFirst), this.#lastSecond), first),
        second,
      );
      into.count(pairFirst, pairSecond, WORD_BLOCK);
    }
    this.#lastFirst = first;
    this.#lastSecond = second;
    this.#hasPrevious = true;
    // n-grams of " word ": positions -1 and `length` stand for the padding spaces.
    for (let n = this.minGram; n <= this.maxGram && n <= length + 2; n++) {
      for (let start = -1; start + n <= length + 1; start++) {
        let gramFirst = FNV_OFFSET ^ (KIND_GRAM + n);
        let gramSecond = MIX_SEED ^ (KIND_GRAM + n);
        for (let i = start; i < start + n; i++) {
          const unit = i < 0 || i >= length ? 0x20 : word[i]!;
          gramFirst = fnv(gramFirst, unit);
          gramSecond = mix(gramSecond, unit);
        }
        into.count(gramFirst, gramSecond, CHAR_BLOCK);
      }
    }
  }
}

/** One step of FNV-1a (over a whole value rather than a byte: enough for hashing features). */
function fnv(hash: number, value: number): number {
  return Math.imul(hash ^ value, FNV_PRIME);
}

/** One step of a second, independent multiplicative hash. */
function mix(hash: number, value: number): number {
  const h = Math.imul(hash ^ value, MIX_PRIME);
  return h ^ (h >>> 15);
}
