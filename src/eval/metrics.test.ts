import { describe, expect, it } from 'vitest';
import { formatBinaryReport, formatClassificationReport } from './format.js';
import { BinaryTally, ClassificationTally, preview } from './metrics.js';

describe('ClassificationTally', () => {
  it('computes accuracy and a confusion matrix in the given label order', () => {
    const tally = new ClassificationTally(['SIMPLE', 'MEDIUM']);
    tally.add(1, 'hi', 'SIMPLE', 'SIMPLE');
    tally.add(2, 'prove it', 'MEDIUM', 'SIMPLE');
    tally.add(3, 'code', ['MEDIUM', 'COMPLEX'], 'COMPLEX');
    const report = tally.report();
    expect(report).toMatchObject({ total: 3, correct: 2, labels: ['SIMPLE', 'MEDIUM', 'COMPLEX'] });
    expect(report.accuracy).toBeCloseTo(2 / 3);
    expect(report.confusion).toEqual({
      SIMPLE: { SIMPLE: 1, MEDIUM: 0, COMPLEX: 0 },
      MEDIUM: { SIMPLE: 1, MEDIUM: 0, COMPLEX: 0 },
      COMPLEX: { SIMPLE: 0, MEDIUM: 0, COMPLEX: 1 },
    });
    expect(report.misclassified).toEqual([
      { line: 2, input: 'prove it', expected: 'MEDIUM', predicted: 'SIMPLE' },
    ]);
    expect(formatClassificationReport(report)).toContain('accuracy 66.7% (2/3)');
  });

  it('reports zero accuracy for no rows instead of NaN', () => {
    expect(new ClassificationTally().report().accuracy).toBe(0);
  });
});

describe('BinaryTally', () => {
  it('computes precision, recall, F1 and false-positive rate', () => {
    const tally = new BinaryTally();
    tally.add(1, 'a', true, true);
    tally.add(2, 'b', true, false);
    tally.add(3, 'c', false, true);
    tally.add(4, 'd', false, false);
    tally.add(5, 'e', false, false);
    const report = tally.report();
    expect(report).toMatchObject({
      truePositives: 1,
      falseNegatives: 1,
      falsePositives: 1,
      trueNegatives: 2,
    });
    expect(report.precision).toBe(0.5);
    expect(report.recall).toBe(0.5);
    expect(report.f1).toBe(0.5);
    expect(report.fpr).toBeCloseTo(1 / 3);
    expect(report.misclassified.map((m) => m.line)).toEqual([2, 3]);
    expect(formatBinaryReport(report)).toMatch(
      /precision 0\.500 {2}recall 0\.500 {2}f1 0\.500 {2}fpr 33\.3%/,
    );
  });

  it('gives zeros, not NaN, when a class is absent', () => {
    const tally = new BinaryTally();
    tally.add(1, 'a', false, false);
    expect(tally.report()).toMatchObject({ precision: 0, recall: 0, f1: 0, fpr: 0 });
  });
});

describe('preview', () => {
  it('flattens white space and shortens long inputs', () => {
    expect(preview('a\n\n b')).toBe('a b');
    expect(preview('x'.repeat(200), 10)).toBe(`${'x'.repeat(9)}…`);
  });
});
