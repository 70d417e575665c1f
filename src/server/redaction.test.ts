import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { byModel } from '../testing/index.js';
import { createLogger } from './logging.js';
import { Secrets } from './secrets.js';
import { chat, type Harness, logCapture, post, startHarness } from './server.test-helpers.js';

const UPSTREAM_KEY = 'sk-upstream-0123456789abcdef';
const CLIENT_KEY = 'sk-client-fedcba9876543210';
const auth = { authorization: `Bearer ${CLIENT_KEY}` };

describe('keys an upstream echoes', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness({
      env: { FAKE_KEY: UPSTREAM_KEY, CLIENT_KEYS: CLIENT_KEY },
      config: (baseUrl) => ({
        server: { auth: { keysEnv: 'CLIENT_KEYS' } },
        providers: { fake: { baseUrl, apiKeyEnv: 'FAKE_KEY' } },
        tiers: { MEDIUM: ['fake/mid-a', 'fake/mid-b'] },
      }),
    });
  });
  afterAll(() => h.close());
  afterEach(() => {
    h.fake.reset();
    h.fake.reply('ok');
  });
  const completions = () => `${h.url}/v1/chat/completions`;
  const expectClean = (text: string) => {
    expect(text).not.toContain(UPSTREAM_KEY);
    expect(text).not.toContain(CLIENT_KEY);
    expect(text).not.toContain(UPSTREAM_KEY.slice(3));
  };

  it('are redacted from a passed-through 401 body', async () => {
    h.fake.reply({ status: 401, error: `Incorrect API key provided: ${UPSTREAM_KEY}.` });
    const res = await post(completions(), chat('x'), auth);
    expect(res.status).toBe(401);
    expectClean(res.text);
    expect(JSON.parse(res.text).error.message).toBe('Incorrect API key provided: [redacted].');
  });

  it('are redacted from a wrapped 400 message', async () => {
    h.fake.reply({ status: 400, raw: `bad request (auth: Bearer ${UPSTREAM_KEY})` });
    const res = await post(completions(), chat('x'), auth);
    expect(res.status).toBe(400);
    expectClean(res.text);
    expect(JSON.parse(res.text).error.message).toContain('Bearer [redacted]');
  });

  it('are redacted from the summary when every model failed', async () => {
    h.fake.reply(
      byModel({
        'mid-a': { status: 500, error: `upstream saw key ${UPSTREAM_KEY}` },
        'mid-b': { status: 503, error: `and ${encodeURIComponent(UPSTREAM_KEY)} too` },
      }),
    );
    const res = await post(completions(), chat('x'), auth);
    expect(res.status).toBe(502);
    expectClean(res.text);
    expect(res.text.match(/\[redacted\]/g)).toHaveLength(2);
  });

  it('are redacted from passed-through headers', async () => {
    h.fake.reply({ text: 'ok', headers: { 'x-debug-auth': `Bearer ${UPSTREAM_KEY}` } });
    const res = await post(completions(), chat('x'), auth);
    expect(res.status).toBe(200);
    expect(res.headers['x-debug-auth']).toBe('Bearer [redacted]');
  });

  it('are redacted from answers, whole or streamed, client keys included', async () => {
    const text = `echo ${UPSTREAM_KEY} and ${CLIENT_KEY}`;
    h.fake.reply(text);
    const whole = await post(completions(), chat('x'), auth);
    expectClean(whole.text);
    expect(JSON.parse(whole.text).choices[0].message.content).toBe(
      'echo [redacted] and [redacted]',
    );
    // An error event in a stream, cut into pieces of 5 bytes on the way.
    const events =
      'data: {"choices":[{"index":0,"delta":{"content":"hi"}}]}\n\n' +
      `data: {"error":{"message":"key ${UPSTREAM_KEY} was revoked"}}\n\n`;
    h.fake.reply({ raw: events, contentType: 'text/event-stream', chunkBytes: 5 });
    const streamed = await post(completions(), chat('x', { stream: true }), auth);
    expectClean(streamed.text);
    expect(streamed.text).toContain('key [redacted] was revoked');
  });

  it('never reach the logs', () => {
    expectClean(h.logs.text());
  });
});

describe('the server logger', () => {
  it('redacts known keys from every line, whatever field holds them', async () => {
    const capture = logCapture();
    const { logger, close } = createLogger({
      level: 'info',
      prompts: false,
      destination: capture.stream,
      secrets: new Secrets([UPSTREAM_KEY]),
    });
    logger.error({ err: new Error(`request failed with ${UPSTREAM_KEY}`) }, `key ${UPSTREAM_KEY}`);
    await close();
    expect(capture.text()).not.toContain(UPSTREAM_KEY);
    expect(capture.text()).toContain('key [redacted]');
  });
});

describe('Secrets', () => {
  it('ignores keys too short to redact safely, and replaces longer ones first', () => {
    const secrets = new Secrets(['short', 'abcdefgh', 'abcdefgh-longer', undefined]);
    expect(secrets.redactText('short abcdefgh-longer abcdefgh')).toBe(
      'short [redacted] [redacted]',
    );
    const bytes = Buffer.from('x abcdefgh y');
    expect(secrets.redactBytes(bytes).toString()).toBe('x [redacted] y');
    const clean = Buffer.from('nothing here');
    expect(secrets.redactBytes(clean)).toBe(clean);
  });
});
