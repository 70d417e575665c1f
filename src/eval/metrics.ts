/**
 * Evaluation metrics shared by the `triage eval …` commands: multi-class accuracy with a confusion
 * matrix (tier, context mode), and binary precision / recall / F1 / false-positive rate
 * (prompt injection).
 */

/** A row that was classified wrongly, for the report. */
export interface Misclassified {
  /** 1-based line of the input file. */
  readonly line: number;
  /** The input, shortened for display. */
  readonly input: string;
  readonly expected: string | readonly string[];
  readonly predicted: string;
}

/** The result of a multi-class evaluation. */
export interface ClassificationReport {
  readonly total: number;
  readonly correct: number;
  readonly accuracy: number;
  /** `confusion[expected][predicted]` = count. */
  readonly confusion: Readonly<Record<string, Readonly<Record<string, number>>>>;
  readonly labels: readonly string[];
  readonly misclassified: readonly Misclassified[];
}

/**
 * Accumulates a multi-class evaluation. An expected value may be a list of acceptable labels:
 * the prediction is correct when it is any of them, and is then counted on its own row of the
 * confusion matrix; a wrong one is counted on the row of the first acceptable label.
 */
export class ClassificationTally {
  #total = 0;
  #correct = 0;
  readonly #confusion = new Map<string, Map<string, number>>();
  readonly #labels: string[];
  readonly #misclassified: Misclassified[] = [];

  /** `labels` fixes the order of rows and columns; unknown labels are appended as seen. */
  constructor(labels: readonly string[] = []) {
    this.#labels = [...labels];
  }

  /** Records one prediction. Returns whether it was correct. */
  add(
    line: number,
    input: string,
    expected: string | readonly string[],
    predicted: string,
  ): boolean {
    const accepted = typeof expected === 'string' ? [expected] : expected;
    const correct = accepted.includes(predicted);
    const row = correct ? predicted : (accepted[0] ?? '(none)');
    this.#total++;
    if (correct) this.#correct++;
    else this.#misclassified.push({ line, input: preview(input), expected, predicted });
    this.#see(row);
    this.#see(predicted);
    let cells = this.#confusion.get(row);
    if (!cells) {
      cells = new Map();
      this.#confusion.set(row, cells);
    }
    cells.set(predicted, (cells.get(predicted) ?? 0) + 1);
    return correct;
  }

  report(): ClassificationReport {
    const confusion: Record<string, Record<string, number>> = {};
    for (const row of this.#labels) {
      confusion[row] = {};
      for (const column of this.#labels) {
        confusion[row][column] = this.#confusion.get(row)?.get(column) ?? 0;
      }
    }
    return {
      total: this.#total,
      correct: this.#correct,
      accuracy: this.#total === 0 ? 0 : this.#correct / this.#total,
      confusion,
      labels: [...this.#labels],
      misclassified: [...this.#misclassified],
    };
  }

  #see(label: string): void {
    if (!this.#labels.includes(label)) this.#labels.push(label);
  }
}

/** The result of a binary evaluation (positive = the thing detected, e.g. an injection). */
export interface BinaryReport {
  readonly total: number;
  readonly truePositives: number;
  readonly falsePositives: number;
  readonly trueNegatives: number;
  readonly falseNegatives: number;
  readonly accuracy: number;
  readonly precision: number;
  readonly recall: number;
  readonly f1: number;
  /** False-positive rate: false positives / actual negatives. */
  readonly fpr: number;
  readonly misclassified: readonly Misclassified[];
}

/** Accumulates a binary evaluation. */
export class BinaryTally {
  #tp = 0;
  #fp = 0;
  #tn = 0;
  #fn = 0;
  readonly #misclassified: Misclassified[] = [];

  /** Records one prediction. Returns whether it was correct. */
  add(line: number, input: string, expected: boolean, predicted: boolean): boolean {
    if (expected && predicted) this.#tp++;
    else if (!expected && predicted) this.#fp++;
    else if (!expected && !predicted) this.#tn++;
    else this.#fn++;
    const correct = expected === predicted;
    if (!correct) {
      this.#misclassified.push({
        line,
        input: preview(input),
        expected: String(expected),
        predicted: String(predicted),
      });
    }
    return correct;
  }

  report(): BinaryReport {
    const tp = this.#tp;
    const fp = this.#fp;
    const tn = this.#tn;
    const fn = this.#fn;
    const total = tp + fp + tn + fn;
    const precision = tp + fp === 0 ? 0 : tp / (tp + fp);
    const recall = tp + fn === 0 ? 0 : tp / (tp + fn);
    return {
      total,
      truePositives: tp,
      falsePositives: fp,
      trueNegatives: tn,
      falseNegatives: fn,
      accuracy: total === 0 ? 0 : (tp + tn) / total,
      precision,
      recall,
      f1: precision + recall === 0 ? 0 : (2 * precision * recall) / (precision + recall),
      fpr: fp + tn === 0 ? 0 : fp / (fp + tn),
      misclassified: [...this.#misclassified],
    };
  }
}

/** The first 100 characters of a text on one line, for reports. */
export function preview(text: string, length = 100): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length <= length ? flat : `${flat.slice(0, length - 1)}…`;
}
