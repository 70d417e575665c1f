import { writeFile } from 'node:fs/promises';
import type { BinaryReport, ClassificationReport } from '../../eval/metrics.js';
import { evalReportHtml, type RoutingFigures } from './html.js';
import { localSignals } from './signals.js';

/**
 * The glue between `triage eval <kind> … --html FILE` and the HTML report: the eval command
 * names the file before its action runs ({@link requestHtmlReport}); the runner notes the full
 * text of each misclassified row as it goes (only when a report was asked for) and hands over its
 * report at the end, which is written with the signals the local classifier of that kind sees in
 * each misclassified row.
 */

interface Target {
  readonly file: string;
  readonly kind: string;
  readonly texts: Map<number, string>;
}

let target: Target | undefined;

/** Asks for (or, with `file` undefined, cancels) an HTML report of the eval about to run. */
export function requestHtmlReport(file: string | undefined, kind: string): void {
  target = file === undefined ? undefined : { file, kind, texts: new Map() };
}

/** Notes the full text of a misclassified row (nothing when no report was asked for). */
export function noteMisclassified(line: number, text: string): void {
  target?.texts.set(line, text);
}

const TITLES: Record<string, string> = {
  tier: 'Tier evaluation',
  context: 'Context policy evaluation',
  injection: 'Prompt injection evaluation',
  capabilities: 'Capabilities pre-matcher evaluation',
  routing: 'Routing evaluation (cost and quality)',
};

/** Writes the report of a runner's evaluation, when one was asked for. */
export async function writeEvalHtmlReport(
  file: string,
  report: ClassificationReport | BinaryReport,
  extra: Record<string, unknown>,
): Promise<void> {
  const wanted = take();
  if (wanted === undefined) return;
  const texts = wanted.texts;
  const signals = await localSignals(wanted.kind, texts);
  const title = `${TITLES[wanted.kind] ?? 'Evaluation'}`;
  const html =
    'confusion' in report
      ? evalReportHtml({ kind: 'classification', title, file, report, signals, texts, extra })
      : evalReportHtml({ kind: 'binary', title, file, report, signals, texts, extra });
  await save(wanted.file, html);
}

/** Writes the report of `triage eval routing`, when one was asked for. */
export async function writeRoutingHtmlReport(
  file: string,
  report: RoutingFigures & Record<string, unknown>,
): Promise<void> {
  const wanted = take();
  if (wanted === undefined) return;
  const { groups } = report;
  await save(
    wanted.file,
    evalReportHtml({
      kind: 'routing',
      title: TITLES.routing!,
      file,
      report,
      ...(groups === undefined ? {} : { extra: { groups } }),
    }),
  );
}

/**
 * Writes the report of an evaluation that gives figures rather than rows (`triage eval
 * capabilities`): its figures, and the confusion matrix of the local yes/no decisions.
 */
export async function writeFiguresHtmlReport(
  file: string,
  figures: Record<string, unknown>,
): Promise<void> {
  const wanted = take();
  if (wanted === undefined) return;
  const n = (key: string) => (typeof figures[key] === 'number' ? (figures[key] as number) : 0);
  const yes = n('localYes');
  const no = n('localNo');
  const yesRight = Math.round(yes * n('localYesPrecision'));
  const noRight = Math.round(no * n('localNoPrecision'));
  const matrix = {
    labels: ['needed', 'not needed'],
    confusion: {
      needed: { needed: yesRight, 'not needed': no - noRight },
      'not needed': { needed: yes - yesRight, 'not needed': noRight },
    },
  };
  await save(
    wanted.file,
    evalReportHtml({
      kind: 'figures',
      title: TITLES[wanted.kind] ?? 'Evaluation',
      file,
      report: figures,
      ...(yes + no > 0 ? { matrix } : {}),
    }),
  );
}

function take(): Target | undefined {
  const wanted = target;
  target = undefined;
  return wanted;
}

async function save(file: string, html: string): Promise<void> {
  await writeFile(file, html);
  process.stderr.write(`HTML report written to ${file}\n`);
}
