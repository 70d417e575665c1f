import type { TfidfIndex } from './tfidf.js';

/**
 * A small multinomial logistic regression over the features of the capabilities' positive
 * examples, fitted when the pre-matcher is compiled. Cosine similarity to each capability's
 * examples says how much a task resembles them; the fitted weights say which words tell one
 * capability from the others ("status" separates "leave request status" from "leave request"),
 * which five examples per capability leave to chance. Its probabilities only re-rank the
 * capabilities (see `prematcher.ts`); ruling one out stays with the similarity.
 *
 * It reads the words (with their pairs, concepts and entities) and, at a lower weight, the
 * character n-grams, which tie the forms of a word the stemmer leaves apart ("colour" and
 * "color", a misspelt "recieve"). The fitted weights are kept sparse: a feature carries weights only for the
 * classes its examples moved, so a task costs its features' non-zero weights, not features ×
 * classes.
 *
 * Deterministic: fixed epochs, a fixed learning rate (AdaGrad) and a seeded order.
 */

/** Options of {@link Discriminator}. */
export interface DiscriminatorOptions {
  /** Passes over the examples. Default 16. */
  readonly epochs?: number;
  /** AdaGrad learning rate. Default 0.3. */
  readonly learningRate?: number;
  /** L2 penalty. Default 1e-4. */
  readonly l2?: number;
  /**
   * Weight of the character n-grams beside the words (whose block has unit length); 0 reads
   * words only. Default 0.5.
   */
  readonly charWeight?: number;
}

/** A training text and the class (capability) it belongs to. */
export interface LabelledText {
  readonly text: string;
  readonly label: number;
}

export class Discriminator {
  readonly classes: number;
  readonly charWeight: number;
  /** Compact row of each feature id of the index, -1 for features it never saw. */
  readonly #row: Int32Array;
  // The fitted weights in compressed rows: row r's non-zero weights are
  // weightValue[rowStart[r] .. rowStart[r+1]), for the classes in weightClass.
  readonly #rowStart: Int32Array;
  readonly #weightClass: Int32Array;
  readonly #weightValue: Float64Array;
  readonly #index: TfidfIndex;
  readonly #scores: Float64Array;
  readonly #active: Int32Array;

  constructor(
    index: TfidfIndex,
    classes: number,
    examples: readonly LabelledText[],
    options: DiscriminatorOptions = {},
  ) {
    const epochs = options.epochs ?? 16;
    const rate = options.learningRate ?? 0.3;
    const l2 = options.l2 ?? 1e-4;
    this.charWeight = options.charWeight ?? 0.5;
    this.classes = classes;
    this.#index = index;
    this.#scores = new Float64Array(classes);
    this.#active = new Int32Array(classes);
    this.#row = new Int32Array(index.vocabularySize).fill(-1);
    let rows = 0;
    const ids: number[] = [];
    const values: number[] = [];
    const vectors = examples.map(({ text, label }) => {
      index.featureVector(text, this.charWeight, ids, values);
      const compact = Int32Array.from(ids, (id) => {
        if (this.#row[id]! < 0) this.#row[id] = rows++;
        return this.#row[id]!;
      });
      return { rows: compact, values: Float64Array.from(values), label };
    });
    const weights = new Float64Array(rows * classes);
    const squares = new Float64Array(rows * classes).fill(1e-6);
    const order = vectors.map((_, i) => i);
    let seed = 0x2545f491;
    const random = () => {
      seed = (Math.imul(seed, 1103515245) + 12345) >>> 0;
      return seed / 4294967296;
    };
    const gradient = this.#scores;
    for (let epoch = 0; epoch < epochs; epoch++) {
      for (let i = order.length - 1; i > 0; i--) {
        const j = Math.floor(random() * (i + 1));
        [order[i], order[j]] = [order[j]!, order[i]!];
      }
      for (const n of order) {
        const { rows: features, values: x, label } = vectors[n]!;
        gradient.fill(0);
        for (let k = 0; k < features.length; k++) {
          const base = features[k]! * classes;
          for (let c = 0; c < classes; c++) gradient[c]! += weights[base + c]! * x[k]!;
        }
        softmax(gradient);
        gradient[label]! -= 1;
        // Classes the example gives almost no probability to would barely move: skip them.
        let active = 0;
        for (let c = 0; c < classes; c++) {
          if (gradient[c]! > SKIP_BELOW || gradient[c]! < -SKIP_BELOW) this.#active[active++] = c;
        }
        for (let k = 0; k < features.length; k++) {
          const base = features[k]! * classes;
          for (let a = 0; a < active; a++) {
            const c = this.#active[a]!;
            const g = gradient[c]! * x[k]! + l2 * weights[base + c]!;
            squares[base + c]! += g * g;
            weights[base + c]! -= (rate * g) / Math.sqrt(squares[base + c]!);
          }
        }
      }
    }
    // Most (feature, class) weights were never moved (the class got no probability from any
    // example with the feature): only the others are kept.
    this.#rowStart = new Int32Array(rows + 1);
    let kept = 0;
    for (let r = 0; r < rows; r++) {
      for (let c = 0; c < classes; c++) if (weights[r * classes + c] !== 0) kept++;
      this.#rowStart[r + 1] = kept;
    }
    this.#weightClass = new Int32Array(kept);
    this.#weightValue = new Float64Array(kept);
    for (let r = 0, at = 0; r < rows; r++) {
      for (let c = 0; c < classes; c++) {
        const weight = weights[r * classes + c]!;
        if (weight === 0) continue;
        this.#weightClass[at] = c;
        this.#weightValue[at++] = weight;
      }
    }
  }

  /**
   * Writes the probability of each class for the index's last query into `out` (length
   * {@link classes}): call right after `index.similarities(text, …)`.
   */
  probabilities(out: Float64Array): void {
    out.fill(0);
    const index = this.#index;
    const query = index.lastQuery();
    const charWeight = this.charWeight;
    const wordScale = query.wordNorm > 0 ? 1 / Math.sqrt(query.wordNorm) : 0;
    const charScale = query.charNorm > 0 ? charWeight / Math.sqrt(query.charNorm) : 0;
    const { ids, weights: values } = query;
    const row = this.#row;
    const rowStart = this.#rowStart;
    const classOf = this.#weightClass;
    const weights = this.#weightValue;
    for (let k = 0; k < query.count; k++) {
      const id = ids[k]!;
      const r = row[id]!;
      if (r < 0) continue;
      const value = values[k]! * (index.isCharFeature(id) ? charScale : wordScale);
      for (let at = rowStart[r]!, end = rowStart[r + 1]!; at < end; at++) {
        out[classOf[at]!]! += weights[at]! * value;
      }
    }
    softmax(out);
  }
}

/**
 * Gradients smaller than this are not applied while fitting (a class the example all but rules
 * out): fitting is faster, and the weights stay sparse (a few classes per feature), which is
 * what a task costs.
 */
const SKIP_BELOW = 0.03;

/** Turns scores into probabilities, in place. */
function softmax(values: Float64Array): void {
  let max = Number.NEGATIVE_INFINITY;
  for (const value of values) if (value > max) max = value;
  let sum = 0;
  for (let i = 0; i < values.length; i++) {
    values[i] = Math.exp(values[i]! - max);
    sum += values[i]!;
  }
  for (let i = 0; i < values.length; i++) values[i]! /= sum;
}
