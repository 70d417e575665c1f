import {
  charTables,
  SKIP as SKIP_CLASS,
  SPACE as SPACE_CLASS,
  UNBOUNDED as UNBOUNDED_CLASS,
  WORD as WORD_CLASS,
} from '../text/index.js';
import * as hash from './feature-hash.js';
import {
  analyzeWord,
  ENTITY_ADDRESS,
  ENTITY_MONEY,
  ENTITY_NAME,
  ENTITY_NONE,
  phraseConcepts,
  type WordInfo,
} from './word-analyzer.js';

// Module-local copies of the class constants and hash functions: some loaders (tsx, vitest) turn imported bindings
// into property getters, which would cost a call per character in the extraction loop.
const WORD: number = WORD_CLASS;
const UNBOUNDED: number = UNBOUNDED_CLASS;
const SPACE: number = SPACE_CLASS;
const SKIP: number = SKIP_CLASS;
const FNV_OFFSET: number = hash.FNV_OFFSET;
const MIX_SEED: number = hash.MIX_SEED;
const KIND_WORD: number = hash.KIND_WORD;
const KIND_PAIR: number = hash.KIND_PAIR;
const KIND_GRAM: number = hash.KIND_GRAM;
const KIND_CONCEPT: number = hash.KIND_CONCEPT;
const KIND_ENTITY: number = hash.KIND_ENTITY;
const KIND_SKIP: number = hash.KIND_SKIP;
const fnv: (hash: number, value: number) => number = hash.fnv;
const mix: (hash: number, value: number) => number = hash.mix;

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

/**
 * The kinds of feature. Words (their stems), concepts, entities and word pairs form the word
 * block of the vector; character n-grams the other block (see `tfidf.ts`).
 */
export const WORD_FEATURE = 0;
export const CHAR_FEATURE = 1;
export const CONCEPT_FEATURE = 2;
export const ENTITY_FEATURE = 3;
/** Pairs of words (adjacent, or a verb and its object): word block, but not single words. */
export const PAIR_FEATURE = 4;
/**
 * A word that names an entity ("Dave", "Monday", "42"): a word like any other, except that when
 * no example has it, it does not count as wording the examples fail to cover (its entity does).
 */
export const NAMED_FEATURE = 5;

/** Options of {@link FeatureExtractor}. */
export interface FeatureOptions {
  /** Shortest character n-gram. Default 3. */
  readonly minGram?: number;
  /** Longest character n-gram. Default 4. */
  readonly maxGram?: number;
  /** Only the first `maxChars` UTF-16 units of a text are read. Default 4,000. */
  readonly maxChars?: number;
  /**
   * Analyse English words: stems instead of words ("booking" → "book", "bought" → "buy"),
   * concepts they evoke ("purchase" → buy, "day off" → vacation), entities (numbers, times,
   * dates, money, capitalised names). Default true; words in other scripts are read as they are
   * either way.
   */
  readonly english?: boolean;
}

/** One word of a text as the extractor read it (for explanations). */
export interface ReadWord {
  /** The word, folded (lower case, no diacritics). */
  readonly text: string;
  /** Its stem, the word itself when it was not analysed. */
  readonly stem: string;
  /** Concepts it evokes, alone or as the last word of a phrase. */
  readonly concepts: readonly number[];
  /** The kind of entity it names (`ENTITY_*` of `word-analyzer.ts`), 0 for none. */
  readonly entity: number;
  /** An article, pronoun, auxiliary or preposition: no evidence of anything on its own. */
  readonly functionWord: boolean;
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
  #kinds = new Uint8Array(0);
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
    this.#kinds = new Uint8Array(size);
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
  count(first: number, second: number, kind: number): void {
    const slot = this.#find(first, second);
    if (this.#stamp[slot] === this.#generation) this.#values[slot]!++;
    else this.#insert(slot, first, second, kind, 1);
  }

  /** Sets the feature's value if it is absent; returns the value it has. */
  intern(first: number, second: number, kind: number, value: number): number {
    const slot = this.#find(first, second);
    if (this.#stamp[slot] === this.#generation) return this.#values[slot]!;
    this.#insert(slot, first, second, kind, value);
    return value;
  }

  /** The feature's value, or -1 when it is absent. */
  get(first: number, second: number): number {
    const slot = this.#find(first, second);
    return this.#stamp[slot] === this.#generation ? this.#values[slot]! : -1;
  }

  /** The `i`-th feature inserted (0 ≤ i < size): its hashes, kind and value. */
  firstAt(i: number): number {
    return this.#first[this.#order[i]!]!;
  }
  secondAt(i: number): number {
    return this.#second[this.#order[i]!]!;
  }
  kindAt(i: number): number {
    return this.#kinds[this.#order[i]!]!;
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

  #insert(slot: number, first: number, second: number, kind: number, value: number): void {
    this.#stamp[slot] = this.#generation;
    this.#first[slot] = first;
    this.#second[slot] = second;
    this.#kinds[slot] = kind;
    this.#values[slot] = value;
    this.#order[this.#size++] = slot;
    if (this.#size * 2 >= this.#mask + 1) this.#grow();
  }

  #grow(): void {
    const entries = Array.from({ length: this.#size }, (_, i) => [
      this.firstAt(i),
      this.secondAt(i),
      this.kindAt(i),
      this.valueAt(i),
    ]);
    this.#allocate((this.#mask + 1) * 2);
    for (const [first, second, kind, value] of entries) {
      this.#insert(this.#find(first!, second!), first!, second!, kind!, value!);
    }
  }
}

/** Symbols that make the number after them an amount of money. */
const MONEY_SYMBOLS = new Set([0x24, 0xa3, 0xa5, 0x20ac]);
const APOSTROPHE = 0x27;
const AT_SIGN = 0x40;
const NONE: readonly number[] = [];

/** Extracts features of texts into {@link FeatureTable}s (counting occurrences). */
export class FeatureExtractor {
  readonly minGram: number;
  readonly maxGram: number;
  readonly maxChars: number;
  readonly english: boolean;
  readonly #classOf: Uint8Array;
  readonly #fold: Uint16Array;
  #word = new Uint16Array(64);
  // State of the word being read and of the words before it, reset by `extract`.
  #lastFirst = 0;
  #lastSecond = 0;
  #hasPrevious = false;
  /** The last content word (not a function word) and whether words came between. */
  #contentFirst = 0;
  #contentSecond = 0;
  #hasContent = false;
  #gap = false;
  /** Phrase ids of the two previous words (-1: none, or the chain was broken). */
  #phrase1 = -1;
  #phrase2 = -1;
  #sentenceStart = true;
  #capitalised = false;
  #lowerSeen = false;
  #ascii = true;
  #money = false;
  #address = false;
  #read: ReadWord[] | undefined;

  constructor(options: FeatureOptions = {}) {
    this.minGram = options.minGram ?? 3;
    this.maxGram = options.maxGram ?? 4;
    this.maxChars = options.maxChars ?? DEFAULT_MAX_CHARS;
    this.english = options.english ?? true;
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

  /**
   * Fills `into` (cleared first) with the features of `text` and their counts. When `read` is
   * given, each word is also appended to it as the extractor understood it (for explanations).
   */
  extract(text: string, into: FeatureTable, read?: ReadWord[]): FeatureTable {
    into.clear();
    const classOf = this.#classOf;
    const fold = this.#fold;
    const end = Math.min(text.length, this.maxChars);
    let length = 0;
    this.#hasPrevious = false;
    this.#hasContent = false;
    this.#phrase1 = -1;
    this.#phrase2 = -1;
    this.#sentenceStart = true;
    this.#money = false;
    this.#address = false;
    this.#read = read;
    for (let i = 0; i < end; i++) {
      const code = text.charCodeAt(i);
      const kind = classOf[code]!;
      if (kind === WORD) {
        const unit = fold[code]!;
        if (length === 0) {
          this.#capitalised = code >= 0x41 && code <= 0x5a;
          this.#lowerSeen = false;
          this.#ascii = true;
        } else if (code >= 0x61 && code <= 0x7a) this.#lowerSeen = true;
        if (unit > 0x7f) this.#ascii = false;
        this.#push(unit, length++);
      } else if (kind === UNBOUNDED) {
        if (length > 0) this.#addWord(length, into);
        this.#capitalised = false;
        this.#ascii = false;
        this.#push(fold[code]!, 0);
        this.#addWord(1, into);
        length = 0;
      } else if (kind !== SKIP) {
        const unit = fold[code]!;
        // An apostrophe inside a word splits it ("don't" → "don" "t") but keeps the chain of
        // word pairs; other punctuation breaks it ("weather. time" is not "weather time").
        const keepsChain = kind === SPACE || (unit === APOSTROPHE && length > 0);
        if (length > 0) this.#addWord(length, into);
        length = 0;
        if (!keepsChain) this.#breakChain();
        if (unit === 0x2e || unit === 0x21 || unit === 0x3f || unit === 0x0a) {
          this.#sentenceStart = true;
        }
        if (MONEY_SYMBOLS.has(unit)) this.#money = true;
        else if (unit === AT_SIGN) this.#address = true;
      }
    }
    if (length > 0) this.#addWord(length, into);
    this.#read = undefined;
    return into;
  }

  #breakChain(): void {
    this.#hasPrevious = false;
    this.#hasContent = false;
    this.#phrase1 = -1;
    this.#phrase2 = -1;
  }

  #push(unit: number, at: number): void {
    if (at === this.#word.length) {
      const grown = new Uint16Array(this.#word.length * 2);
      grown.set(this.#word);
      this.#word = grown;
    }
    this.#word[at] = unit;
  }

  /**
   * Adds the word in the buffer: its stem (or the word itself), its pair with the previous
   * word, the concepts and entity it carries, and the character n-grams of its letters.
   */
  #addWord(length: number, into: FeatureTable): void {
    const word = this.#word;
    const info = this.english && this.#ascii ? analyzeWord(wordText(word, length)) : undefined;
    let first: number;
    let second: number;
    if (info === undefined) {
      first = FNV_OFFSET ^ KIND_WORD;
      second = MIX_SEED ^ KIND_WORD;
      for (let i = 0; i < length; i++) {
        first = fnv(first, word[i]!);
        second = mix(second, word[i]!);
      }
    } else {
      first = info.first;
      second = info.second;
    }
    const entity = info === undefined ? ENTITY_NONE : this.#entityOf(info, length);
    into.count(first, second, entity === ENTITY_NONE ? WORD_FEATURE : NAMED_FEATURE);
    if (this.#hasPrevious) {
      const pairFirst = fnv(
        fnv(fnv(fnv(FNV_OFFSET ^ KIND_PAIR, this.#lastFirst), this.#lastSecond), first),
        second,
      );
      const pairSecond = mix(
        mix(mix(mix(MIX_SEED ^ KIND_PAIR, this.#lastFirst), this.#lastSecond), first),
        second,
      );
      into.count(pairFirst, pairSecond, PAIR_FEATURE);
    }
    this.#lastFirst = first;
    this.#lastSecond = second;
    this.#hasPrevious = true;
    if (info?.functionWord === true) this.#gap = true;
    else {
      // A verb and its object across function words: "send an email" → (send, email).
      if (this.#hasContent && this.#gap) {
        into.count(
          fnv(
            fnv(fnv(fnv(FNV_OFFSET ^ KIND_SKIP, this.#contentFirst), this.#contentSecond), first),
            second,
          ),
          mix(
            mix(mix(mix(MIX_SEED ^ KIND_SKIP, this.#contentFirst), this.#contentSecond), first),
            second,
          ),
          WORD_FEATURE,
        );
      }
      this.#contentFirst = first;
      this.#contentSecond = second;
      this.#hasContent = true;
      this.#gap = false;
    }
    if (info !== undefined) this.#addMeaning(info, entity, length, into);
    else {
      this.#phrase2 = -1;
      this.#phrase1 = -1;
      this.#money = false;
      this.#address = false;
      const text = wordText(word, length);
      this.#read?.push({
        text,
        stem: text,
        concepts: NONE,
        entity: ENTITY_NONE,
        functionWord: false,
      });
    }
    this.#sentenceStart = false;
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
        into.count(gramFirst, gramSecond, CHAR_FEATURE);
      }
    }
  }

  /** The entity an English word names, from the word itself and what came just before it. */
  #entityOf(info: WordInfo, length: number): number {
    if (this.#address) return ENTITY_ADDRESS;
    if (this.#money && info.entity !== ENTITY_NONE) return ENTITY_MONEY;
    if (
      info.entity === ENTITY_NONE &&
      this.#capitalised &&
      this.#lowerSeen &&
      !this.#sentenceStart &&
      length > 1
    ) {
      return ENTITY_NAME; // "Bob", "Paris": a capital inside a sentence, not an acronym
    }
    return info.entity;
  }

  /** The concepts (of the word, and of a phrase it ends) and the entity of an English word. */
  #addMeaning(info: WordInfo, entity: number, length: number, into: FeatureTable): void {
    const read = this.#read;
    const concepts: number[] | undefined = read ? [] : undefined;
    for (const concept of info.concepts) {
      countConcept(concept, into);
      concepts?.push(concept);
    }
    const id = info.phraseId;
    if (id >= 0) {
      for (const concept of phraseConcepts(this.#phrase1, id) ?? NONE) {
        countConcept(concept, into);
        concepts?.push(concept);
      }
      for (const concept of phraseConcepts(this.#phrase2, this.#phrase1, id) ?? NONE) {
        countConcept(concept, into);
        concepts?.push(concept);
      }
    }
    this.#phrase2 = this.#phrase1;
    this.#phrase1 = id;
    this.#money = false;
    this.#address = false;
    if (entity !== ENTITY_NONE) {
      into.count(
        fnv(FNV_OFFSET ^ KIND_ENTITY, entity),
        mix(MIX_SEED ^ KIND_ENTITY, entity),
        ENTITY_FEATURE,
      );
    }
    read?.push({
      text: wordText(this.#word, length),
      stem: info.stem,
      concepts: concepts ?? NONE,
      entity,
      functionWord: info.functionWord,
    });
  }
}

function countConcept(concept: number, into: FeatureTable): void {
  into.count(
    fnv(FNV_OFFSET ^ KIND_CONCEPT, concept),
    mix(MIX_SEED ^ KIND_CONCEPT, concept),
    CONCEPT_FEATURE,
  );
}

/** The folded word in the buffer as a string. */
function wordText(word: Uint16Array, length: number): string {
  let text = '';
  for (let i = 0; i < length; i++) text += String.fromCharCode(word[i]!);
  return text;
}
