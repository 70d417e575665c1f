import type { Classifier } from './classifier.js';

/** Timings of one classifier over a set of contexts, in nanoseconds per classify. */
export interface ClassifierBenchmark {
  readonly classifierName: string;
  readonly samples: number;
  readonly meanNs: number;
  readonly p50Ns: number;
  readonly p99Ns: number;
  readonly maxNs: number;
}

/** Options of {@link benchmarkClassifier}. */
export interface BenchmarkOptions {
  /** Passes over all contexts before timing, so the JIT has settled. Default 3. */
  readonly warmupRounds?: number;
  /** Timed passes over all contexts. Default 10. */
  readonly rounds?: number;
}

/**
 * Measures a classifier (the original design's benchmark helper): times each `classify` call over
 * `contexts` with the monotonic high-resolution clock and reports mean, p50, p99 and max.
 * Timer overhead (tens of nanoseconds) is included; for sub-microsecond figures use `npm run bench`,
 * which batches calls.
 */
export function benchmarkClassifier<C>(
  classifier: Classifier<C>,
  contexts: readonly C[],
  options: BenchmarkOptions = {},
): ClassifierBenchmark {
  if (contexts.length === 0) throw new RangeError('benchmarkClassifier needs at least one context');
  const warmup = options.warmupRounds ?? 3;
  const rounds = options.rounds ?? 10;
  let sink = 0;
  for (let r = 0; r < warmup; r++) {
    for (const context of contexts) sink += classifier.classify(context).confidence;
  }
  const timings = new Float64Array(contexts.length * rounds);
  let n = 0;
  for (let r = 0; r < rounds; r++) {
    for (const context of contexts) {
      const start = process.hrtime.bigint();
      sink += classifier.classify(context).confidence;
      timings[n++] = Number(process.hrtime.bigint() - start);
    }
  }
  if (Number.isNaN(sink)) throw new Error('unreachable: keeps the calls from being optimised away');
  return summarise(classifier.name, timings);
}

/** Mean, percentiles and max of a set of timings. */
export function summarise(name: string, timings: Float64Array): ClassifierBenchmark {
  const sorted = Float64Array.from(timings).sort();
  let sum = 0;
  for (const t of sorted) sum += t;
  const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!;
  return {
    classifierName: name,
    samples: sorted.length,
    meanNs: sum / sorted.length,
    p50Ns: at(0.5),
    p99Ns: at(0.99),
    maxNs: sorted[sorted.length - 1]!,
  };
}
