import type { ClassificationReport } from '../../eval/metrics.js';

/** Precision, recall and F1 of one class of a multi-class evaluation. */
export interface ClassMetrics {
  readonly label: string;
  readonly precision: number;
  readonly recall: number;
  readonly f1: number;
  /** Rows whose expected class this is. */
  readonly support: number;
  /** Rows predicted as this class. */
  readonly predicted: number;
}

/**
 * Per-class figures from a confusion matrix (`confusion[expected][predicted]`): precision is the
 * share of rows predicted as the class that expected it, recall the share of rows expecting it
 * that were predicted as it; 0 where a share has no rows.
 */
export function perClassMetrics(
  report: Pick<ClassificationReport, 'labels' | 'confusion'>,
): ClassMetrics[] {
  const { labels, confusion } = report;
  const cell = (expected: string, predicted: string) => confusion[expected]?.[predicted] ?? 0;
  return labels.map((label) => {
    const hit = cell(label, label);
    const support = labels.reduce((n, predicted) => n + cell(label, predicted), 0);
    const predicted = labels.reduce((n, expected) => n + cell(expected, label), 0);
    const precision = predicted === 0 ? 0 : hit / predicted;
    const recall = support === 0 ? 0 : hit / support;
    const f1 = precision + recall === 0 ? 0 : (2 * precision * recall) / (precision + recall);
    return { label, precision, recall, f1, support, predicted };
  });
}
