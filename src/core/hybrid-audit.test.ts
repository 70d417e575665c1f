import { describe, expect, it } from 'vitest';
import {
  DecisionTimeoutError,
  InputError,
  isTimeoutError,
  LlmError,
  LlmHttpError,
  LlmInvalidOutputError,
  LlmNetworkError,
  LlmTimeoutError,
  TriageError,
} from './errors.js';
import { type DecisionCache, Hybrid, type LlmVerdict } from './hybrid.js';

/**
 * The audit shape every decision shares, written once in the hybrid: where a decision came from
 * and, for a fallback, why; the caller's deadline; a cache that answers later or fails.
 */

type Tier = 'SIMPLE' | 'MEDIUM' | 'COMPLEX';

function unsure(llm: () => Promise<LlmVerdict<Tier>>, cache?: DecisionCache<Tier>) {
  return new Hybrid<string, Tier>({
    name: 'test',
    local: () => ({ value: 'SIMPLE', confidence: 0.5 }),
    minConfidence: 0.7,
    timeoutMs: 5_000,
    llmMinConfidence: 0.6,
    llm,
    fallback: () => ({ value: 'MEDIUM', confidence: 0.5 }),
    ...(cache ? { cache, cacheKey: (input: string) => input } : {}),
  });
}

const never = () => new Promise<never>(() => {});

describe('the decision audit', () => {
  it('says why each fallback happened', async () => {
    const cases: [() => Promise<LlmVerdict<Tier>>, string][] = [
      [() => Promise.reject(new LlmTimeoutError('p', 100)), 'llm_timeout'],
      [() => Promise.reject(new LlmHttpError('p', 503)), 'llm_error'],
      [() => Promise.reject(new LlmNetworkError('p', 'refused')), 'llm_error'],
      [() => Promise.reject(new LlmInvalidOutputError('p', 'not JSON')), 'llm_invalid'],
      [async () => ({ value: 'COMPLEX', confidence: 0.3 }), 'llm_unsure'],
    ];
    for (const [llm, cause] of cases) {
      const decision = await unsure(llm).decide('x');
      expect(decision).toMatchObject({ source: 'fallback', fallbackCause: cause, value: 'MEDIUM' });
    }
    const withoutLlm = new Hybrid<string, Tier>({
      name: 'test',
      local: () => ({ value: 'SIMPLE', confidence: 0.5 }),
      minConfidence: 0.7,
      timeoutMs: 100,
      withoutLlm: 'fallback',
      fallback: () => ({ value: 'MEDIUM', confidence: 0.5 }),
    });
    expect((await withoutLlm.decide('x')).fallbackCause).toBe('no_llm');
  });

  it('falls back with cause deadline when the caller’s deadline comes first', async () => {
    const h = unsure(never);
    const decision = await h.decide('x', { deadlineMs: 30 });
    expect(decision).toMatchObject({ source: 'fallback', fallbackCause: 'deadline' });
    expect(h.stats).toMatchObject({ deadlines: 1, llmTimeouts: 0, fallbacks: 1 });
    const spent = await h.decide('x', { deadlineMs: 0 });
    expect(spent).toMatchObject({ fallbackCause: 'deadline', llmMs: 0 });
  });

  it('counts an LLM timeout as a timeout, and an invalid answer apart from other errors', async () => {
    const h = unsure(() => Promise.reject(new LlmTimeoutError('p', 100)));
    await h.decide('x');
    expect(h.stats).toMatchObject({ llmTimeouts: 1, llmErrors: 0 });
    const invalid = unsure(() => Promise.reject(new LlmInvalidOutputError('p', 'no')));
    await invalid.decide('x');
    expect(invalid.stats).toMatchObject({ llmErrors: 1, llmInvalid: 1 });
  });

  it('reads a cache that answers later, marks its verdicts cached, and survives one that fails', async () => {
    const store = new Map<string, LlmVerdict<Tier>>();
    const later: DecisionCache<Tier> = {
      get: (key) => new Promise((resolve) => setTimeout(() => resolve(store.get(key)), 5)),
      set: (key, verdict) => {
        store.set(key, verdict);
      },
    };
    let calls = 0;
    const h = unsure(async () => {
      calls++;
      return { value: 'COMPLEX', confidence: 0.9, reason: 'why not' };
    }, later);
    expect(await h.decide('x')).toMatchObject({
      source: 'llm',
      cached: false,
      llmReason: 'why not',
    });
    expect(await h.decide('x')).toMatchObject({
      source: 'cached',
      cached: true,
      llmMs: 0,
      llmConfidence: 0.9,
      llmReason: 'why not',
    });
    expect(calls).toBe(1);
    const broken: DecisionCache<Tier> = {
      get: () => Promise.reject(new Error('store down')),
      set: () => Promise.reject(new Error('store down')),
    };
    const h2 = unsure(async () => ({ value: 'COMPLEX', confidence: 0.9 }), broken);
    expect(await h2.decide('x')).toMatchObject({ source: 'llm', value: 'COMPLEX' });
  });

  it('takes the abort signal alone too (the deprecated form)', async () => {
    const controller = new AbortController();
    const pending = unsure(never).decide('x', controller.signal);
    controller.abort(new Error('gone'));
    await expect(pending).rejects.toThrow('gone');
  });
});

describe('the error hierarchy', () => {
  it('is one tree under TriageError, and a timeout is an LLM error', () => {
    const timeout = new LlmTimeoutError('p', 100);
    expect(timeout).toBeInstanceOf(LlmError);
    expect(timeout).toBeInstanceOf(TriageError);
    expect(timeout).toMatchObject({ code: 'llm_timeout', provider: 'p', retriable: true });
    expect(isTimeoutError(timeout)).toBe(true);
    expect(isTimeoutError(new DecisionTimeoutError('x', 5))).toBe(true);
    expect(isTimeoutError(new LlmHttpError('p', 500))).toBe(false);
    // Kept for one release: code that tested LLM timeouts as decision timeouts still works.
    expect(timeout instanceof DecisionTimeoutError).toBe(true);
    expect(new LlmHttpError('p', 500) instanceof DecisionTimeoutError).toBe(false);
    for (const error of [
      new LlmHttpError('p', 500),
      new LlmNetworkError('p', 'x'),
      new LlmInvalidOutputError('p', 'x'),
    ]) {
      expect(error).toBeInstanceOf(LlmError);
    }
    expect(new InputError('bad_input', 'x')).toBeInstanceOf(TriageError);
  });
});

describe('input errors', () => {
  it('share the InputError base, each with its own code', async () => {
    const { TierRequestError } = await import('../tier/extract.js');
    const { EmptyTaskError } = await import('../capabilities/errors.js');
    const { TrajectoryEventError } = await import('../guidance/errors.js');
    const { PipelineInputError } = await import('../pipeline/errors.js');
    const errors = [
      new TierRequestError('x'),
      new EmptyTaskError(),
      new TrajectoryEventError('x'),
      new PipelineInputError('x'),
    ];
    for (const error of errors) expect(error).toBeInstanceOf(InputError);
    expect(new Set(errors.map((error) => error.code)).size).toBe(4);
  });
});
