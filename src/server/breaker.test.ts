import { afterEach, describe, expect, it } from 'vitest';
import { needRedis, type TestRedis } from '../../test/redis-server.js';
import { MemoryBreaker } from '../state/memory-breaker.js';
import { memoryState } from '../state/shared-state.js';
import { byModel } from '../testing/index.js';
import { chat, type Harness, post, startHarness } from './server.test-helpers.js';

/** A server whose breakers run on a clock the test moves, in front of the fake upstream. */
async function startClocked(tiers: Record<string, string[]>, failures = 2) {
  const clock = { now: 1_000_000 };
  const state = { ...memoryState(), breaker: new MemoryBreaker(() => clock.now) };
  const h = await startHarness({
    state,
    config: (baseUrl) => ({
      providers: { fake: { baseUrl, timeoutMs: 10_000 } },
      tiers,
      breaker: { failures, openMs: 1_000 },
    }),
  });
  return { h, clock };
}

const models = (h: Harness) => h.fake.chatRequests.map((r) => r.model);
const metric = async (h: Harness, pattern: RegExp) =>
  (await h.server.metrics.render()).match(pattern)?.[1];

describe('circuit breaker per upstream model', () => {
  let h: Harness | undefined;
  afterEach(async () => {
    await h?.close();
    h = undefined;
  });

  it('skips a failing upstream after the threshold, probes it after openMs, and uses it again', async () => {
    const started = await startClocked({ MEDIUM: ['fake/mid-a', 'fake/mid-b'] });
    h = started.h;
    const url = `${h.url}/v1/chat/completions`;
    h.fake.reply(byModel({ 'mid-a': { status: 503 }, 'mid-b': 'from b' }));
    for (let i = 0; i < 2; i++) expect((await post(url, chat('plain'))).status).toBe(200);
    expect(models(h)).toEqual(['mid-a', 'mid-b', 'mid-a', 'mid-b']);
    h.fake.reset();
    h.fake.reply(byModel({ 'mid-a': { status: 503 }, 'mid-b': 'from b' }));
    const skipping = await post(url, chat('plain'));
    expect(skipping.status).toBe(200);
    expect(models(h)).toEqual(['mid-b']);
    expect(skipping.headers['x-triage-model']).toBe('fake/mid-b');
    expect(skipping.headers['x-triage-fallbacks']).toBe('1');
    expect(skipping.headers['x-triage-skipped']).toBe('fake/mid-a');
    expect(
      await metric(h, /triage_upstream_breaker_skips_total\{model="fake\/mid-a"\} (\d+)/),
    ).toBe('1');
    expect(await metric(h, /triage_upstream_breaker_state\{model="fake\/mid-a"\} (\d+)/)).toBe('1');
    expect(await metric(h, /triage_upstream_breaker_state\{model="fake\/mid-b"\} (\d+)/)).toBe('0');
    const chatLine = h.logs.lines
      .map((l) => JSON.parse(l))
      .findLast((l) => l.msg === 'chat completion');
    expect(chatLine.fallbacks).toEqual([{ model: 'fake/mid-a', reason: 'breaker_open' }]);
    const opened = h.logs.lines.map((l) => JSON.parse(l)).find((l) => l.breaker === 'open');
    expect(opened).toMatchObject({ model: 'fake/mid-a', shared: false, level: 40 });

    // openMs later, one request probes mid-a, which answers again: it is closed.
    started.clock.now += 1_000;
    expect(await metric(h, /triage_upstream_breaker_state\{model="fake\/mid-a"\} (\d+)/)).toBe('2');
    h.fake.reset();
    h.fake.reply(byModel({ 'mid-a': 'from a', 'mid-b': 'from b' }));
    const probe = await post(url, chat('plain'));
    expect(probe.headers['x-triage-model']).toBe('fake/mid-a');
    expect(probe.headers['x-triage-skipped']).toBeUndefined();
    expect(await metric(h, /triage_upstream_breaker_state\{model="fake\/mid-a"\} (\d+)/)).toBe('0');
    const closed = h.logs.lines.map((l) => JSON.parse(l)).find((l) => l.breaker === 'closed');
    expect(closed).toMatchObject({ model: 'fake/mid-a' });
  });

  it('a failed probe opens it again for another openMs', async () => {
    const started = await startClocked({ MEDIUM: ['fake/mid-a', 'fake/mid-b'] }, 1);
    h = started.h;
    const url = `${h.url}/v1/chat/completions`;
    h.fake.reply(byModel({ 'mid-a': { status: 500 }, 'mid-b': 'from b' }));
    await post(url, chat('plain'));
    started.clock.now += 1_000;
    await post(url, chat('plain'));
    await post(url, chat('plain'));
    // First request: mid-a fails (opens), then b; the probe: mid-a fails again, then b; then b only.
    expect(models(h)).toEqual(['mid-a', 'mid-b', 'mid-a', 'mid-b', 'mid-b']);
  });

  it('never refuses: when every model of the chain is open, the one opened longest ago is tried', async () => {
    const started = await startClocked({ MEDIUM: ['fake/mid-a', 'fake/mid-b'] }, 1);
    h = started.h;
    const url = `${h.url}/v1/chat/completions`;
    h.fake.reply({ status: 503 });
    // Each model named in turn opens its breaker, mid-a first.
    await post(url, chat('plain', { model: 'mid-a' }));
    started.clock.now += 10;
    await post(url, chat('plain', { model: 'mid-b' }));
    h.fake.reset();
    h.fake.reply({ status: 503 });
    started.clock.now += 10;
    const all = await post(url, chat('plain'));
    expect(all.status).toBe(502);
    expect(models(h)).toEqual(['mid-a']);
    const { message } = JSON.parse(all.text).error;
    expect(message).toContain('fake/mid-a (MEDIUM): HTTP 503');
    expect(message).toContain('fake/mid-b (MEDIUM): not tried: its circuit breaker is open');
    expect(all.headers['x-triage-skipped']).toBe('fake/mid-b');
    // That failure opened mid-a again: mid-b is now the one opened longest ago.
    started.clock.now += 10;
    await post(url, chat('plain'));
    expect(models(h)).toEqual(['mid-a', 'mid-b']);
    // A model named in the request is tried even when open (it has no other).
    await post(url, chat('plain', { model: 'mid-a' }));
    expect(models(h)).toEqual(['mid-a', 'mid-b', 'mid-a']);
  });

  it("counts only the upstream's failures: a client error is an answer, and off means off", async () => {
    const started = await startClocked({ MEDIUM: ['fake/mid-a', 'fake/mid-b'] }, 1);
    h = started.h;
    const url = `${h.url}/v1/chat/completions`;
    h.fake.reply({ status: 400, error: 'bad request' });
    for (let i = 0; i < 3; i++) expect((await post(url, chat('plain'))).status).toBe(400);
    expect(models(h)).toEqual(['mid-a', 'mid-a', 'mid-a']);
    const config = h.server.config;
    h.server.reload({ ...config, breaker: { ...config.breaker, enabled: false } });
    h.fake.reset();
    h.fake.reply(byModel({ 'mid-a': { status: 503 }, 'mid-b': 'from b' }));
    for (let i = 0; i < 3; i++) await post(url, chat('plain'));
    expect(models(h)).toEqual(['mid-a', 'mid-b', 'mid-a', 'mid-b', 'mid-a', 'mid-b']);
  });
});

describe('circuit breakers shared through Redis, two servers in this process', () => {
  let redis: TestRedis | undefined;
  const harnesses: Harness[] = [];
  afterEach(async () => {
    for (const h of harnesses.splice(0)) await h.close();
    await redis?.stop({ kill: true });
    redis = undefined;
  });

  it('a model that failed behind one server is skipped by the other, which never tried it', async (context) => {
    redis = await needRedis(context);
    const url = redis.url;
    const start = () =>
      startHarness({
        config: (baseUrl) => ({
          providers: { fake: { baseUrl, timeoutMs: 10_000 } },
          tiers: { MEDIUM: ['fake/mid-a', 'fake/mid-b'] },
          state: { redis: { url, timeoutMs: 1_000 } },
          breaker: { failures: 2, openMs: 60_000 },
        }),
      });
    const a = await start();
    const b = await start();
    harnesses.push(a, b);
    for (const h of [a, b]) {
      const up = async () => /triage_state_redis_up 1/.test(await h.server.metrics.render());
      for (let i = 0; !(await up()); i++) {
        if (i > 2_000) throw new Error('the server did not reach Redis');
        await new Promise((resolve) => setTimeout(resolve, 10));
      }
    }
    a.fake.reply(byModel({ 'mid-a': { status: 503 }, 'mid-b': 'from b' }));
    for (let i = 0; i < 2; i++) await post(`${a.url}/v1/chat/completions`, chat('plain'));
    const open = /triage_upstream_breaker_state\{model="fake\/mid-a"\} 1/;
    for (let i = 0; !open.test(await b.server.metrics.render()); i++) {
      if (i > 2_000) throw new Error('the other server did not see the breaker open');
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    const res = await post(`${b.url}/v1/chat/completions`, chat('plain'));
    expect(res.headers['x-triage-model']).toBe('fake/mid-b');
    expect(res.headers['x-triage-skipped']).toBe('fake/mid-a');
    expect(models(b)).toEqual(['mid-b']);
    const shared = b.logs.lines.map((l) => JSON.parse(l)).find((l) => l.breaker === 'open');
    expect(shared).toMatchObject({ model: 'fake/mid-a', shared: true });
  });
});
