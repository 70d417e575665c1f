import type { BinaryReport, ClassificationReport, Misclassified } from '../../eval/metrics.js';
import { curveChart, escapeHtml } from '../charts.js';
import { THEME_CSS } from '../theme.js';
import { perClassMetrics } from './per-class.js';

/**
 * One evaluation as one self-contained HTML file (`triage eval … --html FILE`): no script, no
 * external file; the style sheet and the charts (SVG) are inline. Light and dark mode follow the
 * reader's system.
 */

/** The figures of `triage eval routing` this report draws. */
export interface RoutingFigures {
  readonly rows: number;
  readonly weakQuality: number;
  readonly strongQuality: number;
  readonly apgr: number | null;
  readonly baselines: { readonly random: number; readonly length: number | null };
  readonly keep: number;
  readonly strongShareToKeep: {
    readonly router: number | null;
    readonly length: number | null;
    readonly random: number | null;
  };
  readonly curve: readonly { readonly strongShare: number; readonly quality: number }[];
}

/** What a report shows, by kind of evaluation. */
export type EvalReportInput = { readonly title: string; readonly file: string } & (
  | {
      readonly kind: 'classification';
      readonly report: ClassificationReport;
      /** Signals of misclassified rows, by line. */
      readonly signals?: ReadonlyMap<number, readonly string[]>;
      /** The whole text of misclassified rows, by line (the report's own is shortened). */
      readonly texts?: ReadonlyMap<number, string>;
      readonly extra?: Record<string, unknown>;
    }
  | {
      readonly kind: 'binary';
      readonly report: BinaryReport;
      readonly signals?: ReadonlyMap<number, readonly string[]>;
      readonly texts?: ReadonlyMap<number, string>;
      readonly extra?: Record<string, unknown>;
    }
  | {
      readonly kind: 'routing';
      readonly report: RoutingFigures;
      readonly extra?: Record<string, unknown>;
    }
  | {
      readonly kind: 'figures';
      readonly report: Record<string, unknown>;
      /** A confusion matrix to draw, when the figures give one. */
      readonly matrix?: Pick<ClassificationReport, 'labels' | 'confusion'>;
    }
);

const pct = (v: number | null) => (v === null ? '–' : `${(v * 100).toFixed(1)}%`);
const num = (v: number | null, digits = 3) => (v === null ? '–' : v.toFixed(digits));

/** The report as an HTML document. */
export function evalReportHtml(input: EvalReportInput): string {
  let body: string;
  switch (input.kind) {
    case 'classification':
      body = classification(input.report, input.signals, input.texts) + figures(input.extra);
      break;
    case 'binary':
      body = binary(input.report, input.signals, input.texts) + figures(input.extra);
      break;
    case 'routing':
      body = routing(input.report) + figures(input.extra);
      break;
    case 'figures':
      body =
        (input.matrix ? `<h2>Confusion matrix</h2>${matrix(input.matrix)}` : '') +
        figures(input.report, 'Figures');
      break;
  }
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(input.title)}</title>
<style>${THEME_CSS}</style></head>
<body><header class="top"><h1>${escapeHtml(input.title)}</h1>
<span class="muted">${escapeHtml(input.file)}</span></header>
<main>${body}</main></body></html>
`;
}

function tiles(items: readonly (readonly [string, string])[]): string {
  return `<div class="tiles">${items
    .map(
      ([label, value]) =>
        `<div class="tile"><span class="muted">${escapeHtml(label)}</span><span class="big">${escapeHtml(value)}</span></div>`,
    )
    .join('')}</div>`;
}

function classification(
  report: ClassificationReport,
  signals: ReadonlyMap<number, readonly string[]> | undefined,
  texts: ReadonlyMap<number, string> | undefined,
): string {
  const rows = perClassMetrics(report)
    .map(
      (m) =>
        `<tr><th scope="row">${escapeHtml(m.label)}</th><td class="num">${num(m.precision)}</td>` +
        `<td class="num">${num(m.recall)}</td><td class="num">${num(m.f1)}</td><td class="num">${m.support}</td></tr>`,
    )
    .join('');
  return (
    tiles([
      ['accuracy', pct(report.accuracy)],
      ['rows', String(report.total)],
      ['correct', String(report.correct)],
      ['misclassified', String(report.misclassified.length)],
    ]) +
    `<h2>Confusion matrix</h2>${matrix(report)}` +
    '<h2>Per class</h2><table class="per-class"><caption>Precision, recall and F1 of each class; support is the number of rows expecting it.</caption>' +
    '<thead><tr><th scope="col">class</th><th scope="col" class="num">precision</th><th scope="col" class="num">recall</th>' +
    `<th scope="col" class="num">F1</th><th scope="col" class="num">support</th></tr></thead><tbody>${rows}</tbody></table>` +
    misclassified(report.misclassified, signals, texts)
  );
}

/** A confusion matrix as a table: rows expected, columns predicted, cells shaded by row share. */
function matrix(report: Pick<ClassificationReport, 'labels' | 'confusion'>): string {
  const { labels, confusion } = report;
  const head = labels.map((l) => `<th scope="col" class="num">${escapeHtml(l)}</th>`).join('');
  const body = labels
    .map((expected) => {
      const total = labels.reduce((n, p) => n + (confusion[expected]?.[p] ?? 0), 0);
      const cells = labels
        .map((predicted) => {
          const count = confusion[expected]?.[predicted] ?? 0;
          const share = total === 0 ? 0 : count / total;
          const colour = expected === predicted ? 'var(--ok)' : 'var(--bad)';
          const shade =
            count === 0
              ? ''
              : ` style="background: color-mix(in srgb, ${colour} ${Math.round(10 + share * 50)}%, transparent)"`;
          return (
            `<td class="${expected === predicted ? 'diag' : ''}"${shade} ` +
            `title="${escapeHtml(`expected ${expected}, predicted ${predicted}: ${count} (${pct(share)} of the row)`)}">${count}</td>`
          );
        })
        .join('');
      return `<tr><th scope="row">${escapeHtml(expected)}</th>${cells}<td class="num muted">${total}</td></tr>`;
    })
    .join('');
  return (
    '<table class="matrix" id="confusion"><caption>Rows: expected class; columns: predicted class; the last column is the row total.</caption>' +
    `<thead><tr><th scope="col">expected \\ predicted</th>${head}<th scope="col" class="num">total</th></tr></thead><tbody>${body}</tbody></table>`
  );
}

function binary(
  report: BinaryReport,
  signals: ReadonlyMap<number, readonly string[]> | undefined,
  texts: ReadonlyMap<number, string> | undefined,
): string {
  const labels = ['positive', 'negative'];
  const confusion = {
    positive: { positive: report.truePositives, negative: report.falseNegatives },
    negative: { positive: report.falsePositives, negative: report.trueNegatives },
  };
  const perClass = perClassMetrics({ labels, confusion })
    .map(
      (m) =>
        `<tr><th scope="row">${m.label}</th><td class="num">${num(m.precision)}</td><td class="num">${num(m.recall)}</td>` +
        `<td class="num">${num(m.f1)}</td><td class="num">${m.support}</td></tr>`,
    )
    .join('');
  return (
    tiles([
      ['precision', num(report.precision)],
      ['recall', num(report.recall)],
      ['F1', num(report.f1)],
      ['false-positive rate', pct(report.fpr)],
      ['accuracy', pct(report.accuracy)],
      ['rows', String(report.total)],
    ]) +
    `<h2>Confusion matrix</h2>${matrix({ labels, confusion })}` +
    '<h2>Per class</h2><table class="per-class"><caption>Positive: the thing detected (e.g. an injection).</caption>' +
    '<thead><tr><th scope="col">class</th><th scope="col" class="num">precision</th><th scope="col" class="num">recall</th>' +
    `<th scope="col" class="num">F1</th><th scope="col" class="num">support</th></tr></thead><tbody>${perClass}</tbody></table>` +
    misclassified(report.misclassified, signals, texts)
  );
}

/** Most misclassified rows listed (the report stays readable; the JSON output has them all). */
const MAX_ROWS = 500;

/** Longest text of a misclassified row shown whole. */
const MAX_TEXT = 2000;

function misclassified(
  rows: readonly Misclassified[],
  signals: ReadonlyMap<number, readonly string[]> | undefined,
  texts: ReadonlyMap<number, string> | undefined,
): string {
  if (rows.length === 0) return '<h2>Misclassified rows</h2><p class="empty">None.</p>';
  const shown = rows.slice(0, MAX_ROWS);
  const body = shown
    .map((row) => {
      const expected = typeof row.expected === 'string' ? row.expected : row.expected.join(' | ');
      const found = signals?.get(row.line) ?? [];
      const whole = texts?.get(row.line);
      const text =
        whole === undefined
          ? row.input
          : whole.length > MAX_TEXT
            ? `${whole.slice(0, MAX_TEXT)}…`
            : whole;
      return (
        `<tr><td class="num">${row.line}</td><td class="row-text">${escapeHtml(text)}</td><td>${escapeHtml(expected)}</td>` +
        `<td>${escapeHtml(row.predicted)}</td><td>${found.map((s) => escapeHtml(s)).join('<br>')}</td></tr>`
      );
    })
    .join('');
  return (
    `<h2>Misclassified rows (${rows.length})</h2><div tabindex="0" role="region" aria-label="Misclassified rows">` +
    `<table class="misclassified"><caption>${rows.length > MAX_ROWS ? `The first ${MAX_ROWS}. ` : ''}` +
    `${signals ? 'Signals: what the local classifier saw in the row.' : ''}</caption>` +
    '<thead><tr><th scope="col" class="num">line</th><th scope="col">text</th><th scope="col">expected</th>' +
    `<th scope="col">predicted</th><th scope="col">signals</th></tr></thead><tbody>${body}</tbody></table></div>`
  );
}

function routing(report: RoutingFigures): string {
  const weak = report.weakQuality;
  const strong = report.strongQuality;
  const low = Math.min(weak, strong, ...report.curve.map((p) => p.quality));
  const high = Math.max(weak, strong, ...report.curve.map((p) => p.quality));
  const margin = (high - low) * 0.1 || 0.05;
  const share = report.strongShareToKeep;
  return (
    tiles([
      ['rows', String(report.rows)],
      ['APGR (router)', num(report.apgr)],
      ['APGR (length only)', num(report.baselines.length)],
      ['APGR (random)', num(report.baselines.random)],
      [`strong calls for ${Math.round(report.keep * 100)}% quality`, pct(share.router)],
      ['… by length only', pct(share.length)],
      ['… at random', pct(share.random)],
    ]) +
    '<h2>Cost and quality</h2>' +
    '<p class="muted">Quality reached against the share of requests sent to the strong (costly) model, ' +
    'routing the prompts the router scores highest first; random routing is the straight line.</p>' +
    curveChart({
      title: 'Quality against the share of strong-model calls',
      xTitle: 'share of requests sent to the strong model (cost)',
      yTitle: 'quality',
      curves: [
        { name: 'triage router', points: report.curve.map((p) => [p.strongShare, p.quality]) },
        {
          name: 'random',
          points: [
            [0, weak],
            [1, strong],
          ],
        },
      ],
      yRange: [Math.max(0, low - margin), Math.min(1, high + margin)],
    }) +
    '<table><caption>The curve\'s points.</caption><thead><tr><th scope="col" class="num">strong calls</th>' +
    `<th scope="col" class="num">quality</th></tr></thead><tbody>${report.curve
      .map(
        (p) =>
          `<tr><td class="num">${pct(p.strongShare)}</td><td class="num">${num(p.quality)}</td></tr>`,
      )
      .join('')}</tbody></table>`
  );
}

/** Other figures of the evaluation (the JSON output's extra fields), as a table. */
function figures(extra: Record<string, unknown> | undefined, title = 'Other figures'): string {
  // Nested objects one level down (`stats.decisions`), so that each figure has a row.
  const rows = Object.entries(extra ?? {}).flatMap(([k, v]): [string, unknown][] =>
    v !== null && typeof v === 'object' && !Array.isArray(v)
      ? Object.entries(v).map(([inner, value]) => [`${k}.${inner}`, value])
      : v === undefined
        ? []
        : [[k, v]],
  );
  if (rows.length === 0) return '';
  const show = (v: unknown) =>
    typeof v === 'number' ? (Number.isInteger(v) ? String(v) : v.toFixed(4)) : JSON.stringify(v);
  return `<h2>${escapeHtml(title)}</h2><table><tbody>${rows
    .map(
      ([k, v]) => `<tr><th scope="row">${escapeHtml(k)}</th><td>${escapeHtml(show(v))}</td></tr>`,
    )
    .join('')}</tbody></table>`;
}
