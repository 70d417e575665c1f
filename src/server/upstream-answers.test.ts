import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { byModel } from '../testing/index.js';
import { chat, type Harness, post, startHarness } from './server.test-helpers.js';

describe('upstream answers that are not answers', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness({
      config: (baseUrl) => ({
        server: { responseLimitBytes: 64 * 1024 },
        providers: { fake: { baseUrl } },
        tiers: { MEDIUM: ['fake/mid-a', 'fake/mid-b'] },
        // Every test here fails mid-a on purpose and looks at the attempt: a breaker would skip
        // it after five failures (the breaker's own tests are in breaker.test.ts).
        breaker: { enabled: false },
      }),
    });
  });
  afterAll(() => h.close());
  afterEach(() => {
    h.fake.reset();
    h.fake.reply('ok');
  });
  const completions = () => `${h.url}/v1/chat/completions`;

  it.each([
    [
      'a 200 whose body is not JSON',
      { raw: '{"choices":[{"message":' },
      'HTTP 200 with a body that is not a JSON answer',
    ],
    [
      'a 200 with an HTML page',
      { raw: '<html>sign in</html>', contentType: 'text/html' },
      'HTTP 200 with a body that is not a JSON answer',
    ],
    ['a 204', { status: 204, raw: '' }, 'HTTP 204 with no answer'],
    [
      'a 302',
      { status: 302, raw: '', headers: { location: 'https://elsewhere.example/v1' } },
      'HTTP 302, a redirect (not followed)',
    ],
  ])('treats %s as a failure and falls back', async (_what, reply, detail) => {
    h.fake.reply(byModel({ 'mid-a': reply, 'mid-b': 'from b' }));
    const res = await post(completions(), chat('plain'));
    expect(res.status).toBe(200);
    expect(res.headers['x-triage-model']).toBe('fake/mid-b');
    expect(JSON.parse(res.text).choices[0].message.content).toBe('from b');
    h.fake.reset();
    h.fake.reply(reply);
    const failed = await post(completions(), chat('plain'));
    expect(failed.status).toBe(502);
    expect(JSON.parse(failed.text).error.message).toContain(`fake/mid-a (MEDIUM): ${detail}`);
  });

  it('fails over from an answer larger than responseLimitBytes, holding no more of it', async () => {
    h.fake.reply(byModel({ 'mid-a': 'x'.repeat(100 * 1024), 'mid-b': 'small' }));
    const res = await post(completions(), chat('plain'));
    expect(res.headers['x-triage-model']).toBe('fake/mid-b');
    h.fake.reset();
    h.fake.reply({ text: 'y'.repeat(100 * 1024), chunkBytes: 8192 });
    const failed = await post(completions(), chat('plain'));
    expect(failed.status).toBe(502);
    const { error } = JSON.parse(failed.text);
    expect(error.message).toContain('fake/mid-a (MEDIUM): answer larger than 65536 bytes');
    const metrics = await h.server.metrics.render();
    expect(metrics).toMatch(
      /triage_upstream_failures_total\{model="fake\/mid-a",reason="too_large"\} 2/,
    );
  });

  it('caps error bodies too', async () => {
    h.fake.reply({ status: 400, raw: 'e'.repeat(100 * 1024) });
    const res = await post(completions(), chat('plain'));
    expect(res.status).toBe(502);
    expect(JSON.parse(res.text).error.message).toContain('answer larger than 65536 bytes');
  });

  it('says so when a model named in the request fails (no fallback to other tiers)', async () => {
    h.fake.reply({ status: 503 });
    const res = await post(completions(), chat('plain', { model: 'mid-b' }));
    expect(res.status).toBe(502);
    const { error } = JSON.parse(res.text);
    expect(error.message).toBe(
      'the model named in the request (mid-b) did not answer; a model named this way is not ' +
        'replaced by another tier: fake/mid-b (MEDIUM): HTTP 503: Service Unavailable',
    );
  });
});
