import type { Command } from 'commander';
import { writeRoutingHtmlReport } from '../../console/report/cli-report.js';
import {
  curveAt,
  indicesByGroup,
  type Outcome,
  randomShareForQuality,
  routingCurve,
  shareForQuality,
} from '../../eval/routing.js';
import { createTierRouter } from '../../tier/router.js';
import { routingScores } from '../../tier/routing-score.js';
import { addEvalInputOptions, type EvalInputFlags } from '../eval-input.js';
import { fraction } from '../numbers.js';
import { wantsJson, writeJson } from '../output.js';
import { readRoutingRows } from '../routing-rows.js';
import {
  addTierConfigOptions,
  type TierConfigFlags,
  tierOptionsFromFlags,
} from '../tier-config.js';

interface RoutingEvalFlags extends TierConfigFlags, EvalInputFlags {
  readonly json?: boolean;
  readonly pretty?: boolean;
  readonly keep: number;
  readonly groupBy?: string;
}

/** The shares of strong calls the curve is printed at. */
const SHARES = [0, 0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9, 1];

/** Registers `triage eval routing FILE.jsonl`. */
export function registerRoutingEval(evalCommand: Command): void {
  const command = addTierConfigOptions(
    evalCommand
      .command('routing')
      .description(
        'measure the tier router on outcome data: JSONL of {"prompt" | "messages", ' +
          '"weak_correct", "strong_correct"} (or "weak_score", "strong_score"); prints quality ' +
          'against the share of strong calls, APGR, the random and length-only baselines, and ' +
          'the share of strong calls that keeps 95% of the strong model’s quality',
      )
      .argument('<file>', 'the outcome file (JSONL, JSON or CSV; - for standard input)')
      .option('--keep <x>', 'the share of the strong model’s quality to reach', fraction, 0.95)
      .option('--group-by <field>', 'also report APGR per value of this field (e.g. subject)')
      .option('--json', 'print one JSON object, on one line')
      .option('--pretty', 'print indented JSON (implies --json)'),
  );
  addEvalInputOptions(command).action(async (file: string, flags: RoutingEvalFlags) => {
    const rows = await readRoutingRows(file, 'outcome', flags.groupBy, flags);
    const router = createTierRouter(tierOptionsFromFlags(flags));
    const outcomes = rows.map((row) => row.outcome!);
    const scores = routingScores(
      router,
      rows.map((row) => row.input),
    );
    const report = {
      file,
      ...evaluate(scores.router, scores.length, outcomes, flags.keep),
      ...(flags.groupBy ? { groups: byGroup(rows, scores, flags.keep) } : {}),
    };
    await writeRoutingHtmlReport(file, report);
    if (wantsJson(flags)) writeJson(report, flags);
    else process.stdout.write(formatReport(report));
  });
}

/** The figures of one set of rows. */
interface Evaluation {
  readonly rows: number;
  readonly weakQuality: number;
  readonly strongQuality: number;
  /** APGR of the router's score, and the baselines'. */
  readonly apgr: number | null;
  readonly baselines: { readonly random: number; readonly length: number | null };
  /** The share of the strong model's quality aimed at, and the share of strong calls it takes. */
  readonly keep: number;
  readonly strongShareToKeep: {
    readonly router: number | null;
    readonly length: number | null;
    readonly random: number | null;
  };
  readonly curve: readonly {
    readonly strongShare: number;
    readonly threshold: number | null;
    readonly quality: number;
    readonly pgr: number;
  }[];
}

function evaluate(
  router: readonly number[],
  length: readonly number[],
  outcomes: readonly Outcome[],
  keep: number,
): Evaluation {
  const curve = routingCurve(router, outcomes);
  const byLength = routingCurve(length, outcomes);
  const target = keep * curve.strongQuality;
  return {
    rows: curve.rows,
    weakQuality: curve.weakQuality,
    strongQuality: curve.strongQuality,
    apgr: finiteOrNull(curve.apgr),
    baselines: { random: 0.5, length: finiteOrNull(byLength.apgr) },
    keep,
    strongShareToKeep: {
      router: shareForQuality(curve, target) ?? null,
      length: shareForQuality(byLength, target) ?? null,
      random: randomShareForQuality(curve, target) ?? null,
    },
    curve: curveAt(curve, SHARES).map((point) => ({
      strongShare: point.strongShare,
      // +∞: no prompt goes to the strong model; -∞ (forced weak) cannot be a threshold here.
      threshold: Number.isFinite(point.threshold) ? point.threshold : null,
      quality: point.quality,
      pgr: Number.isFinite(point.pgr) ? point.pgr : 0,
    })),
  };
}

function byGroup(
  rows: readonly { readonly group?: string; readonly outcome?: Outcome }[],
  scores: { readonly router: readonly number[]; readonly length: readonly number[] },
  keep: number,
): Record<string, { rows: number; apgr: number | null; length: number | null }> {
  return Object.fromEntries(
    indicesByGroup(rows.map((row) => row.group)).map(([name, list]) => {
      const outcomes = list.map((i) => rows[i]!.outcome!);
      const result = evaluate(
        list.map((i) => scores.router[i]!),
        list.map((i) => scores.length[i]!),
        outcomes,
        keep,
      );
      return [name, { rows: result.rows, apgr: result.apgr, length: result.baselines.length }];
    }),
  );
}

function finiteOrNull(value: number): number | null {
  return Number.isFinite(value) ? value : null;
}

const pct = (value: number | null) => (value === null ? '-' : `${(value * 100).toFixed(1)}%`);
const num = (value: number | null, digits = 3) => (value === null ? '-' : value.toFixed(digits));

function formatReport(
  report: Evaluation & {
    readonly file: string;
    readonly groups?: Record<string, { rows: number; apgr: number | null; length: number | null }>;
  },
): string {
  const lines = [
    `rows          ${report.rows} (weak model quality ${num(report.weakQuality)}, strong ${num(report.strongQuality)})`,
    `APGR          ${num(report.apgr)} router score`,
    `              ${num(report.baselines.length)} length only`,
    `              ${num(report.baselines.random)} random`,
  ];
  if (report.apgr === null) {
    lines.push('              (the strong model is not better on these rows: APGR is undefined)');
  }
  const share = report.strongShareToKeep;
  lines.push(
    `${Math.round(report.keep * 100)}% of the strong model's quality (${num(report.keep * report.strongQuality)}) with`,
    `              ${pct(share.router)} strong calls by router score`,
    `              ${pct(share.length)} by length only`,
    `              ${pct(share.random)} at random`,
    '',
    'strong calls  threshold   quality   PGR',
  );
  for (const point of report.curve) {
    lines.push(
      `${pct(point.strongShare).padStart(12)}  ${(point.threshold === null ? '+inf' : point.threshold.toFixed(4)).padStart(9)}   ${num(point.quality).padStart(7)}   ${point.pgr.toFixed(2).padStart(5)}`,
    );
  }
  if (report.groups) {
    const width = Math.max(5, ...Object.keys(report.groups).map((name) => name.length));
    lines.push('', `${'group'.padEnd(width)}   rows    APGR  length`);
    for (const [name, group] of Object.entries(report.groups)) {
      lines.push(
        `${name.padEnd(width)}  ${String(group.rows).padStart(5)}   ${num(group.apgr)}   ${num(group.length)}`,
      );
    }
  }
  return `${lines.join('\n')}\n`;
}
