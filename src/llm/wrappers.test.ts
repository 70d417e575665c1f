import { describe, expect, it } from 'vitest';
import { gate } from '../../test/timing.js';
import { completionCacheKey, withCache } from './cache.js';
import { LlmHttpError, LlmTimeoutError } from './errors.js';
import { fakeProvider, useFakeLlm } from './fake.test-helpers.js';
import { withConcurrencyLimit } from './limit.js';
import type { CompletionRequest, CompletionResponse, LlmProvider } from './types.js';

const llm = useFakeLlm();

const ask = (content: string, extra: Partial<CompletionRequest> = {}): CompletionRequest => ({
  system: 'Classify.',
  messages: [{ role: 'user', content }],
  ...extra,
});

describe('decision cache', () => {
  it('answers a repeated request from the cache, without a call', async () => {
    llm.fake.reply((req) => `answer to ${req.prompt}`);
    const provider = fakeProvider('openai', llm.fake, { cache: { max: 100, ttlMs: 60_000 } });
    const first = await provider.complete(ask('a'));
    const second = await provider.complete(ask('a'));
    expect(first.cached).toBeUndefined();
    expect(second).toMatchObject({ text: 'answer to a', cached: true, latencyMs: 0 });
    expect(llm.fake.chatRequests).toHaveLength(1);
    await provider.complete(ask('b'));
    expect(llm.fake.chatRequests).toHaveLength(2);
    expect(provider.stats).toMatchObject({ cacheHits: 1, cacheMisses: 2, calls: 2 });
    await provider.close();
  });

  it('keys on everything that shapes the answer', () => {
    const base = ask('same');
    const key = completionCacheKey('p', 'm', base);
    expect(key).toMatch(/^[0-9a-f]{64}$/);
    expect(completionCacheKey('p', 'm', ask('same'))).toBe(key);
    for (const [what, other] of [
      ['provider', completionCacheKey('q', 'm', base)],
      ['model', completionCacheKey('p', 'n', base)],
      ['system', completionCacheKey('p', 'm', { ...base, system: 'Other.' })],
      ['messages', completionCacheKey('p', 'm', ask('different'))],
      ['schema', completionCacheKey('p', 'm', { ...base, schema: { type: 'object' } })],
      ['temperature', completionCacheKey('p', 'm', { ...base, temperature: 1 })],
      ['maxTokens', completionCacheKey('p', 'm', { ...base, maxTokens: 3 })],
      ['seed', completionCacheKey('p', 'm', { ...base, seed: 1 })],
    ] as const) {
      expect(other, what).not.toBe(key);
    }
  });

  it('does not cache failures', async () => {
    llm.fake.script({ status: 400, error: 'bad' });
    const provider = fakeProvider('ollama', llm.fake, { cache: { max: 10, ttlMs: 600_000 } });
    await expect(provider.complete(ask('x'))).rejects.toThrow(LlmHttpError);
    await provider.complete(ask('x'));
    expect(llm.fake.chatRequests).toHaveLength(2);
    expect((await provider.complete(ask('x'))).cached).toBe(true);
    expect(llm.fake.chatRequests).toHaveLength(2);
    await provider.close();
  });

  // Only the expiry is timed: waiting longer than the TTL can never keep an answer alive.
  it('forgets answers after the TTL', async () => {
    const provider = fakeProvider('ollama', llm.fake, { cache: { max: 10, ttlMs: 40 } });
    await provider.complete(ask('x'));
    await new Promise((resolve) => setTimeout(resolve, 60));
    expect((await provider.complete(ask('x'))).cached).toBeUndefined();
    expect(llm.fake.chatRequests).toHaveLength(2);
    await provider.close();
  });

  it('is a wrapper for any provider, keeping its id and model', async () => {
    let calls = 0;
    const inner: LlmProvider = {
      id: 'counting',
      model: 'm',
      complete: async (): Promise<CompletionResponse> => {
        calls++;
        return { text: 'x', model: 'm', latencyMs: 1 };
      },
    };
    const cached = withCache(inner, { max: 1 });
    expect([cached.id, cached.model]).toEqual(['counting', 'm']);
    await cached.complete(ask('a'));
    await cached.complete(ask('b'));
    await cached.complete(ask('a'));
    expect(calls).toBe(3); // max 1: 'a' was evicted by 'b'
    expect(cached.cacheStats).toEqual({ hits: 0, misses: 3 });
    cached.clearCache();
  });
});

describe('concurrency limit', () => {
  it('never lets more than maxConcurrency calls reach the server at once', async () => {
    let inFlight = 0;
    let most = 0;
    llm.fake.reply(() => {
      inFlight++;
      most = Math.max(most, inFlight);
      setTimeout(() => inFlight--, 25);
      return { text: 'ok', delayMs: 25 };
    });
    const provider = fakeProvider('openai', llm.fake, { maxConcurrency: 2 });
    const calls = Array.from({ length: 7 }, (_, i) => provider.complete(ask(`q${i}`)));
    await llm.fake.whenRequests(2);
    expect(provider.stats).toMatchObject({ active: 2, pending: 5 });
    await Promise.all(calls);
    expect(llm.fake.chatRequests).toHaveLength(7);
    expect(most).toBe(2);
    await provider.close();
  });

  it('counts the wait for a slot against the timeout, and frees the place of a call that gave up', async () => {
    // The only slot is held by a call the fake server answers when the test releases it.
    const release = gate();
    llm.fake.reply(async (request) => {
      if (request.prompt !== 'slow') return 'fast';
      await release.opened;
      return 'slow';
    });
    const provider = fakeProvider('anthropic', llm.fake, { maxConcurrency: 1, timeoutMs: 10_000 });
    const slow = provider.complete(ask('slow'));
    await llm.fake.whenRequests(1, 15_000);
    const waiting = provider.complete(ask('waits', { timeoutMs: 50 }));
    // It gave up while the slot was still held: at its own deadline, not when the slot freed.
    await expect(waiting).rejects.toThrow(LlmTimeoutError);
    await expect(waiting).rejects.toMatchObject({ timeoutMs: 50 });
    expect(llm.fake.chatRequests[0]?.outcome).toBe('pending');
    release.open();
    expect((await slow).text).toBe('slow');
    expect((await provider.complete(ask('next'))).text).toBe('fast');
    // The call that gave up never reached the server.
    expect(llm.fake.chatRequests.map((r) => r.prompt)).toEqual(['slow', 'next']);
    await provider.close();
  });

  it('gives a late starter only the time it has left', async () => {
    // The first call holds the slot until the test releases it, at least 100 ms later. The time
    // left to the second is bracketed by clock readings taken around the limiter's own.
    const LIMIT = 5_000; // far more than the test waits: the waiting call never runs out of time
    const seen: { timeoutMs: number | undefined; at: number }[] = [];
    const release = gate();
    const inner: LlmProvider = {
      id: 'timed',
      model: 'm',
      timeoutMs: LIMIT,
      complete: async (request) => {
        seen.push({ timeoutMs: request.timeoutMs, at: performance.now() });
        if (seen.length === 1) await release.opened;
        return { text: 'x', model: 'm', latencyMs: 1 };
      },
    };
    const limited = withConcurrencyLimit(inner, 1);
    const before = performance.now();
    const first = limited.complete(ask('a'));
    const second = limited.complete(ask('b'));
    const after = performance.now();
    await new Promise((resolve) => setTimeout(resolve, 100));
    const releasedAt = performance.now();
    release.open();
    await Promise.all([first, second]);
    const [a, b] = seen as [(typeof seen)[0], (typeof seen)[0]];
    // A call that starts at once keeps its request (unless a stall made even it wait).
    expect(a.timeoutMs ?? LIMIT).toBeGreaterThanOrEqual(LIMIT - (a.at - before));
    expect(b.timeoutMs).toBeLessThanOrEqual(Math.max(1, LIMIT - (releasedAt - after)));
    expect(b.timeoutMs).toBeGreaterThanOrEqual(Math.max(1, LIMIT - (b.at - before)));
  });

  it('removes a waiting call whose caller aborted', async () => {
    llm.fake.script({ text: 'first', delayMs: 60 }); // the abort below comes before any answer
    const provider = fakeProvider('openai', llm.fake, { maxConcurrency: 1 });
    const first = provider.complete(ask('first'));
    const controller = new AbortController();
    const second = provider.complete(ask('second', { signal: controller.signal }));
    controller.abort(new Error('caller left'));
    await expect(second).rejects.toThrow('caller left');
    await first;
    expect(llm.fake.chatRequests).toHaveLength(1);
    await provider.close();
  });

  it('rejects a limit that is not a positive integer', () => {
    const inner: LlmProvider = {
      id: 'x',
      model: 'm',
      complete: async () => ({ text: '', model: 'm', latencyMs: 0 }),
    };
    expect(() => withConcurrencyLimit(inner, 0)).toThrow(RangeError);
    expect(() => withConcurrencyLimit(inner, 1.5)).toThrow(RangeError);
  });
});
