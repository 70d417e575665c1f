import fc from 'fast-check';
import { Redis } from 'ioredis';
import { afterEach, describe, expect, it } from 'vitest';
import { poll } from '../../test/poll.js';
import { needRedis, type TestRedis } from '../../test/redis-server.js';
import type { CounterStore } from './counter-store.js';
import { MemoryCounterStore } from './memory-counter-store.js';
import { RedisCounterStore } from './redis-counter-store.js';
import { RedisLink } from './redis-link.js';

const HOUR_MS = 3_600_000;

describe('RedisCounterStore, against a real redis-server', () => {
  let redis: TestRedis | undefined;
  const links: RedisLink[] = [];
  const plains: Redis[] = [];
  afterEach(async () => {
    await Promise.all(links.splice(0).map((link) => link.close()));
    for (const plain of plains.splice(0)) plain.disconnect();
    await redis?.stop({ kill: true });
    redis = undefined;
  });

  /** A store over a link of its own (as one instance has), and what the link reported. */
  async function instance(url: string) {
    const events = { down: 0, fallbacks: 0 };
    const link = new RedisLink(
      // Long: on a busy machine a slow answer must not turn into a fallback.
      { url, keyPrefix: 'test:', timeoutMs: 10_000 },
      { down: () => events.down++, fallback: () => events.fallbacks++ },
    );
    links.push(link);
    expect(await link.ready(20_000)).toBe(true);
    return { link, store: new RedisCounterStore(link), events };
  }

  function plain(url: string): Redis {
    const client = new Redis(url);
    plains.push(client);
    return client;
  }

  it('admits exactly the limit between two instances admitting at once', async (context) => {
    redis = await needRedis(context);
    const a = await instance(redis.url);
    const b = await instance(redis.url);
    const expiresAt = Date.now() + HOUR_MS;
    await a.store.add('spend', 3, expiresAt);
    const admission = {
      checks: [{ key: 'spend', limit: 5 }],
      take: { key: 'requests', amount: 1, limit: 40, expiresAt },
    };
    const results = await Promise.all(
      Array.from({ length: 200 }, (_, i) => (i % 2 ? a : b).store.admit(admission)),
    );
    expect(results.filter((refused) => refused === undefined)).toHaveLength(40);
    expect(results.filter((refused) => refused === 1)).toHaveLength(160);
    expect(await b.store.get('requests')).toBe(40);
    // The check refuses once its counter reaches the limit; the take is then left alone.
    await b.store.add('spend', 2, expiresAt);
    expect(await a.store.admit({ ...admission, take: { ...admission.take, limit: 100 } })).toBe(0);
    expect(await a.store.get('requests')).toBe(40);
    expect(a.events.fallbacks + b.events.fallbacks).toBe(0);
  });

  it('never lets concurrent check-and-adds of two instances pass the limit', async (context) => {
    redis = await needRedis(context);
    const stores = [(await instance(redis.url)).store, (await instance(redis.url)).store];
    const results = await Promise.all(
      Array.from({ length: 150 }, (_, i) =>
        stores[i % 2]!.checkAndAdd('k', 0.25, 10, Date.now() + HOUR_MS),
      ),
    );
    expect(results.filter((r) => r.allowed)).toHaveLength(40);
    expect(await stores[0]!.get('k')).toBe(10);
  });

  it('expires a counter when its window ends, keeping the expiry it was created with', async (context) => {
    redis = await needRedis(context);
    const { store } = await instance(redis.url);
    const check = plain(redis.url);
    const endsAt = Date.now() + 400;
    await store.addAll([
      { key: 'short', amount: 1, expiresAt: endsAt },
      { key: 'long', amount: 2, expiresAt: Date.now() + HOUR_MS },
    ]);
    // A later write with another window end leaves the first one's.
    expect(await store.add('short', 1, Date.now() + HOUR_MS)).toBe(2);
    expect(await check.pttl('test:short')).toBeLessThanOrEqual(400);
    expect(await check.pttl('test:long')).toBeGreaterThan(HOUR_MS - 60_000);
    await poll(async () => (await store.get('short')) === 0, 'the short counter to expire');
    expect(await store.get('long')).toBe(2);
  });

  it('answers from memory while Redis is killed, and from Redis again once it returns', async (context) => {
    redis = await needRedis(context);
    const { link, store, events } = await instance(redis.url);
    const expiresAt = Date.now() + HOUR_MS;
    const admission = { checks: [], take: { key: 'r', amount: 1, limit: 3, expiresAt } };
    expect(await store.admit(admission)).toBeUndefined();
    await redis.stop({ kill: true });
    // The local counters start afresh: three more are admitted during the outage.
    const during = [];
    for (let i = 0; i < 4; i++) during.push(await store.admit(admission));
    expect(during).toEqual([undefined, undefined, undefined, 0]);
    expect(events.down).toBe(1);
    expect(events.fallbacks).toBeGreaterThanOrEqual(3);
    await redis.restart();
    await poll(() => link.up, 'the link to come back');
    // Redis restarted empty (it keeps nothing on disk here): counted there again.
    expect(await store.admit(admission)).toBeUndefined();
    expect(await plain(redis.url).get('test:r')).toBe('1');
  });

  it('agrees with the memory store on any sequence of operations', async (context) => {
    redis = await needRedis(context);
    const { store: shared } = await instance(redis.url);
    const key = fc.constantFrom('a', 'b', 'c');
    // Quarters: fractional, and exact in both binary doubles and Redis's decimal floats.
    const amount = fc.integer({ min: 0, max: 20 }).map((n) => n / 4);
    const limit = fc.integer({ min: 0, max: 12 });
    const operation = fc.oneof(
      fc.record({ op: fc.constant('add' as const), key, amount }),
      fc.record({ op: fc.constant('get' as const), key }),
      fc.record({ op: fc.constant('checkAndAdd' as const), key, amount, limit }),
      fc.record({
        op: fc.constant('addAll' as const),
        additions: fc.array(fc.record({ key, amount }), { maxLength: 3 }),
      }),
      fc.record({
        op: fc.constant('admit' as const),
        checks: fc.array(fc.record({ key, limit }), { maxLength: 3 }),
        take: fc.option(fc.record({ key, amount, limit }), { nil: undefined }),
      }),
    );
    let run = 0;
    await fc.assert(
      fc.asyncProperty(fc.array(operation, { maxLength: 25 }), async (operations) => {
        // Each run has counters of its own in the one Redis.
        const space = `run${run++}:`;
        const expiresAt = Date.now() + HOUR_MS;
        const memory = new MemoryCounterStore();
        const apply = (store: CounterStore, at: (key: string) => string) => {
          const step = operations.map((o) => async () => {
            switch (o.op) {
              case 'add':
                return store.add(at(o.key), o.amount, expiresAt);
              case 'get':
                return store.get(at(o.key));
              case 'checkAndAdd':
                return store.checkAndAdd(at(o.key), o.amount, o.limit, expiresAt);
              case 'addAll':
                return store.addAll(
                  o.additions.map((a) => ({ key: at(a.key), amount: a.amount, expiresAt })),
                );
              case 'admit':
                return store.admit({
                  checks: o.checks.map((c) => ({ key: at(c.key), limit: c.limit })),
                  ...(o.take && { take: { ...o.take, key: at(o.take.key), expiresAt } }),
                });
            }
          });
          return step.reduce<Promise<unknown[]>>(
            async (done, next) => [...(await done), await next()],
            Promise.resolve([]),
          );
        };
        const inMemory = await apply(memory, (k) => k);
        const inRedis = await apply(shared, (k) => space + k);
        expect(inRedis).toEqual(inMemory);
      }),
      { numRuns: 150 },
    );
  });
});
