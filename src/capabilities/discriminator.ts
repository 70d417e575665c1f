import type { TfidfIndex } from './tfidf.js';

/**
 * A small multinomial logistic regression over the word features of the capabilities' positive
 * examples, fitted when the pre-matcher is compiled. Cosine similarity to each capability's
 * examples says how much a task resembles them; the fitted weights say which words tell one
 * capability from the others ("status" separates "leave request status" from "leave request"),
 * which five examples per capability leave to chance. Its probabilities only re-rank the
 * capabilities (see `prematcher.ts`); ruling one out stays with the similarity.
 *
 * Deterministic: fixed epochs, a fixed learning rate (AdaGrad) and a seeded order.
 */

/** Options of {@link Discriminator}. */
export interface DiscriminatorOptions {
  /** Passes over the examples. Default 8. */
  readonly epochs?: number;
  /** AdaGrad learning rate. Default 0.3. */
  readonly learningRate?: number;
  /** L2 penalty. Default 1e-4. */
  readonly l2?: number;
}

/** A training text and the class (capability) it belongs to. */
export interface LabelledText {
  readonly text: string;
  readonly label: number;
}

export class Discriminator {
  readonly classes: number;
  /** Compact row of each word feature id of the index, -1 for features it never saw. */
  readonly #row: Int32Array;
  readonly #weights: Float64Array;
  readonly #index: TfidfIndex;
  readonly #scores: Float64Array;
  readonly #active: Int32Array;

  constructor(
    index: TfidfIndex,
    classes: number,
    examples: readonly LabelledText[],
    options: DiscriminatorOptions = {},
  ) {
    const epochs = options.epochs ?? 8;
    const rate = options.learningRate ?? 0.3;
    const l2 = options.l2 ?? 1e-4;
    this.classes = classes;
    this.#index = index;
    this.#scores = new Float64Array(classes);
    this.#active = new Int32Array(classes);
    this.#row = new Int32Array(index.vocabularySize).fill(-1);
    let rows = 0;
    const ids: number[] = [];
    const values: number[] = [];
    const vectors = examples.map(({ text, label }) => {
      index.wordVector(text, ids, values);
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
    this.#weights = weights;
  }

  /**
   * Writes the probability of each class for the index's last query into `out` (length
   * {@link classes}): call right after `index.similarities(text, …)`.
   */
  probabilities(out: Float64Array): void {
    out.fill(0);
    const classes = this.classes;
    const weights = this.#weights;
    const row = this.#row;
    this.#index.visitLastWords((id, value) => {
      const r = row[id]!;
      if (r < 0) return;
      const base = r * classes;
      for (let c = 0; c < classes; c++) out[c]! += weights[base + c]! * value;
    });
    softmax(out);
  }
}

/** Gradients smaller than this are not applied while fitting (a class the example all but rules out). */
const SKIP_BELOW = 1e-3;

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
