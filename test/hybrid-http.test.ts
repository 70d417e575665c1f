import { describe, expect, it } from 'vitest';
import { KINDS, useFakeLlm, whenAbandonedClosed } from '../src/llm/fake.test-helpers.js';
import type { HybridCase } from './hybrid-http.js';

const modules = import.meta.glob<{ hybridConformance: HybridCase[] }>(
  '../src/**/*.hybrid-conformance.ts',
  { eager: true },
);
const cases = Object.entries(modules).flatMap(([file, module]) => {
  if (!Array.isArray(module.hybridConformance)) {
    throw new Error(`${file} does not export hybridConformance[]`);
  }
  return module.hybridConformance;
});

const llm = useFakeLlm();
/**
 * The deadline of the scenarios that are not about it: far more than any answer of the fake
 * server takes on a busy machine, less than the test's own time limit.
 */
const PATIENT_MS = 10_000;
/** The deadline of the scenario where the LLM never answers: the only way its call can end. */
const DEADLINE_MS = 200;

describe('hybrid decisions over HTTP', () => {
  it('has every subsystem that asks an LLM registered', () => {
    expect(cases.map((c) => c.name).sort()).toEqual([
      'capability selection',
      'context router',
      'injection guard',
      'tier router',
    ]);
  });

  const table = cases.flatMap((c) =>
    KINDS.map((kind) => [`${c.name} over ${kind}`, c, kind] as const),
  );
  describe.each(table)('%s', (_name, subject, kind) => {
    const build = (timeoutMs: number, cache = false) =>
      subject.create(llm.provider(kind, { maxRetries: 0, timeoutMs: PATIENT_MS }), {
        timeoutMs,
        cache,
      });

    it('uses the answer of the LLM when the local classifier is unsure', async () => {
      llm.fake.reply(subject.answer.reply);
      const decider = build(PATIENT_MS);
      const verdict = await decider.decide();
      expect(verdict).toMatchObject({
        source: 'llm',
        value: subject.answer.value,
        cached: false,
        fallbackCause: null,
      });
      expect(llm.fake.chatRequests).toHaveLength(1);
      expect(llm.fake.chatRequests[0]?.format).toBe(kind);
      expect(decider.stats).toMatchObject({ llmCalls: 1, fallbacks: 0 });
    });

    it('falls back at its deadline when the LLM never answers, and closes the connection', async () => {
      llm.fake.reply({ hang: true });
      const decider = build(DEADLINE_MS);
      const started = performance.now();
      // The fake server never answers: the call can only have ended at the deadline.
      const verdict = await decider.decide();
      expect(performance.now() - started).toBeGreaterThanOrEqual(DEADLINE_MS - 5);
      expect(verdict).toMatchObject({
        source: 'fallback',
        value: subject.fallback,
        cached: false,
        fallbackCause: 'llm_timeout',
      });
      expect(verdict.reason).not.toBe('');
      expect(decider.stats).toMatchObject({ llmCalls: 1, llmTimeouts: 1, fallbacks: 1 });
      await whenAbandonedClosed(llm.fake);
    });

    it.each([
      ['an HTTP error', { status: 503, error: 'overloaded' }, 'llm_error', 0],
      ['a malformed body', { raw: '{"content": [', status: 200 }, 'llm_invalid', 1],
      ['an answer outside its schema', subject.outsideSchema, 'llm_invalid', 1],
    ] as const)('falls back on %s', async (_what, reply, cause, invalid) => {
      llm.fake.reply(reply);
      const decider = build(PATIENT_MS);
      const verdict = await decider.decide();
      expect(verdict).toMatchObject({
        source: 'fallback',
        value: subject.fallback,
        fallbackCause: cause,
      });
      expect(verdict.reason).not.toBe('');
      expect(decider.stats).toMatchObject({
        llmCalls: 1,
        llmErrors: 1,
        llmInvalid: invalid,
        fallbacks: 1,
      });
    });

    it('answers a repeated input from its cache, without a second request', async () => {
      llm.fake.reply(subject.answer.reply);
      const decider = build(PATIENT_MS, true);
      await decider.decide();
      const again = await decider.decideAgain();
      expect(again).toMatchObject({ source: 'cached', value: subject.answer.value, cached: true });
      expect(llm.fake.chatRequests).toHaveLength(1);
      expect(decider.stats).toMatchObject({ llmCalls: 1, cacheHits: 1 });
    });
  });
});
