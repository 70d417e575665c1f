import { type Command, Option } from 'commander';
import { noteMisclassified, writeEvalHtmlReport } from '../console/report/cli-report.js';
import { formatBinaryReport, formatClassificationReport } from '../eval/format.js';
import {
  type BinaryReport,
  BinaryTally,
  type ClassificationReport,
  ClassificationTally,
  preview,
} from '../eval/metrics.js';
import { type EvalInputFlags, readEvalRecords } from './eval-input.js';
import { failCheck } from './exit-codes.js';
import { InputError } from './io.js';
import { fraction } from './numbers.js';
import { formatFigures, type OutputFlags, readable, wantsJson, writeJson } from './output.js';
import { Progress } from './progress.js';

/** One labelled row of an evaluation file, after parsing. */
export interface EvalRow<I, E> {
  readonly input: I;
  readonly expected: E;
}

/**
 * One configuration under evaluation. Several on the same file (`--config a.yaml --config
 * b.yaml`) are compared side by side, with the rows they disagree on listed.
 */
export interface EvalCandidate<I, E, P> {
  /** How reports name it: the configuration file, or `default`. */
  readonly name: string;
  /**
   * Classifies one input (may be async, e.g. when an LLM check is enabled); `expected` is the
   * row's label, for reports that group rows (it must not decide the prediction).
   */
  readonly classify: (input: I, expected: E) => P | Promise<P>;
  /** Figures of its own (LLM calls, shares…), added to its report once every row is done. */
  readonly figures?: () => Record<string, unknown>;
}

/** The thresholds that make an evaluation a check (exit code 1 below them). */
export interface EvalThresholds {
  readonly minAccuracy?: number;
  readonly minF1?: number;
}

/** How an evaluation reads, classifies and shows its rows. */
export interface EvalSpec<I, E, P> {
  /** The file (`-`: standard input): JSONL, a JSON array or CSV; see `./eval-input.ts`. */
  readonly file: string;
  readonly input?: EvalInputFlags;
  /** Turns one parsed row into an input and its label; throws (any Error) saying what is wrong. */
  readonly parse: (value: unknown) => EvalRow<I, E>;
  /** The input as text, for the lists of misclassified rows and of disagreements. */
  readonly show: (input: I) => string;
  /** One configuration, or several to compare. */
  readonly candidates: readonly EvalCandidate<I, E, P>[];
  readonly output: OutputFlags;
  readonly thresholds?: EvalThresholds;
}

/** The flags of {@link addThresholdOptions}. */
export type ThresholdFlags = EvalThresholds;

/** Adds `--min-accuracy` (and, for binary evaluations, `--min-f1`). */
export function addThresholdOptions(command: Command, binary = false): Command {
  command.addOption(
    new Option(
      '--min-accuracy <x>',
      'exit with status 1 when the accuracy is below x (0..1)',
    ).argParser(fraction),
  );
  if (binary) {
    command.addOption(
      new Option('--min-f1 <x>', 'exit with status 1 when F1 is below x (0..1)').argParser(
        fraction,
      ),
    );
  }
  return command;
}

/** Adds a repeatable `--config <file>`: two or more are compared side by side. */
export function addConfigsOption(command: Command, what: string): Command {
  return command.option(
    '--config <file>',
    `${what} (JSON or YAML); give it twice to compare two configurations on the same rows`,
    (value: string, previous: string[] | undefined) => [...(previous ?? []), value],
  );
}

/** How reports name each configuration: the file as given, `default` for none. */
export function configNames(configs: readonly string[] | undefined): (string | undefined)[] {
  return configs === undefined || configs.length === 0 ? [undefined] : [...configs];
}

/** A row two or more configurations disagree on. */
export interface Disagreement {
  readonly line: number;
  readonly input: string;
  readonly expected: unknown;
  /** Each configuration's prediction, by name. */
  readonly predicted: Readonly<Record<string, unknown>>;
}

/**
 * Runs a multi-class evaluation (`triage eval tier`, `triage eval context`): accuracy, confusion
 * matrix and misclassified rows; with `--json`, one object with at least `total`, `correct`,
 * `accuracy` and `confusion`.
 */
export function runClassificationEval<I>(
  spec: EvalSpec<I, string | readonly string[], string> & { readonly labels: readonly string[] },
): Promise<void> {
  return runEval(spec, () => new ClassificationTally(spec.labels), formatClassificationReport);
}

/**
 * Runs a binary evaluation (`triage eval injection`): precision, recall, F1, false-positive rate
 * and misclassified rows; with `--json`, one object with at least `precision`, `recall`, `f1`,
 * `fpr`.
 */
export function runBinaryEval<I>(spec: EvalSpec<I, boolean, boolean>): Promise<void> {
  return runEval(spec, () => new BinaryTally(), formatBinaryReport);
}

interface Tally<E, P, R> {
  add(line: number, input: string, expected: E, predicted: P): boolean;
  report(): R;
}

async function runEval<I, E, P, R extends ClassificationReport | BinaryReport>(
  spec: EvalSpec<I, E, P>,
  newTally: () => Tally<E, P, R>,
  format: (report: R) => string,
): Promise<void> {
  const rows = (await readEvalRecords(spec.file, spec.input)).map((record) => {
    try {
      return { ...spec.parse(record.value), line: record.line };
    } catch (error) {
      throw new InputError(`${record.where}: ${(error as Error).message}`);
    }
  });
  const names = uniqueNames(spec.candidates.map((candidate) => candidate.name));
  const tallies = spec.candidates.map(newTally);
  const disagreements: Disagreement[] = [];
  const progress = new Progress('evaluating', rows.length);
  try {
    for (const [index, row] of rows.entries()) {
      progress.update(index);
      const text = spec.show(row.input);
      const predictions: P[] = [];
      for (const [i, candidate] of spec.candidates.entries()) {
        const predicted = await candidate.classify(row.input, row.expected);
        const right = tallies[i]!.add(row.line, text, row.expected, predicted);
        // The HTML report (--html) shows the first configuration's misclassified rows.
        if (!right && i === 0) noteMisclassified(row.line, text);
        predictions.push(predicted);
      }
      if (predictions.some((p) => JSON.stringify(p) !== JSON.stringify(predictions[0]))) {
        disagreements.push({
          line: row.line,
          input: preview(text),
          expected: row.expected,
          predicted: Object.fromEntries(names.map((name, i) => [name, predictions[i]])),
        });
      }
    }
  } finally {
    progress.done();
  }
  const reports = spec.candidates.map((candidate, i) => ({
    name: names[i]!,
    report: tallies[i]!.report(),
    figures: candidate.figures?.() ?? {},
  }));
  await writeEvalHtmlReport(spec.file, reports[0]!.report, reports[0]!.figures);
  print(spec, reports, disagreements, format);
  checkThresholds(spec.thresholds ?? {}, reports);
}

/** Names made unique by their position (`a.yaml`, `a.yaml#2`), so reports can key on them. */
function uniqueNames(names: readonly string[]): string[] {
  return names.map((name, i) => (names.indexOf(name) === i ? name : `${name}#${i + 1}`));
}

interface NamedReport<R> {
  readonly name: string;
  readonly report: R;
  readonly figures: Record<string, unknown>;
}

function print<R extends ClassificationReport | BinaryReport>(
  spec: { readonly file: string; readonly output: OutputFlags },
  reports: readonly NamedReport<R>[],
  disagreements: readonly Disagreement[],
  format: (report: R) => string,
): void {
  const compared = reports.length > 1;
  if (wantsJson(spec.output)) {
    const full = (r: NamedReport<R>) => ({ ...r.report, ...r.figures });
    writeJson(
      compared
        ? {
            file: spec.file,
            configs: reports.map((r) => ({ config: r.name, ...full(r) })),
            disagreements,
          }
        : { file: spec.file, ...full(reports[0]!) },
      spec.output,
    );
    return;
  }
  if (!compared) {
    const { report, figures } = reports[0]!;
    const more = formatFigures(figures);
    process.stdout.write(`${format(report)}\n${more.length > 0 ? `\n${more.join('\n')}\n` : ''}`);
    return;
  }
  process.stdout.write(formatComparison(reports, disagreements));
}

/** The headline figures of each configuration side by side, then the rows they disagree on. */
export function formatComparison(
  reports: readonly NamedReport<ClassificationReport | BinaryReport>[],
  disagreements: readonly Disagreement[],
  maxRows = 50,
): string {
  const rows = new Map<string, string[]>();
  reports.forEach((r, column) => {
    const headline: Record<string, unknown> = {
      rows: r.report.total,
      accuracy: r.report.accuracy,
      ...('f1' in r.report
        ? { precision: r.report.precision, recall: r.report.recall, f1: r.report.f1 }
        : {}),
      ...r.figures,
    };
    for (const [name, value] of Object.entries(headline)) {
      if (typeof value !== 'number') continue;
      const cells = rows.get(name) ?? Array<string>(reports.length).fill('-');
      cells[column] = readable(value);
      rows.set(name, cells);
    }
  });
  const nameWidth = Math.max(8, ...[...rows.keys()].map((name) => name.length)) + 2;
  const width = Math.max(10, ...reports.map((r) => r.name.length)) + 2;
  const lines = [
    ''.padEnd(nameWidth) + reports.map((r) => r.name.padStart(width)).join(''),
    ...[...rows].map(
      ([name, cells]) => name.padEnd(nameWidth) + cells.map((c) => c.padStart(width)).join(''),
    ),
    '',
    `disagreements (${disagreements.length}):`,
  ];
  for (const d of disagreements.slice(0, maxRows)) {
    const said = Object.entries(d.predicted)
      .map(([name, value]) => `${name} ${String(value)}`)
      .join(', ');
    const expected = Array.isArray(d.expected) ? d.expected.join('|') : String(d.expected);
    lines.push(`  line ${d.line}: expected ${expected}; ${said}: ${d.input}`);
  }
  if (disagreements.length > maxRows) {
    lines.push(`  … and ${disagreements.length - maxRows} more (use --json for all)`);
  }
  return `${lines.join('\n')}\n`;
}

/** Fails the run (exit code 1) when a configuration is below a threshold, saying which. */
function checkThresholds(
  thresholds: EvalThresholds,
  reports: readonly NamedReport<ClassificationReport | BinaryReport>[],
): void {
  for (const { name, report } of reports) {
    const checks: [string, number | undefined, number | undefined][] = [
      ['accuracy', report.accuracy, thresholds.minAccuracy],
      ['f1', 'f1' in report ? report.f1 : undefined, thresholds.minF1],
    ];
    for (const [figure, value, minimum] of checks) {
      if (minimum === undefined || value === undefined || value >= minimum) continue;
      const which = reports.length > 1 ? ` (${name})` : '';
      process.stderr.write(
        `triage: ${figure} ${readable(value)} is below the minimum ${minimum}${which}\n`,
      );
      failCheck();
    }
  }
}
