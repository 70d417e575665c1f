import { describe, expect, it } from 'vitest';
import { benchmarkClassifier, summarise } from './benchmark.js';
import { ClassificationResult } from './result.js';

describe('benchmarkClassifier', () => {
  it('times every context over every round and names the classifier', () => {
    let calls = 0;
    const result = benchmarkClassifier(
      {
        name: 'counting',
        classify: () => {
          calls++;
          return ClassificationResult.no();
        },
      },
      [1, 2, 3],
      { warmupRounds: 1, rounds: 4 },
    );
    expect(calls).toBe(15);
    expect(result.classifierName).toBe('counting');
    expect(result.samples).toBe(12);
    expect(result.p50Ns).toBeLessThanOrEqual(result.p99Ns);
    expect(result.p99Ns).toBeLessThanOrEqual(result.maxNs);
  });

  it('refuses an empty set of contexts', () => {
    expect(() =>
      benchmarkClassifier({ name: 'x', classify: () => ClassificationResult.no() }, []),
    ).toThrow(/at least one context/);
  });

  it('summarises timings into mean and percentiles', () => {
    const timings = Float64Array.from({ length: 100 }, (_, i) => i + 1);
    expect(summarise('x', timings)).toMatchObject({
      meanNs: 50.5,
      p50Ns: 51,
      p99Ns: 100,
      maxNs: 100,
    });
  });
});
