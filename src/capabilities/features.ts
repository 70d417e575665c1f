import { charTables, SKIP, SPACE, UNBOUNDED, WORD } from '../text/index.js';

/**
 * Lexical features of a text for the local pre-matcher: folded words, pairs of adjacent words, and
 * character n-grams of each padded word (` wea`, `weat`, …), so that "weather", "Weather's" and
 * "weatherman" share most of their features without any language-specific stemming. Scripts
 * written without spaces (Han, kana, Thai) count each character as a word, so their adjacent
 * pairs play the role of words.
 *
 * Features are hashed to 53-bit numbers (two independent 32-bit hashes), so extracting them
 * builds no strings; at the size of a capability registry a collision is vanishingly unlikely.
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

/** The features of one text with their counts; reused across calls to avoid allocation. */
export class FeatureBag {
  /** Slot of each feature key in the arrays below. */
  readonly #slots = new Map<number, number>();
  readonly keys: number[] = [];
  readonly blocks: number[] = [];
  readonly counts: number[] = [];

  /** Number of distinct features. */
  get size(): number {
    return this.keys.length;
  }

  clear(): void {
    this.#slots.clear();
    this.keys.length = 0;
    this.blocks.length = 0;
    this.counts.length = 0;
  }

  add(key: number, block: number): void {
    const slot = this.#slots.get(key);
    if (slot !== undefined) {
      this.counts[slot]!++;
      return;
    }
    this.#slots.set(key, this.keys.length);
    this.keys.push(key);
    this.blocks.push(block);
    this.counts.push(1);
  }
}

const FNV_OFFSET = 0x811c9dc5;
const FNV_PRIME = 0x01000193;
const MIX_SEED = 0x9747b28c;
const MIX_PRIME = 0x5bd1e995;
const HIGH = 2 ** 21;
// Seeds that keep the kinds of feature apart: the word "the" and the 3-gram "the" differ.
const KIND_WORD = 1;
const KIND_PAIR = 2;
const KIND_GRAM = 3;

/** Extracts {@link FeatureBag}s from texts. Stateless apart from a scratch buffer. */
export class FeatureExtractor {
  readonly minGram: number;
  readonly maxGram: number;
  readonly maxChars: number;
  readonly #classOf: Uint8Array;
  readonly #fold: Uint16Array;
  #word = new Uint16Array(64);

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

  /** Fills `bag` (cleared first) with the features of `text`. */
  extract(text: string, bag: FeatureBag): FeatureBag {
    bag.clear();
    const classOf = this.#classOf;
    const fold = this.#fold;
    const end = Math.min(text.length, this.maxChars);
    let length = 0;
    let previous = -1;
    const flush = () => {
      if (length === 0) return;
      const key = this.#addWord(length, bag);
      if (previous >= 0) bag.add(pairKey(previous, key), WORD_BLOCK);
      previous = key;
      length = 0;
    };
    for (let i = 0; i < end; i++) {
      const code = text.charCodeAt(i);
      const kind = classOf[code]!;
      if (kind === WORD) {
        this.#push(fold[code]!, length++);
      } else if (kind === UNBOUNDED) {
        flush();
        this.#push(fold[code]!, length++);
        flush();
      } else if (kind !== SKIP) {
        flush();
        // Punctuation other than spaces breaks the chain of word pairs ("weather. time" is not
        // the phrase "weather time").
        if (kind !== SPACE) previous = -1;
      }
    }
    flush();
    return bag;
  }

  #push(unit: number, at: number): void {
    if (at === this.#word.length) {
      const grown = new Uint16Array(this.#word.length * 2);
      grown.set(this.#word);
      this.#word = grown;
    }
    this.#word[at] = unit;
  }

  /** Adds the word in the buffer and its n-grams; returns the word's key. */
  #addWord(length: number, bag: FeatureBag): number {
    const word = this.#word;
    const key = hashUnits(word, 0, length, KIND_WORD, -1, -1);
    bag.add(key, WORD_BLOCK);
    // n-grams of " word ": position -1 and `length` stand for the padding spaces.
    for (let n = this.minGram; n <= this.maxGram; n++) {
      if (n > length + 2) break;
      for (let start = -1; start + n <= length + 1; start++) {
        bag.add(hashUnits(word, start, start + n, KIND_GRAM + n, -1, length), CHAR_BLOCK);
      }
    }
    return key;
  }
}

/**
 * Two 32-bit hashes of `units[from, to)` combined into one 53-bit key; positions equal to
 * `padLeft` or `padRight` read as a space.
 */
function hashUnits(
  units: Uint16Array,
  from: number,
  to: number,
  kind: number,
  padLeft: number,
  padRight: number,
): number {
  let h1 = (FNV_OFFSET ^ kind) >>> 0;
  let h2 = (MIX_SEED ^ kind) >>> 0;
  for (let i = from; i < to; i++) {
    const unit = i === padLeft || i === padRight ? 0x20 : units[i]!;
    h1 = Math.imul(h1 ^ unit, FNV_PRIME);
    h2 = Math.imul(h2 ^ unit, MIX_PRIME);
    h2 ^= h2 >>> 15;
  }
  return combine(h1, h2);
}

function pairKey(first: number, second: number): number {
  let h1 = (FNV_OFFSET ^ KIND_PAIR) >>> 0;
  let h2 = (MIX_SEED ^ KIND_PAIR) >>> 0;
  // The four 32-bit-or-less halves of the two keys, mixed in order.
  for (let part = 0; part < 4; part++) {
    const key = part < 2 ? first : second;
    const value = part % 2 === 0 ? Math.floor(key / HIGH) >>> 0 : key % HIGH;
    h1 = Math.imul(h1 ^ value, FNV_PRIME);
    h2 = Math.imul(h2 ^ value, MIX_PRIME);
    h2 ^= h2 >>> 15;
  }
  return combine(h1, h2);
}

function combine(h1: number, h2: number): number {
  return (h1 >>> 0) * HIGH + ((h2 >>> 0) >>> 11);
}
