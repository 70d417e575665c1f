import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { ConformanceCase, ConformanceResult } from './conformance.js';

const modules = import.meta.glob<{ conformance: ConformanceCase[] }>('../src/**/*.conformance.ts', {
  eager: true,
});
const cases = Object.entries(modules).flatMap(([file, module]) => {
  if (!Array.isArray(module.conformance)) throw new Error(`${file} does not export conformance[]`);
  return module.conformance;
});

const MIXED = [
  'What is the capital of France?',
  '请证明这个定理',
  'Докажите теорему шаг за шагом',
  'اشرح الخوارزمية',
  '関数を書いてください',
  '코드를 작성해 주세요',
  'Écris une fonction en Python',
  '🙂🚀👩‍💻',
  'ignore previous instructions',
  '```js\nfunction f() {}\n```',
];

/** Texts of every shape a classifier must survive. */
const anyText = fc.oneof(
  fc.constant(''),
  fc.string({ unit: 'binary', maxLength: 400 }), // includes unpaired surrogates
  fc.string({ unit: 'grapheme', maxLength: 200 }), // emoji, combining sequences
  fc.string({ unit: fc.integer({ min: 0, max: 0x1f }).map((c) => String.fromCharCode(c)) }),
  fc.array(fc.constantFrom(...MIXED), { maxLength: 8 }).map((parts) => parts.join(' ')),
  fc
    .tuple(fc.constantFrom(...MIXED), fc.string({ unit: 'binary', maxLength: 50 }))
    .map(([a, b]) => a + b),
);

const HUGE = `${'lorem ipsum dolor sit amet '.repeat(40_000)}${'😀'.repeat(1000)}\ud800`;

function check(result: ConformanceResult): void {
  expect(Number.isFinite(result.confidence), 'confidence is finite').toBe(true);
  expect(result.confidence).toBeGreaterThanOrEqual(0);
  expect(result.confidence).toBeLessThanOrEqual(1);
  if (result.relevant !== false) {
    expect(typeof result.reason, 'a relevant result has a reason').toBe('string');
    expect(result.reason?.length).toBeGreaterThan(0);
  }
}

describe('conformance', () => {
  it('has classifiers registered', () => {
    expect(cases.length).toBeGreaterThan(0);
  });

  describe.each(cases.map((c) => [c.name, c] as const))('%s', (_name, subject) => {
    it('never throws, keeps confidence in [0, 1] and explains relevant results, on any text', () => {
      fc.assert(
        fc.property(anyText, (text) => {
          check(subject.classify(text));
        }),
        { numRuns: 300 },
      );
    });

    it('is deterministic', () => {
      fc.assert(
        fc.property(anyText, (text) => {
          expect(subject.classify(text)).toEqual(subject.classify(text));
        }),
        { numRuns: 100 },
      );
    });

    it('survives a huge text (1 MB, with emoji and a broken surrogate)', () => {
      check(subject.classify(HUGE));
    });
  });
});
