import { createServer } from 'node:net';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { byModel } from '../testing/index.js';
import { chat, type Harness, post, startHarness } from './server.test-helpers.js';

/** A loopback port with nothing listening on it. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

describe('fallback before the first byte', () => {
  let h: Harness;
  beforeAll(async () => {
    // The default configuration: no test here is about timeouts.
    h = await startHarness();
  });
  afterAll(() => h.close());
  afterEach(() => {
    h.fake.reset();
    h.fake.reply('ok');
  });
  const completions = () => `${h.url}/v1/chat/completions`;

  it('tries the next model of the tier when the first answers 500', async () => {
    h.fake.reply(byModel({ 'mid-a': { status: 500, error: 'boom' }, 'mid-b': 'from b' }));
    const res = await post(completions(), chat('plain'));
    expect(res.status).toBe(200);
    expect(JSON.parse(res.text).choices[0].message.content).toBe('from b');
    expect(h.fake.chatRequests.map((r) => r.model)).toEqual(['mid-a', 'mid-b']);
    expect(res.headers['x-triage-model']).toBe('fake/mid-b');
    expect(res.headers['x-triage-fallbacks']).toBe('1');
    expect(res.headers['x-triage-tier']).toBe('MEDIUM');
  });

  it('goes up the fallback chain when every model of the tier fails (429, 503)', async () => {
    h.fake.reply(
      byModel({
        small: { status: 429, error: 'slow down', retryAfter: 3 },
        'mid-a': { status: 503 },
        'mid-b': { status: 502 },
        big: 'from big',
      }),
    );
    const res = await post(completions(), chat('[SIMPLE] hi'));
    expect(res.status).toBe(200);
    expect(h.fake.chatRequests.map((r) => r.model)).toEqual(['small', 'mid-a', 'mid-b', 'big']);
    expect(res.headers['x-triage-model']).toBe('fake/big');
    expect(res.headers['x-triage-fallbacks']).toBe('3');
  });

  it('falls back from an upstream that closes the connection before answering', async () => {
    h.fake.reply(byModel({ 'mid-a': { closeAfterBytes: 0 }, 'mid-b': 'ok b' }));
    const res = await post(completions(), chat('plain'));
    expect(res.status).toBe(200);
    expect(res.headers['x-triage-model']).toBe('fake/mid-b');
  });

  it('answers 429 with retry-after when every model is rate limited', async () => {
    h.fake.reply({ status: 429, error: 'quota', retryAfter: 7 });
    const res = await post(completions(), chat('[REASONING] x'));
    expect(res.status).toBe(429);
    expect(res.headers['retry-after']).toBe('7');
    const { error } = JSON.parse(res.text);
    expect(error.type).toBe('rate_limit_error');
    expect(error.message).toContain('HTTP 429: quota');
  });

  it('counts fallbacks and failures in the metrics', async () => {
    h.fake.reply(byModel({ 'mid-a': { status: 500 }, 'mid-b': 'ok' }));
    await post(completions(), chat('plain'));
    const text = await h.server.metrics.render();
    expect(text).toMatch(
      /triage_fallbacks_total\{from_model="fake\/mid-a",reason="http_500"\} [1-9]/,
    );
    expect(text).toMatch(
      /triage_upstream_failures_total\{model="fake\/mid-a",reason="http_500"\} [1-9]/,
    );
  });
});

describe('fallback before the first byte, at the deadline', () => {
  let h: Harness;
  beforeAll(async () => {
    // Only the models that hang or stall in these tests have a short deadline; the ones that
    // answer have the provider's, far more than a busy machine needs. mid-a's request must reach
    // the server before its deadline for the stall to be tested: a second leaves a busy machine
    // time to send it.
    const short = (model: string, timeoutMs: number) => ({ provider: 'fake', model, timeoutMs });
    h = await startHarness({
      config: (baseUrl) => ({
        providers: { fake: { baseUrl, timeoutMs: 10_000 } },
        tiers: {
          SIMPLE: ['fake/small'],
          MEDIUM: [short('mid-a', 1000), 'fake/mid-b'],
          COMPLEX: [short('big', 300)],
          REASONING: [short('think', 300)],
        },
      }),
    });
  });
  afterAll(() => h.close());
  afterEach(() => {
    h.fake.reset();
    h.fake.reply('ok');
  });
  const completions = () => `${h.url}/v1/chat/completions`;

  it('falls back from a hung upstream once its timeout passes', async () => {
    h.fake.reply(byModel({ 'mid-a': { hang: true }, 'mid-b': 'after the hang' }));
    const res = await post(completions(), chat('plain'));
    expect(res.status).toBe(200);
    expect(JSON.parse(res.text).choices[0].message.content).toBe('after the hang');
    // The hung request was cancelled, not left open.
    await h.fake.waitFor(
      () =>
        h.fake.chatRequests[0]?.model === 'mid-a' &&
        h.fake.chatRequests[0].outcome === 'client-aborted',
      15_000,
    );
  });

  it('falls back from a stream that sends headers but no event before the timeout', async () => {
    h.fake.reply(
      byModel({ 'mid-a': { text: 'never', stallAfterBytes: 0 }, 'mid-b': 'second model' }),
    );
    const res = await post(completions(), chat('plain', { stream: true }));
    expect(res.status).toBe(200);
    expect(res.text).toContain('"content":" model"');
    expect(res.text).not.toContain('never');
    expect(h.fake.chatRequests.map((r) => r.model)).toEqual(['mid-a', 'mid-b']);
  });

  it('answers 504 listing every model when all of them time out', async () => {
    h.fake.reply({ hang: true });
    const res = await post(completions(), chat('[COMPLEX] x'));
    expect(res.status).toBe(504);
    const { error } = JSON.parse(res.text);
    expect(error.code).toBe('upstream_timeout');
    expect(error.message).toContain('fake/big (COMPLEX): no answer within 300 ms');
    expect(error.message).toContain('fake/think (REASONING)');
  });
});

describe('fallback on connection refused', () => {
  let h: Harness;
  beforeAll(async () => {
    const port = await closedPort();
    h = await startHarness({
      config: (baseUrl) => ({
        providers: {
          dead: { baseUrl: `http://127.0.0.1:${port}/v1` },
          fake: { baseUrl },
        },
        tiers: { MEDIUM: ['dead/m'], COMPLEX: ['fake/big'] },
      }),
    });
  });
  afterAll(() => h.close());

  it('moves on to the next model when the upstream refuses the connection', async () => {
    const res = await post(`${h.url}/v1/chat/completions`, chat('plain'));
    expect(res.status).toBe(200);
    expect(res.headers['x-triage-model']).toBe('fake/big');
    expect(res.headers['x-triage-tier']).toBe('MEDIUM');
    const text = await h.server.metrics.render();
    expect(text).toMatch(
      /triage_fallbacks_total\{from_model="dead\/m",reason="connection_refused"\} 1/,
    );
  });

  it('answers 502 naming the refusal when nothing else is left', async () => {
    const res = await post(`${h.url}/v1/chat/completions`, chat('plain', { model: 'dead/m' }));
    expect(res.status).toBe(502);
    expect(JSON.parse(res.text).error.message).toContain('dead/m (MEDIUM): connection refused');
  });
});
