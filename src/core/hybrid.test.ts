import { describe, expect, it } from 'vitest';
import { settlesWithin, until } from '../../test/timing.js';
import { lruDecisionCache } from './decision-cache.js';
import { Hybrid, type HybridPolicy, type LlmDecider, type LocalVerdict } from './hybrid.js';

type Tier = 'SIMPLE' | 'MEDIUM' | 'COMPLEX';

const verdicts: Record<string, LocalVerdict<Tier>> = {
  sure: { value: 'SIMPLE', confidence: 0.95, margin: 0.6, reason: 'greeting' },
  unsure: { value: 'SIMPLE', confidence: 0.55, margin: 0.05 },
  narrow: { value: 'COMPLEX', confidence: 0.9, margin: 0.1 },
};

function hybrid(overrides: Partial<HybridPolicy<string, Tier>> = {}) {
  return new Hybrid<string, Tier>({
    name: 'tier',
    local: (input) => verdicts[input] ?? verdicts.unsure!,
    minConfidence: 0.7,
    minMargin: 0.2,
    timeoutMs: 50,
    fallback: () => ({ value: 'MEDIUM', confidence: 0.5 }),
    ...overrides,
  });
}

const answers =
  (value: Tier, confidence?: number): LlmDecider<string, Tier> =>
  async () => ({
    value,
    ...(confidence === undefined ? {} : { confidence }),
    reason: 'llm says so',
  });

describe('Hybrid', () => {
  it('uses a confident local verdict without asking the LLM', async () => {
    let asked = false;
    const h = hybrid({
      llm: async () => {
        asked = true;
        return { value: 'COMPLEX' };
      },
    });
    const decision = await h.decide('sure');
    expect(decision).toMatchObject({
      value: 'SIMPLE',
      source: 'local',
      confidence: 0.95,
      llmMs: 0,
    });
    expect(decision.reason).toBe('greeting');
    expect(asked).toBe(false);
    expect(h.stats).toMatchObject({ decisions: 1, local: 1, llmCalls: 0 });
  });

  it('asks the LLM when the margin is too narrow, even at high confidence', async () => {
    const decision = await hybrid({ llm: answers('COMPLEX', 0.9) }).decide('narrow');
    expect(decision).toMatchObject({
      source: 'llm',
      value: 'COMPLEX',
      localConfidence: 0.9,
      margin: 0.1,
    });
  });

  it('records an LLM override and a confirmation', async () => {
    const h = hybrid({ llm: answers('MEDIUM', 0.8) });
    const override = await h.decide('unsure');
    expect(override).toMatchObject({
      value: 'MEDIUM',
      source: 'llm',
      confidence: 0.8,
      localValue: 'SIMPLE',
      localConfidence: 0.55,
      llmConfidence: 0.8,
    });
    expect(override.reason).toContain('overrode');
    const confirm = await hybrid({ llm: answers('SIMPLE', 0.8) }).decide('unsure');
    expect(confirm.reason).toContain('confirmed');
    expect(h.stats).toMatchObject({ llmCalls: 1, llmOverrode: 1, llmConfirmed: 0 });
  });

  it('keeps the local verdict when no LLM is configured (the check is off)', async () => {
    const decision = await hybrid().decide('unsure');
    expect(decision).toMatchObject({ value: 'SIMPLE', source: 'local', confidence: 0.55 });
    expect(decision.reason).toContain('no LLM configured');
  });

  it('falls back without an LLM when the policy says so', async () => {
    const decision = await hybrid({ withoutLlm: 'fallback' }).decide('unsure');
    expect(decision).toMatchObject({ value: 'MEDIUM', source: 'fallback', confidence: 0.5 });
    expect(decision.reason).toBe('fallback: low confidence (local=0.55, no LLM configured)');
  });

  it('cuts a hanging LLM off at its timeout, aborts it, and falls back', async () => {
    let asked = false;
    let aborted = false;
    const h = hybrid({
      timeoutMs: 40,
      llm: (_input, _local, signal) => {
        asked = true;
        return new Promise(() => {
          signal.addEventListener('abort', () => {
            aborted = true;
          });
        });
      },
    });
    const started = performance.now();
    const pending = h.decide('unsure');
    await until(() => asked); // its deadline is armed by now
    expect(await settlesWithin(pending, 40 + 50)).toBe(true);
    const decision = await pending;
    const elapsed = performance.now() - started;
    expect(decision).toMatchObject({ value: 'MEDIUM', source: 'fallback' });
    expect(decision.reason).toMatch(
      /llm timeout \(DecisionTimeoutError: tier LLM decision did not answer within 40 ms\)/,
    );
    expect(aborted).toBe(true);
    expect(elapsed).toBeGreaterThanOrEqual(35);
    expect(h.stats).toMatchObject({ llmTimeouts: 1, fallbacks: 1 });
  });

  it('falls back when the LLM fails or answers invalidly', async () => {
    const h = hybrid({
      llm: async () => {
        throw new Error('answer was not a tier: "BANANA"');
      },
    });
    const decision = await h.decide('unsure');
    expect(decision.source).toBe('fallback');
    expect(decision.reason).toContain('llm error (Error: answer was not a tier: "BANANA")');
    expect(h.stats.llmErrors).toBe(1);
  });

  it('falls back when the LLM is itself unsure, recording both confidences', async () => {
    const h = hybrid({ llm: answers('COMPLEX', 0.4), llmMinConfidence: 0.7 });
    const decision = await h.decide('unsure');
    expect(decision).toMatchObject({ source: 'fallback', value: 'MEDIUM', llmConfidence: 0.4 });
    expect(decision.reason).toBe('fallback: low confidence (local=0.55, llm=0.40)');
    expect(h.stats.llmUnsure).toBe(1);
  });

  it('lets the fallback write its own reason, told why it was called', async () => {
    const decision = await hybrid({
      llm: async () => {
        throw new Error('down');
      },
      fallback: ({ cause }) => ({
        value: 'MEDIUM',
        confidence: 0.5,
        reason: `safe default (${cause})`,
      }),
    }).decide('unsure');
    expect(decision).toMatchObject({ source: 'fallback', reason: 'safe default (llm_error)' });
  });

  it('caches LLM verdicts by key and counts the hits', async () => {
    let calls = 0;
    const h = hybrid({
      llm: async () => {
        calls++;
        return { value: 'COMPLEX', confidence: 0.9 };
      },
      cache: lruDecisionCache(),
      cacheKey: (input) => input,
    });
    await h.decide('unsure');
    const second = await h.decide('unsure');
    expect(calls).toBe(1);
    expect(second).toMatchObject({ source: 'cached', value: 'COMPLEX', cached: true });
    expect(h.stats).toMatchObject({ llmCalls: 1, cacheHits: 1 });
  });

  it('does not cache fallbacks', async () => {
    let calls = 0;
    const h = hybrid({
      llm: async () => {
        calls++;
        throw new Error('down');
      },
      cache: lruDecisionCache(),
      cacheKey: (input) => input,
    });
    await h.decide('unsure');
    await h.decide('unsure');
    expect(calls).toBe(2);
  });

  it('rejects when the caller aborts, instead of falling back', async () => {
    const controller = new AbortController();
    const h = hybrid({ llm: () => new Promise(() => {}), timeoutMs: 5_000 });
    const pending = h.decide('unsure', controller.signal);
    controller.abort(new Error('client went away'));
    await expect(pending).rejects.toThrow('client went away');
  });

  it('decides synchronously when no I/O is needed, with the same counters', () => {
    const withLlm = hybrid({ llm: answers('COMPLEX') });
    expect(withLlm.decideLocally('sure', verdicts.sure!)).toMatchObject({
      value: 'SIMPLE',
      source: 'local',
    });
    expect(withLlm.decideLocally('unsure', verdicts.unsure!)).toBeUndefined();
    expect(withLlm.stats).toMatchObject({ decisions: 1, local: 1, llmCalls: 0 });
    const offline = hybrid({ withoutLlm: 'fallback' });
    expect(offline.decideLocally('unsure', verdicts.unsure!)).toMatchObject({
      value: 'MEDIUM',
      source: 'fallback',
    });
    expect(offline.stats).toMatchObject({ decisions: 1, fallbacks: 1 });
  });

  it('counts a decision once when the LLM is asked', async () => {
    const h = hybrid({ llm: answers('COMPLEX') });
    await h.decide('unsure');
    expect(h.stats).toMatchObject({ decisions: 1, llmCalls: 1, local: 0 });
  });

  it('records forced decisions', () => {
    const h = hybrid();
    expect(h.forced('COMPLEX', 'model id triage/complex')).toMatchObject({
      value: 'COMPLEX',
      source: 'forced',
      confidence: 1,
    });
    expect(h.stats.forced).toBe(1);
  });

  it('rejects a non-positive timeout', () => {
    expect(() => hybrid({ timeoutMs: 0 })).toThrow(/timeoutMs must be > 0/);
  });
});
