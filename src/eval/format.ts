import type { BinaryReport, ClassificationReport, Misclassified } from './metrics.js';

/** A multi-class report as text: accuracy, confusion matrix (rows: expected), misclassified rows. */
export function formatClassificationReport(report: ClassificationReport, maxRows = 50): string {
  const lines = [
    `accuracy ${percent(report.accuracy)} (${report.correct}/${report.total})`,
    '',
    'confusion (rows: expected, columns: predicted)',
    ...formatMatrix(report.labels, report.confusion),
  ];
  lines.push(...formatMisclassified(report.misclassified, maxRows));
  return lines.join('\n');
}

/** A binary report as text. */
export function formatBinaryReport(report: BinaryReport, maxRows = 50): string {
  const lines = [
    `precision ${report.precision.toFixed(3)}  recall ${report.recall.toFixed(3)}  f1 ${report.f1.toFixed(3)}  fpr ${percent(report.fpr)}  accuracy ${percent(report.accuracy)}`,
    `tp ${report.truePositives}  fp ${report.falsePositives}  tn ${report.trueNegatives}  fn ${report.falseNegatives}  total ${report.total}`,
  ];
  lines.push(...formatMisclassified(report.misclassified, maxRows));
  return lines.join('\n');
}

function formatMatrix(
  labels: readonly string[],
  confusion: ClassificationReport['confusion'],
): string[] {
  const width = Math.max(8, ...labels.map((label) => label.length)) + 2;
  const header = ''.padEnd(width) + labels.map((label) => label.padStart(width)).join('');
  const rows = labels.map(
    (row) =>
      row.padEnd(width) +
      labels.map((column) => String(confusion[row]?.[column] ?? 0).padStart(width)).join(''),
  );
  return [header, ...rows];
}

function formatMisclassified(rows: readonly Misclassified[], maxRows: number): string[] {
  if (rows.length === 0) return [];
  const out = ['', `misclassified (${rows.length}):`];
  for (const row of rows.slice(0, maxRows)) {
    const expected = typeof row.expected === 'string' ? row.expected : row.expected.join('|');
    out.push(`  line ${row.line}: expected ${expected}, got ${row.predicted}: ${row.input}`);
  }
  if (rows.length > maxRows) out.push(`  … and ${rows.length - maxRows} more (use --json for all)`);
  return out;
}

function percent(value: number): string {
  return `${(value * 100).toFixed(1)}%`;
}
