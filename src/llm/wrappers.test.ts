import { describe, expect, it } from 'vitest';
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

  it('does not cache failures, and forgets answers after the TTL', async () => {
    llm.fake.script({ status: 400, error: 'bad' });
    const provider = fakeProvider('ollama', llm.fake, { cache: { max: 10, ttlMs: 40 } });
    await expect(provider.complete(ask('x'))).rejects.toThrow(LlmHttpError);
    await provider.complete(ask('x'));
    expect(llm.fake.chatRequests).toHaveLength(2);
    expect((await provider.complete(ask('x'))).cached).toBe(true);
    await new Promise((resolve) => setTimeout(resolve, 60));
    expect((await provider.complete(ask('x'))).cached).toBeUndefined();
    expect(llm.fake.chatRequests).toHaveLength(3);
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

  // Retried: upper time bounds can miss on a loaded CI core once in a while.
  it('counts the wait for a slot against the timeout, and frees the place of a call that gave up', {
    retry: 2,
  }, async () => {
    llm.fake.script({ text: 'slow', delayMs: 150 }).reply('fast');
    const provider = fakeProvider('anthropic', llm.fake, { maxConcurrency: 1, timeoutMs: 1000 });
    const slow = provider.complete(ask('slow'));
    const waiting = provider.complete(ask('waits', { timeoutMs: 50 }));
    const started = performance.now();
    await expect(waiting).rejects.toThrow(LlmTimeoutError);
    await expect(waiting).rejects.toMatchObject({ timeoutMs: 50 });
    expect(performance.now() - started).toBeLessThan(100);
    expect((await slow).text).toBe('slow');
    expect((await provider.complete(ask('next'))).text).toBe('fast');
    // The call that gave up never reached the server.
    expect(llm.fake.chatRequests.map((r) => r.prompt)).toEqual(['slow', 'next']);
    await provider.close();
  });

  it('gives a late starter only the time it has left', { retry: 2 }, async () => {
    const seen: (number | undefined)[] = [];
    const inner: LlmProvider = {
      id: 'timed',
      model: 'm',
      timeoutMs: 500,
      complete: async (request) => {
        seen.push(request.timeoutMs);
        await new Promise((resolve) => setTimeout(resolve, 60));
        return { text: 'x', model: 'm', latencyMs: 60 };
      },
    };
    const limited = withConcurrencyLimit(inner, 1);
    await Promise.all([limited.complete(ask('a')), limited.complete(ask('b'))]);
    expect(seen[0]).toBeUndefined();
    expect(seen[1]).toBeGreaterThan(400);
    expect(seen[1]).toBeLessThan(450);
  });

  it('removes a waiting call whose caller aborted', async () => {
    llm.fake.script({ text: 'first', delayMs: 60 });
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
