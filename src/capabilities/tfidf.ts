import { clearArray } from '../core/arrays.js';
import {
  CHAR_FEATURE as CHAR,
  type FeatureExtractor,
  FeatureTable,
  NAMED_FEATURE as NAMED,
  PAIR_FEATURE as PAIR,
} from './features.js';

// Module-local copies: some loaders turn imported bindings into getters (see features.ts).
const CHAR_FEATURE: number = CHAR;
const PAIR_FEATURE: number = PAIR;
const NAMED_FEATURE: number = NAMED;

/**
 * A TF-IDF index over a small set of documents (the example queries of a capability registry),
 * compiled once. A query is compared with every document by cosine similarity, computed through
 * an inverted index, so its cost grows with the query's features and their postings, not with
 * the number of documents times the vocabulary.
 *
 * Words (with their pairs, concepts and entities) and character n-grams are weighted in two
 * separate blocks, each normalised on its own, and the two cosines are blended: n-grams outnumber
 * words several times over and would otherwise drown them.
 *
 * A document is made of parts (a capability's examples): each part is normalised before they are
 * added up, so a long example does not outweigh four short ones, and a part may weigh less than
 * the others (the capability's description, next to its examples).
 */

/** One part of a document, with its weight (default 1). */
export interface IndexPart {
  readonly text: string;
  readonly weight?: number;
}

/** A document: one text, or parts added up after each is normalised. */
export type IndexDocument = string | readonly IndexPart[];

/** See {@link TfidfIndex.lastQuery}. */
export interface LastQuery {
  readonly ids: Int32Array;
  readonly weights: Float64Array;
  readonly count: number;
  readonly wordNorm: number;
  readonly charNorm: number;
}

/** Options of {@link TfidfIndex}. */
export interface TfidfOptions {
  /** Share of the word cosine in the blended similarity (the rest is character n-grams). */
  readonly wordWeight?: number;
  /** Weight of a concept feature relative to a word ("purchase" meeting "buy"). Default 1.5. */
  readonly conceptWeight?: number;
  /** Weight of an entity feature relative to a word (a name meeting a name). Default 0.25. */
  readonly entityWeight?: number;
}

/** Default of {@link TfidfOptions.wordWeight}. */
export const DEFAULT_WORD_WEIGHT = 0.65;
/** Default of {@link TfidfOptions.conceptWeight}. */
export const DEFAULT_CONCEPT_WEIGHT = 1.5;
/** Default of {@link TfidfOptions.entityWeight}. */
export const DEFAULT_ENTITY_WEIGHT = 0.25;

/** A compiled TF-IDF index. Not safe for concurrent use from several threads (scratch buffers). */
export class TfidfIndex {
  /** Number of documents. */
  readonly size: number;
  readonly wordWeight: number;
  readonly #extractor: FeatureExtractor;
  /** Weight of each kind of feature (indexed by kind). */
  readonly #kindWeight: Float64Array;
  /** Feature id of each feature some document has. */
  readonly #vocabulary = new FeatureTable(1024);
  readonly #idf: Float64Array;
  /** The IDF a feature absent from every document would have (for the coverage of a query). */
  readonly #unseenIdf: number;
  // Postings in compressed rows: the documents of feature f are postDoc[postStart[f] .. postStart[f+1]).
  readonly #postStart: Int32Array;
  readonly #postDoc: Int32Array;
  readonly #postWeight: Float64Array;
  readonly #isChar: Uint8Array;
  readonly #query = new FeatureTable(256);
  readonly #scratch = new FeatureTable(64);
  readonly #words: Float64Array;
  readonly #chars: Float64Array;
  // The last query's known features and their weights, for residual similarities.
  #queryIds = new Int32Array(256);
  #queryWeights = new Float64Array(256);
  #queryCount = 0;
  #wordNorm = 0;

  constructor(
    documents: readonly IndexDocument[],
    extractor: FeatureExtractor,
    options: TfidfOptions = {},
  ) {
    this.wordWeight = options.wordWeight ?? DEFAULT_WORD_WEIGHT;
    for (const [name, value] of Object.entries(options)) {
      if (value !== undefined && !(typeof value === 'number' && value >= 0 && value <= 10)) {
        throw new RangeError(`${name} must be a number in [0, 10], got ${String(value)}`);
      }
    }
    if (!(this.wordWeight >= 0 && this.wordWeight <= 1)) {
      throw new RangeError(`wordWeight must be in [0, 1], got ${this.wordWeight}`);
    }
    this.#kindWeight = Float64Array.of(
      1,
      1,
      options.conceptWeight ?? DEFAULT_CONCEPT_WEIGHT,
      options.entityWeight ?? DEFAULT_ENTITY_WEIGHT,
      1,
      1,
    );
    this.size = documents.length;
    this.#extractor = extractor;
    const vocabulary = this.#vocabulary;
    const frequency: number[] = [];
    const kindOf: number[] = [];
    const bag = new FeatureTable(64);
    // Per document, per part: the feature ids and counts of its features, and the part's weight.
    const rows = documents.map((document) => {
      const parts = typeof document === 'string' ? [{ text: document }] : document;
      const seen = new Set<number>();
      return parts.map((part) => {
        extractor.extract(part.text, bag);
        const ids = new Int32Array(bag.size);
        const counts = new Int32Array(bag.size);
        for (let i = 0; i < bag.size; i++) {
          const id = vocabulary.intern(
            bag.firstAt(i),
            bag.secondAt(i),
            bag.kindAt(i),
            frequency.length,
          );
          if (id === frequency.length) {
            frequency.push(0);
            kindOf.push(bag.kindAt(i));
          }
          if (!seen.has(id)) {
            seen.add(id);
            frequency[id]!++;
          }
          ids[i] = id;
          counts[i] = bag.valueAt(i);
        }
        return { ids, counts, weight: part.weight ?? 1 };
      });
    });
    const n = documents.length;
    this.#idf = Float64Array.from(
      frequency,
      (df, id) => (Math.log((n + 1) / (df + 1)) + 1) * this.#kindWeight[kindOf[id]!]!,
    );
    this.#unseenIdf = Math.log(n + 1) + 1;
    this.#isChar = Uint8Array.from(kindOf, (kind) => (kind === CHAR_FEATURE ? 1 : 0));

    // Each document's vector: the sum of its parts' vectors, each normalised per block.
    const vectors = rows.map((parts) => {
      const vector = new Map<number, number>();
      for (const { ids, counts, weight } of parts) {
        const norms = [0, 0];
        const weights = Float64Array.from(
          ids,
          (id, i) => (1 + Math.log(counts[i]!)) * this.#idf[id]!,
        );
        ids.forEach((id, i) => {
          norms[this.#isChar[id]!]! += weights[i]! ** 2;
        });
        ids.forEach((id, i) => {
          const norm = Math.sqrt(norms[this.#isChar[id]!]!);
          vector.set(id, (vector.get(id) ?? 0) + (weight * weights[i]!) / norm);
        });
      }
      return vector;
    });
    this.#postStart = new Int32Array(frequency.length + 1);
    for (const vector of vectors) for (const id of vector.keys()) this.#postStart[id + 1]!++;
    for (let id = 0; id < frequency.length; id++) {
      this.#postStart[id + 1]! += this.#postStart[id]!;
    }
    const total = this.#postStart[frequency.length]!;
    this.#postDoc = new Int32Array(total);
    this.#postWeight = new Float64Array(total);
    const fill = Int32Array.from(this.#postStart.subarray(0, frequency.length));
    vectors.forEach((vector, doc) => {
      const norms = [0, 0];
      for (const [id, value] of vector) norms[this.#isChar[id]!]! += value * value;
      for (const [id, value] of vector) {
        const at = fill[id]!++;
        this.#postDoc[at] = doc;
        this.#postWeight[at] = value / Math.sqrt(norms[this.#isChar[id]!]!);
      }
    });
    this.#words = new Float64Array(n);
    this.#chars = new Float64Array(n);
  }

  /**
   * Writes the similarity in [0, 1] of `text` to every document into `out` (length
   * {@link size}) and returns the text's coverage: the share of the weight of its words (with
   * their concepts and entities; not pairs or n-grams) that some document has. Features no document has do not count in the cosine (as in ordinary TF-IDF);
   * the coverage tells the caller how much of the text the index could judge at all, so a text in
   * another language, or made of words no example uses, is not mistaken for a clear mismatch.
   */
  similarities(text: string, out: Float64Array): number {
    const bag = this.#extractor.extract(text, this.#query);
    if (this.#queryIds.length < bag.size) {
      this.#queryIds = new Int32Array(bag.size * 2);
      this.#queryWeights = new Float64Array(bag.size * 2);
    }
    let count = 0;
    let wordNorm = 0;
    let charNorm = 0;
    let seen = 0;
    let unseen = 0;
    for (let i = 0; i < bag.size; i++) {
      const id = this.#vocabulary.get(bag.firstAt(i), bag.secondAt(i));
      const tf = 1 + Math.log(bag.valueAt(i));
      const kind = bag.kindAt(i);
      // Coverage counts single words, concepts and entities: not n-grams and pairs, and not a
      // name, number or date no example has (its entity stands for it).
      const counts = kind !== CHAR_FEATURE && kind !== PAIR_FEATURE;
      if (id < 0) {
        if (counts && kind !== NAMED_FEATURE)
          unseen += (tf * this.#unseenIdf * this.#kindWeight[kind]!) ** 2;
        continue;
      }
      const weight = tf * this.#idf[id]!;
      if (counts) seen += weight * weight;
      if (this.#isChar[id] === 1) charNorm += weight * weight;
      else wordNorm += weight * weight;
      this.#queryIds[count] = id;
      this.#queryWeights[count++] = weight;
    }
    this.#queryCount = count;
    this.#wordNorm = wordNorm;
    this.#accumulate(wordNorm, charNorm, out);
    return seen > 0 ? seen / (seen + unseen) : 0;
  }

  /**
   * After {@link similarities}: the word similarity (words, pairs, concepts, entities; no
   * character n-grams) to every document of what is left of the last text once the features of
   * document `explained` are taken out, written into `out`. Returns the share of the text's word
   * weight that is left (0 when the document explains every word). "Email Bob the forecast",
   * once the e-mail capability's examples explain "email" and "bob", leaves "the forecast",
   * which the weather capability's examples explain.
   */
  residualSimilarities(explained: number, out: Float64Array): number {
    const words = this.#words;
    words.fill(0);
    let norm = 0;
    for (let k = 0; k < this.#queryCount; k++) {
      const id = this.#queryIds[k]!;
      if (this.#isChar[id] === 1) continue;
      const start = this.#postStart[id]!;
      const end = this.#postStart[id + 1]!;
      let inExplained = false;
      for (let at = start; at < end && !inExplained; at++) {
        inExplained = this.#postDoc[at] === explained;
      }
      if (inExplained) continue;
      const weight = this.#queryWeights[k]!;
      norm += weight * weight;
      for (let at = start; at < end; at++) {
        words[this.#postDoc[at]!]! += weight * this.#postWeight[at]!;
      }
    }
    const scale = norm > 0 ? 1 / Math.sqrt(norm) : 0;
    for (let doc = 0; doc < this.size; doc++) out[doc] = Math.min(1, words[doc]! * scale);
    return this.#wordNorm > 0 ? norm / this.#wordNorm : 0;
  }

  /** Cosines of the last query. */
  #accumulate(wordNorm: number, charNorm: number, out: Float64Array): void {
    const words = this.#words;
    const chars = this.#chars;
    words.fill(0);
    chars.fill(0);
    for (let k = 0; k < this.#queryCount; k++) {
      const id = this.#queryIds[k]!;
      const weight = this.#queryWeights[k]!;
      const into = this.#isChar[id] === 1 ? chars : words;
      for (let at = this.#postStart[id]!, end = this.#postStart[id + 1]!; at < end; at++) {
        into[this.#postDoc[at]!]! += weight * this.#postWeight[at]!;
      }
    }
    const wordScale = wordNorm > 0 ? this.wordWeight / Math.sqrt(wordNorm) : 0;
    const charScale = charNorm > 0 ? (1 - this.wordWeight) / Math.sqrt(charNorm) : 0;
    for (let doc = 0; doc < this.size; doc++) {
      // Rounding can push a cosine a hair above 1.
      out[doc] = Math.min(1, words[doc]! * wordScale + chars[doc]! * charScale);
    }
  }

  /** Number of distinct features the documents have (feature ids are below it). */
  get vocabularySize(): number {
    return this.#idf.length;
  }

  /** Whether feature `id` is a character n-gram (else a word, pair, concept or entity). */
  isCharFeature(id: number): boolean {
    return this.#isChar[id] === 1;
  }

  /**
   * The features of `text` that some document has (ids into `ids`, TF-IDF weights into
   * `weights`); returns how many. The word block is normalised to unit length and the character
   * n-grams to `charWeight` (0 leaves them out). Leaves the last query alone.
   */
  featureVector(text: string, charWeight: number, ids: number[], weights: number[]): number {
    const bag = this.#extractor.extract(text, this.#scratch);
    clearArray(ids);
    clearArray(weights);
    const norms = [0, 0];
    for (let i = 0; i < bag.size; i++) {
      const id = this.#vocabulary.get(bag.firstAt(i), bag.secondAt(i));
      if (id < 0 || (charWeight === 0 && this.#isChar[id] === 1)) continue;
      const weight = (1 + Math.log(bag.valueAt(i))) * this.#idf[id]!;
      ids.push(id);
      weights.push(weight);
      norms[this.#isChar[id]!]! += weight * weight;
    }
    const scales = blockScales(norms[0]!, norms[1]!, charWeight);
    for (let i = 0; i < weights.length; i++) weights[i]! *= scales[this.#isChar[ids[i]!]!]!;
    return ids.length;
  }

  /**
   * The features of the last {@link similarities} query that some document has: their ids and
   * TF-IDF weights (the first `count` entries; valid until the next query), and the squared
   * norms of its word block and of its character n-grams.
   */
  lastQuery(): LastQuery {
    let charNorm = 0;
    for (let k = 0; k < this.#queryCount; k++) {
      if (this.#isChar[this.#queryIds[k]!] === 1) charNorm += this.#queryWeights[k]! ** 2;
    }
    return {
      ids: this.#queryIds,
      weights: this.#queryWeights,
      count: this.#queryCount,
      wordNorm: this.#wordNorm,
      charNorm,
    };
  }

  /** The weight (IDF × the kind's weight) of a feature, 0 when no document has it. */
  weightOf(first: number, second: number): number {
    const id = this.#vocabulary.get(first, second);
    return id < 0 ? 0 : this.#idf[id]!;
  }
}

/** Scales that bring the word block to unit length and the character block to `charWeight`. */
function blockScales(wordNorm: number, charNorm: number, charWeight: number): [number, number] {
  return [
    wordNorm > 0 ? 1 / Math.sqrt(wordNorm) : 0,
    charNorm > 0 ? charWeight / Math.sqrt(charNorm) : 0,
  ];
}
