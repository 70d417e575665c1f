import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { byModel } from '../testing/index.js';
import { chat, type Harness, post, startHarness } from './server.test-helpers.js';

/** Keep-alive comments and blank lines, as OpenRouter sends them before the first event. */
const KEEPALIVE = ': OPENROUTER PROCESSING\n\n\n: OPENROUTER PROCESSING\r\n\r\n';

const event = (content: string) =>
  `data: ${JSON.stringify({ object: 'chat.completion.chunk', choices: [{ index: 0, delta: { content } }] })}\n\n`;

describe('SSE comments before the first event', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness({
      config: (baseUrl) => ({
        providers: { fake: { baseUrl, timeoutMs: 400 } },
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
  const keepAliveThen = (rest: string, cut: Record<string, number> = {}) => ({
    raw: `${KEEPALIVE}${rest}`,
    contentType: 'text/event-stream',
    ...cut,
  });

  it('falls back to the next model when the stream breaks after a comment', async () => {
    h.fake.reply(
      byModel({
        'mid-a': keepAliveThen(event('never sent'), { closeAfterBytes: KEEPALIVE.length }),
        'mid-b': 'fromB',
      }),
    );
    const res = await post(completions(), chat('plain', { stream: true }));
    expect(res.status).toBe(200);
    expect(h.fake.chatRequests.map((r) => r.model)).toEqual(['mid-a', 'mid-b']);
    expect(res.headers['x-triage-model']).toBe('fake/mid-b');
    expect(res.text).toContain('"content":"fromB"');
    expect(res.text).not.toContain('upstream_interrupted');
  });

  it('falls back at the first-byte timeout when the stream hangs after a comment', async () => {
    h.fake.reply(
      byModel({
        'mid-a': keepAliveThen(event('never sent'), { stallAfterBytes: KEEPALIVE.length }),
        'mid-b': 'fromB',
      }),
    );
    const res = await post(completions(), chat('plain', { stream: true }));
    expect(res.status).toBe(200);
    expect(res.headers['x-triage-model']).toBe('fake/mid-b');
    expect(res.text).toContain('"content":"fromB"');
    const log = JSON.parse(h.logs.lines.at(-1) as string);
    expect(log.fallbacks).toEqual([{ model: 'fake/mid-a', reason: 'timeout' }]);
  });

  it('does not restart the first-byte timeout for each comment', async () => {
    // A comment every 100 ms, for longer than the 400 ms timeout: still a timeout.
    h.fake.reply(
      byModel({
        'mid-a': {
          raw: `${': ping\n\n'.repeat(12)}${event('late')}`,
          contentType: 'text/event-stream',
          chunkBytes: ': ping\n\n'.length,
          intervalMs: 100,
        },
        'mid-b': 'fromB',
      }),
    );
    const res = await post(completions(), chat('plain', { stream: true }));
    expect(res.headers['x-triage-model']).toBe('fake/mid-b');
    expect(res.text).not.toContain('late');
  });

  it('sends the stream from its first event on, once one came', async () => {
    const body = `${event('hello')}: a comment later on passes\n\n${event('world')}data: [DONE]\n\n`;
    h.fake.reply(keepAliveThen(body));
    const res = await post(completions(), chat('plain', { stream: true }));
    expect(res.status).toBe(200);
    expect(res.text).toBe(body);
  });

  it('counts a stream that ends before its first event as a failure', async () => {
    h.fake.reply(byModel({ 'mid-a': keepAliveThen(''), 'mid-b': 'fromB' }));
    const res = await post(completions(), chat('plain', { stream: true }));
    expect(res.headers['x-triage-model']).toBe('fake/mid-b');
    expect(res.text).toContain('"content":"fromB"');
  });
});
