import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { byModel } from '../testing/index.js';
import { chat, type Harness, post, startHarness } from './server.test-helpers.js';

describe('the request deadline across the fallback chain', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness({
      config: (baseUrl) => ({
        server: { deadlineMs: 1_500 },
        providers: { fake: { baseUrl, timeoutMs: 1_000 } },
        tiers: { MEDIUM: ['fake/mid-a', 'fake/mid-b', 'fake/mid-c'], COMPLEX: ['fake/big'] },
      }),
    });
  });
  afterAll(() => h.close());
  afterEach(() => {
    h.fake.reset();
    h.fake.reply('ok');
  });
  const completions = () => `${h.url}/v1/chat/completions`;

  it('stops trying models once the deadline passed, instead of one timeout per model', async () => {
    h.fake.reply({ hang: true });
    const res = await post(completions(), chat('plain'));
    expect(res.status).toBe(504);
    const { error } = JSON.parse(res.text);
    expect(error.code).toBe('deadline_exceeded');
    // The first model used its whole timeout, the second what was left of the deadline.
    expect(error.message).toContain('fake/mid-a (MEDIUM): no answer within 1000 ms');
    expect(error.message).toContain(
      "fake/mid-b (MEDIUM): no answer before the request's deadline (1500 ms)",
    );
    expect(error.message).toContain(
      "the request's deadline of 1500 ms passed before fake/mid-c, fake/big could be tried",
    );
    expect(h.fake.chatRequests.map((r) => r.model)).toEqual(['mid-a', 'mid-b']);
  });

  it('lets a request lower its deadline with x-triage-deadline-ms', async () => {
    h.fake.reply({ hang: true });
    const res = await post(completions(), chat('plain'), { 'x-triage-deadline-ms': '200' });
    expect(res.status).toBe(504);
    const { error } = JSON.parse(res.text);
    expect(error.message).toContain(
      "fake/mid-a (MEDIUM): no answer before the request's deadline (200 ms)",
    );
    expect(h.fake.chatRequests).toHaveLength(1);
  });

  it('never lets the header raise the configured deadline', async () => {
    h.fake.reply({ hang: true });
    const res = await post(completions(), chat('plain'), { 'x-triage-deadline-ms': '60000' });
    expect(JSON.parse(res.text).error.message).toContain('deadline of 1500 ms passed');
  });

  it('falls back within the deadline as usual', async () => {
    h.fake.reply(byModel({ 'mid-a': { status: 500 }, 'mid-b': 'from b' }));
    const res = await post(completions(), chat('plain'), { 'x-triage-deadline-ms': '900' });
    expect(res.status).toBe(200);
    expect(res.headers['x-triage-model']).toBe('fake/mid-b');
  });

  it.each(['0', '-5', 'soon', '1.5', ''])(
    'answers 400 to x-triage-deadline-ms: %j',
    async (value) => {
      const res = await post(completions(), chat('plain'), { 'x-triage-deadline-ms': value });
      expect(res.status).toBe(400);
      const { error } = JSON.parse(res.text);
      expect(error.code).toBe('invalid_header');
      expect(error.param).toBe('x-triage-deadline-ms');
      expect(h.fake.chatRequests).toHaveLength(0);
    },
  );
});
