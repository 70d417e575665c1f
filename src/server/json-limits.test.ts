import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { chat, type Harness, post, startHarness } from './server.test-helpers.js';

/** A chat request whose `extra` field nests `depth` arrays (the request itself adds two levels). */
function nested(depth: number): string {
  const body = JSON.stringify(chat('x', { extra: 0 }));
  return body.replace('"extra":0', `"extra":${'['.repeat(depth - 1)}${']'.repeat(depth - 1)}`);
}

describe('JSON bodies too deep or too large to parse safely', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness({
      config: (baseUrl) => ({
        server: { maxJsonDepth: 16, maxJsonValues: 1000, bodyLimitBytes: 4 * 1024 * 1024 },
        providers: { fake: { baseUrl } },
        tiers: { MEDIUM: ['fake/m'] },
      }),
    });
  });
  afterAll(() => h.close());
  beforeEach(() => {
    h.fake.reset();
  });
  const completions = () => `${h.url}/v1/chat/completions`;

  it('answers 400 in OpenAI style for nesting deeper than maxJsonDepth, before parsing it', async () => {
    const res = await post(completions(), nested(17));
    expect(res.status).toBe(400);
    const { error } = JSON.parse(res.text);
    expect(error).toEqual({
      message: expect.stringContaining('nests deeper than 16 levels'),
      type: 'invalid_request_error',
      param: null,
      code: 'json_too_complex',
    });
    expect(h.fake.chatRequests).toHaveLength(0);
  });

  it('accepts nesting up to maxJsonDepth', async () => {
    const res = await post(completions(), nested(16));
    expect(res.status).toBe(200);
  });

  it('answers 400 for more JSON values than maxJsonValues', async () => {
    const res = await post(completions(), chat('x', { extra: Array(1100).fill(0) }));
    expect(res.status).toBe(400);
    const { error } = JSON.parse(res.text);
    expect(error.code).toBe('json_too_complex');
    expect(error.message).toContain('more than 1000 values');
    const fine = await post(completions(), chat('x', { extra: Array(800).fill(0) }));
    expect(fine.status).toBe(200);
  });

  it('rejects a body that names model twice (an upstream may read the other one)', async () => {
    const body = '{"model":"auto","messages":[{"role":"user","content":"x"}],"model":"gpt-4o"}';
    const res = await post(completions(), body);
    expect(res.status).toBe(400);
    const { error } = JSON.parse(res.text);
    expect(error.code).toBe('duplicate_key');
    expect(error.param).toBe('model');
    // Spelled with an escape, it is the same key.
    const escaped = '{"model":"auto","mod\\u0065l":"m","messages":[{"role":"user","content":"x"}]}';
    expect((await post(completions(), escaped)).status).toBe(400);
    expect(h.fake.chatRequests).toHaveLength(0);
  });

  it('lets model keys deeper in the body be (a tool parameter named model)', async () => {
    const body = chat('x', {
      tools: [{ type: 'function', function: { name: 'f', parameters: { model: 1 } } }],
      metadata: { model: 'a' },
    });
    expect((await post(completions(), body)).status).toBe(200);
  });

  it('checks a body that arrives in many chunks as it comes, and still answers with the 400', async () => {
    // 1 MB of prompt first: the nesting comes in a later chunk.
    const prompt = 'a'.repeat(1024 * 1024);
    const deep = nested(17).replace('"content":"x"', `"content":"${prompt}"`);
    const res = await post(completions(), deep);
    expect(res.status).toBe(400);
    expect(JSON.parse(res.text).error.code).toBe('json_too_complex');
    const fine = JSON.stringify(chat(prompt));
    const ok = await post(completions(), fine);
    expect(ok.status).toBe(200);
    expect(h.fake.chatRequests[0]?.rawBody).toBe(fine.replace('"model":"auto"', '"model":"m"'));
  });

  it('applies to POST /v1/route as well', async () => {
    const res = await post(`${h.url}/v1/route`, nested(40));
    expect(res.status).toBe(400);
    expect(JSON.parse(res.text).error.code).toBe('json_too_complex');
  });
});
