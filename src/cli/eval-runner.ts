import { noteMisclassified, writeEvalHtmlReport } from '../console/report/cli-report.js';
import { formatBinaryReport, formatClassificationReport } from '../eval/format.js';
import {
  type BinaryReport,
  BinaryTally,
  type ClassificationReport,
  ClassificationTally,
} from '../eval/metrics.js';
import { InputError, readJsonl } from './io.js';

/** One labelled row of an evaluation file, after parsing. */
export interface EvalRow<I, E> {
  readonly input: I;
  readonly expected: E;
}

/** How an evaluation reads, classifies and shows its rows. */
export interface EvalSpec<I, E, P> {
  /** The JSONL file. */
  readonly file: string;
  /** Turns one parsed JSON line into a row; throws (any Error) with what is wrong with it. */
  readonly parse: (value: unknown) => EvalRow<I, E>;
  /**
   * Classifies one input (may be async, e.g. when an LLM check is enabled); `expected` is the
   * row's label, for reports that group rows (it must not decide the prediction).
   */
  readonly classify: (input: I, expected: E) => P | Promise<P>;
  /** The input as text, for the list of misclassified rows. */
  readonly show: (input: I) => string;
  /** Print one JSON object instead of the text report. */
  readonly json: boolean;
}

/**
 * Runs a multi-class evaluation (`triage eval tier`, `triage eval context`): accuracy, confusion
 * matrix and misclassified rows; with `json`, one object with at least `total`, `correct`,
 * `accuracy` and `confusion`. `extra` is merged into the JSON and printed after the text report.
 */
export async function runClassificationEval<I>(
  spec: EvalSpec<I, string | readonly string[], string> & { readonly labels: readonly string[] },
  extra?: () => Record<string, unknown>,
): Promise<void> {
  const tally = new ClassificationTally(spec.labels);
  for await (const { line, input, expected } of rows(spec)) {
    const text = spec.show(input);
    if (!tally.add(line, text, expected, await spec.classify(input, expected))) {
      noteMisclassified(line, text);
    }
  }
  await print(spec, tally.report(), formatClassificationReport, extra);
}

/**
 * Runs a binary evaluation (`triage eval injection`): precision, recall, F1, false-positive rate
 * and misclassified rows; with `json`, one object with at least `precision`, `recall`, `f1`, `fpr`.
 */
export async function runBinaryEval<I>(
  spec: EvalSpec<I, boolean, boolean>,
  extra?: () => Record<string, unknown>,
): Promise<void> {
  const tally = new BinaryTally();
  for await (const { line, input, expected } of rows(spec)) {
    const text = spec.show(input);
    if (!tally.add(line, text, expected, await spec.classify(input, expected))) {
      noteMisclassified(line, text);
    }
  }
  await print(spec, tally.report(), formatBinaryReport, extra);
}

/** Prints a report as text (with any extra figures after it) or as one JSON object. */
async function print<R extends ClassificationReport | BinaryReport>(
  spec: { readonly file: string; readonly json: boolean },
  report: R,
  format: (report: R) => string,
  extra?: () => Record<string, unknown>,
): Promise<void> {
  const more = extra?.() ?? {};
  await writeEvalHtmlReport(spec.file, report, more);
  if (spec.json) {
    process.stdout.write(`${JSON.stringify({ file: spec.file, ...report, ...more })}\n`);
    return;
  }
  process.stdout.write(`${format(report)}\n`);
  if (Object.keys(more).length > 0) process.stdout.write(`\n${JSON.stringify(more, null, 2)}\n`);
}

async function* rows<I, E>(
  spec: Pick<EvalSpec<I, E, unknown>, 'file' | 'parse'>,
): AsyncGenerator<EvalRow<I, E> & { line: number }> {
  for await (const { line, value } of readJsonl(spec.file, 'evaluating')) {
    let row: EvalRow<I, E>;
    try {
      row = spec.parse(value);
    } catch (error) {
      throw new InputError(`${spec.file}:${line}: ${(error as Error).message}`);
    }
    yield { ...row, line };
  }
}
