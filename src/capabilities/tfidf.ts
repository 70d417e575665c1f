import { CHAR_BLOCK as CHAR, type FeatureExtractor, FeatureTable } from './features.js';

// A module-local copy: some loaders turn imported bindings into getters (see features.ts).
const CHAR_BLOCK: number = CHAR;

/**
 * A TF-IDF index over a small set of documents (the example queries of a capability registry),
 * compiled once. A query is compared with every document by cosine similarity, computed through
 * an inverted index, so its cost grows with the query's features and their postings, not with
 * the number of documents times the vocabulary.
 *
 * Words and character n-grams are weighted in two separate blocks, each normalised on its own,
 * and the two cosines are blended: n-grams outnumber words several times over and would otherwise
 * drown them.
 */

/** Options of {@link TfidfIndex}. */
export interface TfidfOptions {
  /** Share of the word cosine in the blended similarity (the rest is character n-grams). */
  readonly wordWeight?: number;
}

/** Default of {@link TfidfOptions.wordWeight}. */
export const DEFAULT_WORD_WEIGHT = 0.5;

/** A compiled TF-IDF index. Not safe for concurrent use from several threads (scratch buffers). */
export class TfidfIndex {
  /** Number of documents. */
  readonly size: number;
  readonly wordWeight: number;
  readonly #extractor: FeatureExtractor;
  /** Feature id of each feature some document has. */
  readonly #vocabulary = new FeatureTable(1024);
  readonly #idf: Float64Array;
  /** The IDF a feature absent from every document would have (for the coverage of a query). */
  readonly #unseenIdf: number;
  // Postings in compressed rows: the documents of feature f are postDoc[postStart[f] .. postStart[f+1]).
  readonly #postStart: Int32Array;
  readonly #postDoc: Int32Array;
  readonly #postWeight: Float64Array;
  readonly #postBlock: Uint8Array;
  readonly #query = new FeatureTable(256);
  readonly #words: Float64Array;
  readonly #chars: Float64Array;

  constructor(
    documents: readonly string[],
    extractor: FeatureExtractor,
    options: TfidfOptions = {},
  ) {
    this.wordWeight = options.wordWeight ?? DEFAULT_WORD_WEIGHT;
    if (!(this.wordWeight >= 0 && this.wordWeight <= 1)) {
      throw new RangeError(`wordWeight must be in [0, 1], got ${this.wordWeight}`);
    }
    this.size = documents.length;
    this.#extractor = extractor;
    const vocabulary = this.#vocabulary;
    const frequency: number[] = [];
    const blockOf: number[] = [];
    // Per document: the feature ids and counts of its features.
    const rows = documents.map((text) => {
      const bag = extractor.extract(text, new FeatureTable(64));
      const ids = new Int32Array(bag.size);
      const counts = new Int32Array(bag.size);
      for (let i = 0; i < bag.size; i++) {
        const id = vocabulary.intern(
          bag.firstAt(i),
          bag.secondAt(i),
          bag.blockAt(i),
          frequency.length,
        );
        if (id === frequency.length) {
          frequency.push(0);
          blockOf.push(bag.blockAt(i));
        }
        frequency[id]!++;
        ids[i] = id;
        counts[i] = bag.valueAt(i);
      }
      return { ids, counts };
    });
    const n = documents.length;
    this.#idf = Float64Array.from(frequency, (df) => Math.log((n + 1) / (df + 1)) + 1);
    this.#unseenIdf = Math.log(n + 1) + 1;

    this.#postStart = new Int32Array(frequency.length + 1);
    for (let id = 0; id < frequency.length; id++) {
      this.#postStart[id + 1] = this.#postStart[id]! + frequency[id]!;
    }
    const total = this.#postStart[frequency.length]!;
    this.#postDoc = new Int32Array(total);
    this.#postWeight = new Float64Array(total);
    this.#postBlock = Uint8Array.from(blockOf);
    const fill = Int32Array.from(this.#postStart.subarray(0, frequency.length));
    rows.forEach(({ ids, counts }, doc) => {
      const norms = [0, 0];
      const weights = Float64Array.from(
        ids,
        (id, i) => (1 + Math.log(counts[i]!)) * this.#idf[id]!,
      );
      ids.forEach((id, i) => {
        norms[this.#postBlock[id]!]! += weights[i]! ** 2;
      });
      ids.forEach((id, i) => {
        const at = fill[id]!++;
        this.#postDoc[at] = doc;
        this.#postWeight[at] = weights[i]! / Math.sqrt(norms[this.#postBlock[id]!]!);
      });
    });
    this.#words = new Float64Array(n);
    this.#chars = new Float64Array(n);
  }

  /**
   * Writes the similarity in [0, 1] of `text` to every document into `out` (length
   * {@link size}) and returns the text's coverage: the share of its feature weight that some
   * document has. Features no document has do not count in the cosine (as in ordinary TF-IDF);
   * the coverage tells the caller how much of the text the index could judge at all, so a text in
   * another language, or made of words no example uses, is not mistaken for a clear mismatch.
   */
  similarities(text: string, out: Float64Array): number {
    const bag = this.#extractor.extract(text, this.#query);
    const words = this.#words;
    const chars = this.#chars;
    words.fill(0);
    chars.fill(0);
    let wordNorm = 0;
    let charNorm = 0;
    let unseen = 0;
    for (let i = 0; i < bag.size; i++) {
      const id = this.#vocabulary.get(bag.firstAt(i), bag.secondAt(i));
      const tf = 1 + Math.log(bag.valueAt(i));
      if (id < 0) {
        unseen += (tf * this.#unseenIdf) ** 2;
        continue;
      }
      const weight = tf * this.#idf[id]!;
      const isChar = this.#postBlock[id] === CHAR_BLOCK;
      if (isChar) charNorm += weight * weight;
      else wordNorm += weight * weight;
      const into = isChar ? chars : words;
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
    const seen = wordNorm + charNorm;
    return seen > 0 ? seen / (seen + unseen) : 0;
  }
}
