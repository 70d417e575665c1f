import { Redis } from 'ioredis';
import { afterEach, describe, expect, it } from 'vitest';
import { needRedis, type TestRedis } from '../../test/redis-server.js';
import { RedisLink } from './redis-link.js';

/** Polls `condition` until it holds (a generous limit: the machine may be busy). */
async function until(condition: () => boolean, what: string, limitMs = 20_000): Promise<void> {
  const started = Date.now();
  while (!condition()) {
    if (Date.now() - started > limitMs) throw new Error(`still waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

describe('RedisLink, against a real redis-server', () => {
  let redis: TestRedis | undefined;
  let link: RedisLink | undefined;
  afterEach(async () => {
    await link?.close();
    await redis?.stop({ kill: true });
    link = undefined;
    redis = undefined;
  });

  function connect(url: string, timeoutMs = 1_000) {
    const events = { down: [] as string[], up: 0, fallbacks: [] as string[] };
    link = new RedisLink(
      { url, keyPrefix: 'test:', timeoutMs },
      {
        down: (error) => events.down.push(error.message),
        up: () => events.up++,
        fallback: (part) => events.fallbacks.push(part),
      },
    );
    return { link, events };
  }

  it('answers from Redis while it is up, with every key under the prefix', async (context) => {
    redis = await needRedis(context);
    const { link, events } = connect(redis.url);
    expect(await link.ready(20_000)).toBe(true);
    const value = await link.attempt(
      'test',
      async (client) => {
        await client.set('k', 'shared');
        return client.get('k');
      },
      () => 'local',
    );
    expect(value).toBe('shared');
    const plain = new Redis(redis.url);
    expect(await plain.get('test:k')).toBe('shared');
    plain.disconnect();
    expect(events).toEqual({ down: [], up: 1, fallbacks: [] });
  });

  it('answers locally while Redis is killed, says so once, and shares again when it returns', async (context) => {
    redis = await needRedis(context);
    const { link, events } = connect(redis.url);
    expect(await link.ready(20_000)).toBe(true);
    await redis.stop({ kill: true });
    const answers = [];
    for (let i = 0; i < 20; i++) {
      answers.push(
        await link.attempt(
          'limits',
          (client) => client.get('k'),
          () => 'local',
        ),
      );
    }
    expect(answers.every((answer) => answer === 'local')).toBe(true);
    expect(events.down).toHaveLength(1);
    expect(events.fallbacks.length).toBeGreaterThanOrEqual(19);
    expect(new Set(events.fallbacks)).toEqual(new Set(['limits']));
    await redis.restart();
    await until(() => link.up, 'the link to come back');
    expect(events.up).toBe(2);
    expect(
      await link.attempt(
        'limits',
        async (client) => (await client.ping()) as string,
        () => 'local',
      ),
    ).toBe('PONG');
  });

  it('answers locally when Redis is late, without waiting for it, and recovers once it answers', async (context) => {
    redis = await needRedis(context);
    const { link, events } = connect(redis.url, 50);
    expect(await link.ready(20_000)).toBe(true);
    // Redis holds every client's writes (for 5 s) from the moment it answers this; reads and
    // PING still answer.
    const pauser = new Redis(redis.url);
    await pauser.call('CLIENT', 'PAUSE', '5000', 'WRITE');
    pauser.disconnect();
    expect(
      await link.attempt(
        'cache',
        (client) => client.set('k', '1'),
        () => 'local',
      ),
    ).toBe('local');
    expect(link.up).toBe(false);
    expect(events.down).toHaveLength(1);
    await until(() => link.up, 'the link to be up again');
    expect(
      await link.attempt(
        'cache',
        (client) => client.get('missing'),
        () => 'local',
      ),
    ).toBeNull();
  });

  it('starts with Redis absent: every operation answers locally, and the outage is said once', async () => {
    const { link, events } = connect('redis://127.0.0.1:1', 50);
    expect(await link.ready(300)).toBe(false);
    for (let i = 0; i < 5; i++) {
      expect(
        await link.attempt(
          'breaker',
          (client) => client.get('k'),
          () => 'local',
        ),
      ).toBe('local');
    }
    await until(() => events.down.length > 0, 'the outage to be reported');
    expect(events.down).toHaveLength(1);
    expect(events.fallbacks).toEqual(['breaker', 'breaker', 'breaker', 'breaker', 'breaker']);
  });

  it('runs background writes only while up, and a failed one marks the link down', async (context) => {
    redis = await needRedis(context);
    const { link, events } = connect(redis.url);
    expect(await link.ready(20_000)).toBe(true);
    link.send((client) => client.set('bg', '1'));
    const plain = new Redis(redis.url);
    let written: string | null = null;
    while (written === null) written = await plain.get('test:bg');
    expect(written).toBe('1');
    plain.disconnect();
    link.send(() => Promise.reject(new Error('write failed')));
    await until(() => events.down.length === 1, 'the failed write to mark the link down');
    await until(() => link.up, 'the probe to find Redis answering');
  });
});
