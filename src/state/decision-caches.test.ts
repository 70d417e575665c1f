import { Redis } from 'ioredis';
import { afterEach, describe, expect, it } from 'vitest';
import { poll } from '../../test/poll.js';
import { needRedis, type TestRedis } from '../../test/redis-server.js';
import { memoryDecisionCaches, redisDecisionCaches } from './decision-caches.js';
import { RedisLink } from './redis-link.js';

const SIZE = { max: 100, ttlMs: 60_000 };

describe('verdict caches', () => {
  let redis: TestRedis | undefined;
  const links: RedisLink[] = [];
  afterEach(async () => {
    await Promise.all(links.splice(0).map((link) => link.close()));
    await redis?.stop({ kill: true });
    redis = undefined;
  });

  async function link(url: string): Promise<{ link: RedisLink; fallbacks: string[] }> {
    const fallbacks: string[] = [];
    const made = new RedisLink(
      // Long: on a busy machine a slow answer must not turn into a fallback.
      { url, keyPrefix: 'test:', timeoutMs: 10_000 },
      { fallback: (part) => fallbacks.push(part) },
    );
    links.push(made);
    expect(await made.ready(20_000)).toBe(true);
    return { link: made, fallbacks };
  }

  it('keeps verdicts in memory per part', () => {
    const cache = memoryDecisionCaches.of<string>('tier', SIZE);
    cache.set('k', { value: 'COMPLEX', confidence: 0.9 });
    expect(cache.get('k')).toEqual({ value: 'COMPLEX', confidence: 0.9 });
    expect(memoryDecisionCaches.of<string>('tier', SIZE).get('k')).toBeUndefined();
  });

  it("shares a verdict through Redis under a hashed key with the part's TTL, and answers local hits without it", async (context) => {
    redis = await needRedis(context);
    const a = await link(redis.url);
    const b = await link(redis.url);
    const writer = redisDecisionCaches(a.link).of<string>('tier', SIZE);
    const reader = redisDecisionCaches(b.link).of<string>('tier', SIZE);
    const prompt = 'a prompt that must not be a key';
    expect(await reader.get(prompt)).toBeUndefined();
    writer.set(prompt, { value: 'REASONING', reason: 'deep' });
    const plain = new Redis(redis.url);
    await poll(async () => (await plain.keys('test:decision:tier:*')).length === 1, 'the write');
    const [key] = await plain.keys('test:decision:*');
    expect(key).not.toContain('prompt');
    expect(JSON.parse((await plain.get(key!))!)).toMatchObject({
      verdict: { value: 'REASONING', reason: 'deep' },
    });
    expect(await plain.pttl(key!)).toBeGreaterThan(50_000);
    expect(await reader.get(prompt)).toEqual({ value: 'REASONING', reason: 'deep' });
    // Another part's cache does not see it.
    expect(await redisDecisionCaches(b.link).of('context', SIZE).get(prompt)).toBeUndefined();
    // Something not written by triage is a miss, not an error.
    await plain.set(key!, 'not json');
    expect(await redisDecisionCaches(b.link).of('tier', SIZE).get(prompt)).toBeUndefined();
    plain.disconnect();
    // Now kept locally by the reader: answered with Redis gone, and synchronously.
    await redis.stop({ kill: true });
    expect(reader.get(prompt)).toEqual({ value: 'REASONING', reason: 'deep' });
    expect(await reader.get('another prompt')).toBeUndefined();
    expect(b.fallbacks).toEqual(['cache']);
  });
});
