import { describe, expect, it } from 'vitest';
import { LlmHttpError } from '../llm/errors.js';
import type { CompletionRequest, CompletionResponse, LlmProvider } from '../llm/types.js';
import { plainDecision } from './decision.js';
import { TierRequestError } from './extract.js';
import { truncatePrompt } from './llm.js';
import { createTierRouter } from './router.js';

/** A provider in the test: answers with `answer(request)`, records what it was sent. */
function provider(answer: (request: CompletionRequest) => string | Promise<string>) {
  const requests: CompletionRequest[] = [];
  const llm: LlmProvider = {
    id: 'test',
    model: 'tiny',
    async complete(request): Promise<CompletionResponse> {
      requests.push(request);
      return { text: await answer(request), model: 'tiny', latencyMs: 1 };
    },
  };
  return { llm, requests };
}

const AMBIGUOUS = 'What are the differences between TCP and UDP?'; // just below 0, confidence ~0.63
const CONFIDENT = 'What is the capital of France?';

describe('TierRouter without an LLM check', () => {
  const router = createTierRouter();

  it('decides confident prompts locally and synchronously', () => {
    const decision = router.classify(CONFIDENT);
    expect(decision).toMatchObject({
      tier: 'SIMPLE',
      source: 'local',
      forced: false,
      needsLlm: false,
      localTier: 'SIMPLE',
      fallbackChain: ['SIMPLE', 'MEDIUM', 'COMPLEX'],
    });
    expect(decision.score).toBeCloseTo(-0.19, 6);
  });

  it('sends an ambiguous verdict to the MEDIUM fallback (document: no key → MEDIUM)', async () => {
    const decision = await router.decide(AMBIGUOUS);
    expect(decision).toMatchObject({ tier: 'MEDIUM', source: 'fallback', localTier: 'SIMPLE' });
    expect(decision.signals.at(-1)).toMatch(/^ambiguous \(conf=0\.\d\d\) → fallback MEDIUM$/);
    expect(router.classify(AMBIGUOUS).tier).toBe('MEDIUM');
  });

  it('keeps an ambiguous local verdict when configured to', () => {
    const local = createTierRouter({ llm: { whenOff: 'local' } });
    const kept = local.classify(AMBIGUOUS);
    expect(kept).toMatchObject({ tier: 'SIMPLE', source: 'local' });
    expect(kept.reason).toBe('ambiguous local verdict SIMPLE kept (no LLM check configured)');
    expect(kept.signals.at(-1)).toMatch(/^ambiguous \(conf=0\.\d\d\) → kept \(LLM check off\)$/);
  });

  it('classify and decide agree without an LLM, decision and counters alike', async () => {
    // classify builds its decision itself (the hot path); decide goes through the hybrid.
    const prompts = [AMBIGUOUS, 'Write a Python function that checks whether a number is prime.'];
    for (const whenOff of ['fallback', 'local'] as const) {
      const fast = createTierRouter({ llm: { whenOff } });
      const slow = createTierRouter({ llm: { whenOff } });
      for (const prompt of prompts) {
        const quick = fast.classify(prompt);
        const checked = await slow.decide(prompt);
        expect(plainDecision(quick)).toEqual(plainDecision(checked));
      }
      expect(fast.stats).toEqual(slow.stats);
    }
  });

  it('forces tiers from model ids, bypassing classification', async () => {
    const decision = await router.decide({
      model: 'triage/reasoning',
      messages: [{ role: 'user', content: 'hi' }],
    });
    expect(decision).toMatchObject({
      tier: 'REASONING',
      source: 'forced',
      forced: true,
      confidence: 1,
      fallbackChain: ['REASONING'],
    });
    expect(decision.score).toBeNull();
  });

  it('does not let the system prompt push a greeting up (a departure from the original design)', () => {
    const system =
      'You are an agent with tools read_file, write_file, deploy. Think step by step, prove your ' +
      'claims, respond in JSON, design distributed Kubernetes microservices. '.repeat(40);
    const decision = router.classify({
      messages: [
        { role: 'system', content: system },
        { role: 'user', content: 'hello!' },
      ],
    });
    expect(decision.tier).toBe('SIMPLE');
  });

  it('gives the server the fallback chain of any tier', () => {
    expect(router.fallbackChain('MEDIUM')).toEqual(['MEDIUM', 'COMPLEX']);
    expect(router.fallbackChain('COMPLEX')).toEqual(['COMPLEX', 'REASONING']);
    const custom = createTierRouter({ fallbackChain: { SIMPLE: ['SIMPLE', 'COMPLEX'] } });
    expect(custom.fallbackChain('SIMPLE')).toEqual(['SIMPLE', 'COMPLEX']);
  });

  it('never puts prompt text into a decision', () => {
    const decision = router.classify('Zanzibar-secret-42 what is the capital of Peru?');
    expect(JSON.stringify(decision)).not.toContain('Zanzibar');
  });

  it('decides a request over 100k tokens by its size, without extraction or scan', () => {
    const history = 'word '.repeat(50_000);
    const decision = router.classify({
      messages: [
        { role: 'system', content: history },
        { role: 'user', content: history },
        {
          role: 'user',
          content: [
            { type: 'text', text: 'hi' },
            { type: 'image_url', image_url: {} },
          ],
        },
      ],
    });
    expect(decision).toMatchObject({ tier: 'COMPLEX', override: 'huge-context', images: 1 });
    expect(decision.score).toBeNull();
    expect(() =>
      router.classify({ messages: [{ role: 'user', content: history.repeat(2) }, 7] } as never),
    ).toThrow(TierRequestError);
  });

  it('rejects a malformed request with a typed error', () => {
    expect(() => router.classify({ messages: 'hi' } as never)).toThrow(TierRequestError);
  });

  it('counts decisions', () => {
    const counted = createTierRouter();
    counted.classify(CONFIDENT);
    counted.classify(AMBIGUOUS);
    counted.classify({ model: 'simple', messages: [] });
    expect(counted.stats).toMatchObject({
      decisions: 3,
      local: 1,
      fallbacks: 1,
      forced: 1,
      llmCalls: 0,
    });
  });
});

describe('TierRouter with an LLM check', () => {
  it('never asks it with a two-way split: the threshold decides', async () => {
    const { llm, requests } = provider(() => 'REASONING');
    const score = createTierRouter().classify(AMBIGUOUS).score!;
    const router = createTierRouter({ split: { threshold: score + 0.01 } }, { classifier: llm });
    expect(router.classify(AMBIGUOUS)).toMatchObject({ needsLlm: false, source: 'local' });
    expect(await router.decide(AMBIGUOUS)).toMatchObject({ tier: 'SIMPLE', source: 'local' });
    expect(requests).toHaveLength(0);
  });

  it('asks the LLM only below 0.70 confidence, and uses its answer', async () => {
    const { llm, requests } = provider(() => 'MEDIUM');
    const router = createTierRouter({}, { classifier: llm });
    expect(router.llmEnabled).toBe(true);
    expect((await router.decide(CONFIDENT)).source).toBe('local');
    expect(requests).toHaveLength(0);
    const provisional = router.classify(AMBIGUOUS);
    expect(provisional).toMatchObject({ needsLlm: true, tier: 'SIMPLE' });
    expect(provisional.signals.at(-1)).toMatch(/→ needs LLM classification$/);
    const decision = await router.decide(AMBIGUOUS);
    expect(decision).toMatchObject({
      tier: 'MEDIUM',
      source: 'llm',
      localTier: 'SIMPLE',
      needsLlm: false,
    });
    expect(requests).toHaveLength(1);
    expect(requests[0]).toMatchObject({ temperature: 0, maxTokens: 8, timeoutMs: 1000 });
    expect(requests[0]?.system).toContain('SIMPLE, MEDIUM, COMPLEX or REASONING');
    expect(router.stats).toMatchObject({ llmCalls: 1, llmOverrode: 1, llmConfirmed: 0 });
  });

  it('records a confirmation', async () => {
    const { llm } = provider(() => 'simple');
    const router = createTierRouter({}, { classifier: llm });
    expect((await router.decide(AMBIGUOUS)).tier).toBe('SIMPLE');
    expect(router.stats).toMatchObject({ llmConfirmed: 1, llmOverrode: 0 });
  });

  it('sends at most 500 characters of the user’s text, never the system prompt', async () => {
    const { llm, requests } = provider(() => 'COMPLEX');
    const router = createTierRouter({}, { classifier: llm });
    const long = `Thơ về biển ${'sóng '.repeat(400)}`; // unrecognised, hence ambiguous
    await router.decide({
      messages: [
        { role: 'system', content: 'SYSTEM-SECRET' },
        { role: 'user', content: long },
      ],
    });
    const sent = requests[0]?.messages[0]?.content ?? '';
    expect(sent.length).toBe(500);
    expect(JSON.stringify(requests[0]?.messages)).not.toContain('SYSTEM-SECRET');
  });

  it('falls back to MEDIUM when the LLM fails or answers nonsense (document failure table)', async () => {
    const failing = createTierRouter(
      {},
      {
        classifier: provider(() => {
          throw new LlmHttpError('test', 503, 'overloaded');
        }).llm,
      },
    );
    expect(await failing.decide(AMBIGUOUS)).toMatchObject({ tier: 'MEDIUM', source: 'fallback' });
    expect(failing.stats.llmErrors).toBe(1);
    const nonsense = createTierRouter({}, { classifier: provider(() => 'BANANA').llm });
    const decision = await nonsense.decide(AMBIGUOUS);
    expect(decision).toMatchObject({ tier: 'MEDIUM', source: 'fallback' });
    expect(decision.reason).toContain('LLM check invalid answer');
    expect(decision.fallbackCause).toBe('llm_invalid');
    const rambling = createTierRouter(
      {},
      { classifier: provider(() => 'It is either SIMPLE or MEDIUM, hard to say.').llm },
    );
    expect((await rambling.decide(AMBIGUOUS)).source).toBe('fallback');
    const sentence = createTierRouter(
      {},
      { classifier: provider(() => 'The tier is **Complex**.').llm },
    );
    expect((await sentence.decide(AMBIGUOUS)).tier).toBe('COMPLEX');
  });

  it('cuts a slow LLM off at its timeout and falls back', async () => {
    const slow = provider(() => new Promise<string>(() => {}));
    const router = createTierRouter({ llm: { timeoutMs: 30 } }, { classifier: slow.llm });
    const decision = await router.decide(AMBIGUOUS);
    expect(decision).toMatchObject({ tier: 'MEDIUM', source: 'fallback' });
    expect(decision.llmMs).toBeGreaterThanOrEqual(25);
    expect(router.stats).toMatchObject({ llmTimeouts: 1, fallbacks: 1 });
  });

  it('never demotes an ambiguous higher tier to the fallback tier', async () => {
    const failing = provider(() => {
      throw new Error('down');
    });
    // Boundaries moved so that a greeting (score -0.19) lands just inside REASONING.
    const router = createTierRouter(
      { boundaries: { MEDIUM: -0.6, COMPLEX: -0.5, REASONING: -0.2 } },
      { classifier: failing.llm },
    );
    const decision = await router.decide('hello there');
    expect(decision.localTier).toBe('REASONING');
    expect(decision.tier).toBe('REASONING');
    const demoting = createTierRouter(
      { boundaries: { MEDIUM: -0.6, COMPLEX: -0.5, REASONING: -0.2 }, llm: { neverDemote: false } },
      { classifier: failing.llm },
    );
    expect((await demoting.decide('hello there')).tier).toBe('MEDIUM');
  });

  it('caches LLM verdicts by model and truncated text', async () => {
    const { llm, requests } = provider(() => 'COMPLEX');
    const router = createTierRouter({}, { classifier: llm });
    await router.decide(AMBIGUOUS);
    const second = await router.decide(AMBIGUOUS);
    expect(second).toMatchObject({ tier: 'COMPLEX', source: 'cached', cached: true, llmMs: 0 });
    expect(requests).toHaveLength(1);
    expect(router.stats).toMatchObject({ llmCalls: 1, cacheHits: 1 });
    const uncached = createTierRouter(
      { llm: { cacheSize: 0 } },
      { classifier: provider(() => 'COMPLEX').llm },
    );
    await uncached.decide(AMBIGUOUS);
    await uncached.decide(AMBIGUOUS);
    expect(uncached.stats.llmCalls).toBe(2);
  });

  it('rejects when the caller aborts', async () => {
    const router = createTierRouter(
      {},
      { classifier: provider(() => new Promise<string>(() => {})).llm },
    );
    const controller = new AbortController();
    const pending = router.decide(AMBIGUOUS, controller.signal);
    controller.abort(new Error('client went away'));
    await expect(pending).rejects.toThrow('client went away');
  });
});

describe('truncatePrompt', () => {
  it('cuts to the limit without splitting a surrogate pair', () => {
    expect(truncatePrompt('abcdef', 4)).toBe('abcd');
    const emoji = `abc${'😀'}`;
    expect(truncatePrompt(emoji, 4)).toBe('abc');
    expect(truncatePrompt('short', 500)).toBe('short');
  });
});
