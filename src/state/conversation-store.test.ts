import fc from 'fast-check';
import { Redis } from 'ioredis';
import { afterEach, describe, expect, it } from 'vitest';
import { needRedis, type TestRedis } from '../../test/redis-server.js';
import { type ConversationMark, decodeMark, encodeMark } from './conversation-store.js';
import { MemoryConversationStore } from './memory-conversation-store.js';
import { markKey, RedisConversationStore } from './redis-conversation-store.js';
import { RedisLink } from './redis-link.js';

const mark = (applied: number, last = `p${applied}`): ConversationMark => ({ applied, last });

describe('conversation marks', () => {
  it('read back what was written, and nothing else', () => {
    fc.assert(
      fc.property(fc.nat(), fc.base64String({ maxLength: 28 }), (applied, last) => {
        expect(decodeMark(encodeMark({ applied, last }))).toEqual({ applied, last });
      }),
    );
    for (const bad of [null, undefined, '', ':x', 'x:y', '-1:y', '1.5:y', '12']) {
      expect(decodeMark(bad)).toBeUndefined();
    }
  });
});

describe('MemoryConversationStore', () => {
  it('swaps: returns the mark before and keeps the new one', () => {
    const store = new MemoryConversationStore();
    expect(store.swap('a', mark(1), 60)).toBeUndefined();
    expect(store.swap('a', mark(3), 60)).toEqual(mark(1));
    expect(store.swap('b', mark(2), 60)).toBeUndefined();
    expect(store.swap('a', mark(0, ''), 60)).toEqual(mark(3));
  });

  it('forgets a mark ttlSeconds after its last swap, and keeps at most `max`', () => {
    let now = 1_000;
    const store = new MemoryConversationStore(2, () => now);
    store.swap('a', mark(1), 10);
    now += 9_999;
    expect(store.swap('a', mark(2), 10)).toEqual(mark(1)); // a swap renews it
    now += 10_001;
    expect(store.swap('a', mark(3), 10)).toBeUndefined();
    store.swap('b', mark(1), 10);
    store.swap('c', mark(1), 10);
    expect(store.size).toBe(2);
    expect(store.swap('a', mark(4), 10)).toBeUndefined(); // the least recently used left
  });
});

describe('RedisConversationStore, against a real redis-server', () => {
  let redis: TestRedis | undefined;
  const links: RedisLink[] = [];
  afterEach(async () => {
    await Promise.all(links.splice(0).map((link) => link.close()));
    await redis?.stop({ kill: true });
    redis = undefined;
  });

  async function instance(url: string, fallbacks: string[] = []) {
    const link = new RedisLink(
      { url, keyPrefix: 'test:', timeoutMs: 1_000 },
      { fallback: (part) => fallbacks.push(part) },
    );
    links.push(link);
    expect(await link.ready(20_000)).toBe(true);
    return new RedisConversationStore(link);
  }

  it('shares marks between instances, one small key per conversation with its TTL', async (context) => {
    redis = await needRedis(context);
    const a = await instance(redis.url);
    const b = await instance(redis.url);
    expect(await a.swap('m:abc', mark(3), 600)).toBeUndefined();
    expect(await b.swap('m:abc', mark(5), 600)).toEqual(mark(3));
    expect(await a.swap('m:abc', mark(7), 600)).toEqual(mark(5));
    const plain = new Redis(redis.url);
    try {
      expect(await plain.get(`test:${markKey('m:abc')}`)).toBe('7:p7');
      const ttl = await plain.ttl(`test:${markKey('m:abc')}`);
      expect(ttl).toBeGreaterThan(0);
      expect(ttl).toBeLessThanOrEqual(600);
      // A value that is not a mark (written by something else) reads as an unknown conversation.
      await plain.set(`test:${markKey('m:abc')}`, 'garbage');
      expect(await b.swap('m:abc', mark(8), 600)).toBeUndefined();
    } finally {
      plain.disconnect();
    }
  });

  it('answers from its own memory while Redis is away, counted as part guidance', async (context) => {
    redis = await needRedis(context);
    const fallbacks: string[] = [];
    const a = await instance(redis.url, fallbacks);
    expect(await a.swap('c', mark(1), 600)).toBeUndefined();
    await redis.stop({ kill: true });
    // What this instance saw last is its answer meanwhile.
    expect(await a.swap('c', mark(2), 600)).toEqual(mark(1));
    expect(await a.swap('c', mark(4), 600)).toEqual(mark(2));
    expect(fallbacks.length).toBeGreaterThanOrEqual(1);
    expect(new Set(fallbacks)).toEqual(new Set(['guidance']));
  });
});
