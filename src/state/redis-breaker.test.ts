import { Redis } from 'ioredis';
import { afterEach, describe, expect, it } from 'vitest';
import { needRedis, type TestRedis } from '../../test/redis-server.js';
import { RedisBreaker } from './redis-breaker.js';
import { RedisLink } from './redis-link.js';

const M = 'fake/mid-a';
const SETTINGS = { enabled: true, failures: 3, openMs: 1_000 };

/** Polls `condition` until it holds (a generous limit: the machine may be busy). */
async function until(condition: () => Promise<boolean> | boolean, what: string): Promise<void> {
  const started = Date.now();
  while (!(await condition())) {
    if (Date.now() - started > 20_000) throw new Error(`still waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

describe('RedisBreaker, against a real redis-server', () => {
  let redis: TestRedis | undefined;
  const closers: (() => Promise<void>)[] = [];
  afterEach(async () => {
    for (const close of closers.splice(0)) await close();
    await redis?.stop({ kill: true });
    redis = undefined;
  });

  /** An instance's breakers over a link of its own, on a clock the test moves. */
  async function instance(url: string, clock: { now: number }) {
    const fallbacks: string[] = [];
    const changes: string[] = [];
    const link = new RedisLink(
      { url, keyPrefix: 'test:', timeoutMs: 1_000 },
      { fallback: (part) => fallbacks.push(part) },
    );
    const breaker = new RedisBreaker(link, () => clock.now);
    breaker.configure(SETTINGS);
    breaker.onChange((model, state, shared) =>
      changes.push(`${model} ${state}${shared ? ' shared' : ''}`),
    );
    closers.push(async () => {
      breaker.close();
      await link.close();
    });
    expect(await link.ready(20_000)).toBe(true);
    return { link, breaker, fallbacks, changes };
  }

  /** Resolves once the background writes sent so far have reached Redis (same connection). */
  const flushed = (link: RedisLink) => link.client.ping();

  it('an upstream found dead by one instance is skipped by the other, probed once, closed for both', async (context) => {
    redis = await needRedis(context);
    const clock = { now: 1_000_000 };
    const a = await instance(redis.url, clock);
    const b = await instance(redis.url, clock);
    // Failures in a row are counted across instances.
    a.breaker.report(M, 'pass', 'unhealthy');
    b.breaker.report(M, 'pass', 'unhealthy');
    await flushed(b.link);
    await a.breaker.refresh();
    a.breaker.report(M, 'pass', 'unhealthy');
    expect(a.breaker.admit(M, 500)).toBe('skip');
    await flushed(a.link);
    await b.breaker.refresh();
    expect(b.breaker.admit(M, 500)).toBe('skip');
    expect(b.changes).toEqual([`${M} open shared`]);
    expect(a.changes).toEqual([`${M} open`]);
    const plain = new Redis(redis.url);
    expect(await plain.hget('test:breaker:open', M)).toBe(String(clock.now));
    clock.now += 1_000;
    // Half-open: the instances race for the one probe; the loser skips.
    const [first, second] = await Promise.all([
      a.breaker.admit(M, 5_000),
      b.breaker.admit(M, 5_000),
    ]);
    expect([first, second].sort()).toEqual(['probe', 'skip']);
    const [prober, other] = first === 'probe' ? [a, b] : [b, a];
    expect(await other.breaker.admit(M, 5_000)).toBe('skip');
    prober.breaker.report(M, 'probe', 'healthy');
    await flushed(prober.link);
    await other.breaker.refresh();
    expect(other.breaker.admit(M, 5_000)).toBe('pass');
    expect(await plain.hget('test:breaker:open', M)).toBeNull();
    expect(await plain.exists(`test:breaker:probe:${M}`)).toBe(0);
    plain.disconnect();
    expect(a.fallbacks).toEqual([]);
  });

  it('a failed probe opens it again for every instance; a probe that learned nothing hands over', async (context) => {
    redis = await needRedis(context);
    const clock = { now: 1_000_000 };
    const a = await instance(redis.url, clock);
    const b = await instance(redis.url, clock);
    for (let i = 0; i < 3; i++) a.breaker.report(M, 'pass', 'unhealthy');
    clock.now += 1_000;
    expect(await a.breaker.admit(M, 60_000)).toBe('probe');
    a.breaker.report(M, 'probe', 'unknown');
    await flushed(a.link);
    await b.breaker.refresh();
    expect(await b.breaker.admit(M, 60_000)).toBe('probe');
    b.breaker.report(M, 'probe', 'unhealthy');
    await flushed(b.link);
    await a.breaker.refresh();
    expect(a.breaker.openedAt(M)).toBe(clock.now);
    expect(a.breaker.admit(M, 60_000)).toBe('skip');
  });

  it('refreshes by itself, and writes nothing for healthy answers of a quiet model', async (context) => {
    redis = await needRedis(context);
    const clock = { now: Date.now() };
    const a = await instance(redis.url, clock);
    const b = await instance(redis.url, clock);
    const watcher = new Redis(redis.url);
    // HDEL is run only by the script that writes a healthy answer (Redis counts the commands
    // scripts run); background refreshes read only.
    const hdels = async () =>
      Number(/cmdstat_hdel:calls=(\d+)/.exec(await watcher.info('commandstats'))?.[1] ?? 0);
    for (let i = 0; i < 100; i++) a.breaker.report(M, 'pass', 'healthy');
    await flushed(a.link);
    expect(await hdels()).toBe(0);
    a.breaker.report(M, 'pass', 'unhealthy');
    a.breaker.report(M, 'pass', 'healthy');
    await flushed(a.link);
    expect(await hdels()).toBeGreaterThan(0);
    watcher.disconnect();
    for (let i = 0; i < 3; i++) a.breaker.report(M, 'pass', 'unhealthy');
    await until(() => b.breaker.admit(M, 500) === 'skip', 'the other instance to skip the model');
  });

  it('carries on alone while Redis is away, counting fallbacks, and takes the shared state back', async (context) => {
    redis = await needRedis(context);
    const clock = { now: 1_000_000 };
    const a = await instance(redis.url, clock);
    await redis.stop({ kill: true });
    await until(() => !a.link.up, 'the link to see Redis gone');
    for (let i = 0; i < 3; i++) a.breaker.report(M, 'pass', 'unhealthy');
    expect(a.breaker.admit(M, 500)).toBe('skip');
    clock.now += 1_000;
    expect(await a.breaker.admit(M, 500)).toBe('probe');
    await a.breaker.refresh();
    expect(a.fallbacks.filter((part) => part === 'breaker').length).toBeGreaterThanOrEqual(2);
    expect(new Set(a.fallbacks)).toEqual(new Set(['breaker']));
    await redis.restart();
    await until(() => a.link.up, 'the link to come back');
    // Redis came back empty: what it shares wins.
    await a.breaker.refresh();
    expect(a.breaker.admit(M, 500)).toBe('pass');
  });
});
