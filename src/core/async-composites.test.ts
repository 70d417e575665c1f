import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { allOfAsync, anyOfAsync, notAsync, thresholdAsync } from './async-composites.js';
import type { AsyncClassifier, Classifier } from './classifier.js';
import { allOf, anyOf, not, threshold } from './composites.js';
import { ClassificationResult } from './result.js';

/** A local classifier that always answers `result`. */
const local = (name: string, result: ClassificationResult): Classifier<number> => ({
  name,
  classify: () => result,
});

/** An asynchronous classifier answering `result`, recording the calls and the signals it got. */
class Remote implements AsyncClassifier<number> {
  calls = 0;
  signals: (AbortSignal | undefined)[] = [];
  constructor(
    readonly name: string,
    readonly result: ClassificationResult,
  ) {}
  async classify(_context: number, signal?: AbortSignal): Promise<ClassificationResult> {
    this.calls++;
    this.signals.push(signal);
    await new Promise((resolve) => setImmediate(resolve));
    return this.result;
  }
}

const result = fc
  .record({
    relevant: fc.boolean(),
    confidence: fc.double({ min: 0, max: 1, noNaN: true }),
    reason: fc.option(fc.constantFrom('a', 'b', 'c'), { nil: undefined }),
  })
  .map(({ relevant, confidence, reason }) => {
    const details = reason === undefined ? {} : { reason };
    return relevant
      ? ClassificationResult.yes(confidence, details)
      : ClassificationResult.no({ ...details, confidence });
  });

describe('asynchronous composites', () => {
  it('decide as the synchronous ones do, local and LLM children mixed (property)', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.tuple(result, fc.boolean()), { maxLength: 5 }),
        fc.double({ min: 0, max: 1, noNaN: true }),
        async (children, min) => {
          const sync = children.map(([r], i) => local(`c${i}`, r));
          const mixed = children.map(([r, remote], i) =>
            remote ? new Remote(`c${i}`, r) : local(`c${i}`, r),
          );
          const strip = (r: ClassificationResult) => JSON.parse(JSON.stringify(r));
          expect(strip(await allOfAsync(...mixed).classify(0))).toEqual(
            strip(allOf(...sync).classify(0)),
          );
          expect(strip(await anyOfAsync(...mixed).classify(0))).toEqual(
            strip(anyOf(...sync).classify(0)),
          );
          if (children.length > 0) {
            const [first] = mixed;
            expect(strip(await notAsync(first!).classify(0))).toEqual(
              strip(not(sync[0]!).classify(0)),
            );
            expect(strip(await thresholdAsync(first!, min).classify(0))).toEqual(
              strip(threshold(sync[0]!, min).classify(0)),
            );
          }
        },
      ),
      { numRuns: 300 },
    );
  });

  it('ask children in order and stop once the answer is known', async () => {
    const cheapNo = local('cheap', ClassificationResult.no());
    const cheapYes = local('cheap', ClassificationResult.yes(0.9, { reason: 'local' }));
    const llm = new Remote('llm', ClassificationResult.yes(0.7, { reason: 'llm' }));
    expect((await allOfAsync(cheapNo, llm).classify(0)).relevant).toBe(false);
    expect(llm.calls).toBe(0);
    expect(await anyOfAsync(cheapYes, llm).classify(0)).toMatchObject({ reason: 'local' });
    expect(llm.calls).toBe(0);
    expect(await allOfAsync(cheapYes, llm).classify(0)).toMatchObject({
      relevant: true,
      confidence: 0.8,
      reason: 'local; llm',
    });
    expect(llm.calls).toBe(1);
  });

  it('pass the caller signal to every asynchronous child, and keep the sync names', async () => {
    const llm = new Remote('llm(m)', ClassificationResult.no());
    const signal = new AbortController().signal;
    await thresholdAsync(notAsync(anyOfAsync(allOfAsync(llm))), 0.5).classify(0, signal);
    expect(llm.signals).toEqual([signal]);
    expect(thresholdAsync(notAsync(anyOfAsync(allOfAsync(llm))), 0.5).name).toBe(
      'threshold(not(any_of(all_of(llm(m)))), 0.5)',
    );
    expect(() => thresholdAsync(llm, 1.5)).toThrow(RangeError);
  });

  it('do not invert an LLM that failed open into a confident answer', async () => {
    const undecided = ClassificationResult.no({
      reason: 'no guidance (fail open): LLM timeout',
      metadata: { source: 'fallback' },
    });
    expect(await notAsync(new Remote('llm', undecided)).classify(0)).toBe(undecided);
    expect(not(local('llm', undecided)).classify(0)).toBe(undecided);
    expect(
      (await notAsync(new Remote('llm', ClassificationResult.no())).classify(0)).relevant,
    ).toBe(true);
  });

  it('propagate a child that throws (the caller fails open past it)', async () => {
    const broken: AsyncClassifier<number> = {
      name: 'broken',
      classify: () => Promise.reject(new Error('down')),
    };
    await expect(allOfAsync(broken).classify(0)).rejects.toThrow('down');
  });
});
