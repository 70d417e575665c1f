import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { chat, type Harness, post, startHarness } from './server.test-helpers.js';

describe('POST /v1/chat/completions routing', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness();
  });
  afterAll(() => h.close());
  beforeEach(() => {
    h.fake.reset();
  });

  const completions = () => `${h.url}/v1/chat/completions`;

  it.each([
    ['[SIMPLE] hi', 'small', 'SIMPLE'],
    ['plain question', 'mid-a', 'MEDIUM'],
    ['[COMPLEX] design it', 'big', 'COMPLEX'],
    ['[REASONING] prove it', 'think', 'REASONING'],
  ])('routes %j to the first model of its tier', async (prompt, model, tier) => {
    const res = await post(completions(), chat(prompt));
    expect(res.status).toBe(200);
    expect(h.fake.chatRequests.map((r) => r.model)).toEqual([model]);
    expect(JSON.parse(res.text).model).toBe(model);
    expect(res.headers['x-triage-tier']).toBe(tier);
    expect(res.headers['x-triage-model']).toBe(`fake/${model}`);
    expect(res.headers['x-triage-source']).toBe('local');
    expect(res.headers['x-triage-confidence']).toBe('0.90');
  });

  it('sends every other field of the request unchanged, with the model replaced', async () => {
    const body = chat('plain', {
      temperature: 0.2,
      max_tokens: 17,
      tools: [{ type: 'function', function: { name: 'f', parameters: {} } }],
      user: 'u-1',
    });
    await post(completions(), body);
    const sent = h.fake.chatRequests[0]?.body as Record<string, unknown>;
    expect(sent).toEqual({ ...body, model: 'mid-a' });
  });

  it('sends the client bytes of every other field: big integers, escapes and key order survive', async () => {
    const raw =
      '{"messages":[{"role":"user","content":"caf\\u00e9 \\"q\\""}],"seed":12345678901234567890,' +
      '"model":"auto","metadata":{"model":"keep me"}}';
    const res = await post(completions(), raw);
    expect(res.status).toBe(200);
    expect(h.fake.chatRequests[0]?.rawBody).toBe(raw.replace('"auto"', '"mid-a"'));
  });

  it.each([
    ['simple', 'small', 'SIMPLE'],
    ['triage/complex', 'big', 'COMPLEX'],
    ['REASONING', 'think', 'REASONING'],
  ])('a forced-tier id %s bypasses the classifier', async (id, model, tier) => {
    const res = await post(completions(), chat('[SIMPLE] would be simple', { model: id }));
    expect(res.status).toBe(200);
    expect(h.fake.chatRequests.map((r) => r.model)).toEqual([model]);
    expect(res.headers['x-triage-tier']).toBe(tier);
    expect(res.headers['x-triage-source']).toBe('forced');
    expect(res.headers['x-triage-confidence']).toBe('1.00');
  });

  it.each([
    ['big', 'big'],
    ['fake/think', 'think'],
  ])('a configured model id %s passes through to its upstream', async (id, model) => {
    const body = chat('[SIMPLE] hi', { model: id });
    const res = await post(completions(), body);
    expect(res.status).toBe(200);
    expect(h.fake.chatRequests.map((r) => r.model)).toEqual([model]);
    expect(res.headers['x-triage-source']).toBe('passthrough');
    expect(res.headers['x-triage-model']).toBe(`fake/${model}`);
  });

  it('forwards the client bytes unchanged when they already name the upstream model', async () => {
    const raw = '{ "model" : "big",  "messages": [{"role":"user","content":"x"}] }';
    const res = await post(completions(), raw);
    expect(res.status).toBe(200);
    expect(h.fake.chatRequests[0]?.rawBody).toBe(raw);
  });

  it('also answers on /chat/completions, for clients whose base URL has no /v1', async () => {
    const res = await post(`${h.url}/chat/completions`, chat('[SIMPLE] hi'));
    expect(res.status).toBe(200);
    expect(h.fake.chatRequests.map((r) => r.model)).toEqual(['small']);
  });

  it('rejects an unknown model id with a 404 naming what is accepted', async () => {
    const res = await post(completions(), chat('hi', { model: 'gpt-5-imaginary' }));
    expect(res.status).toBe(404);
    const { error } = JSON.parse(res.text);
    expect(error.code).toBe('model_not_found');
    expect(error.param).toBe('model');
    expect(error.message).toContain("'auto'");
    expect(h.fake.chatRequests).toHaveLength(0);
  });

  it('treats a missing model as auto', async () => {
    const res = await post(completions(), { messages: [{ role: 'user', content: '[COMPLEX] x' }] });
    expect(res.status).toBe(200);
    expect(h.fake.chatRequests.map((r) => r.model)).toEqual(['big']);
  });

  it('passes an upstream client error (400) through as OpenAI-style JSON, without fallback', async () => {
    h.fake.script({ status: 400, error: 'max_tokens is too large' });
    const res = await post(completions(), chat('plain'));
    expect(res.status).toBe(400);
    expect(JSON.parse(res.text).error.message).toBe('max_tokens is too large');
    expect(h.fake.chatRequests).toHaveLength(1);
    expect(res.headers['x-triage-model']).toBe('fake/mid-a');
  });

  it('wraps an upstream error that is not OpenAI-style JSON', async () => {
    h.fake.script({ status: 404, raw: 'no such model here', contentType: 'text/plain' });
    const res = await post(completions(), chat('plain'));
    expect(res.status).toBe(404);
    expect(res.headers['content-type']).toContain('application/json');
    const { error } = JSON.parse(res.text);
    expect(error.message).toContain('fake/mid-a answered HTTP 404');
    expect(error.message).toContain('no such model here');
    expect(error.code).toBe('upstream_error');
  });
});

describe('decision headers switched off', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness({
      config: (baseUrl) => ({
        server: { decisionHeaders: false },
        providers: { fake: { baseUrl } },
        tiers: { MEDIUM: ['fake/m'] },
      }),
    });
  });
  afterAll(() => h.close());

  it('sends no x-triage-* header', async () => {
    const res = await post(`${h.url}/v1/chat/completions`, chat('plain'));
    expect(res.status).toBe(200);
    expect(Object.keys(res.headers).filter((name) => name.startsWith('x-triage'))).toEqual([]);
  });
});

describe('unknown models routed as auto', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness({
      config: (baseUrl) => ({
        server: { unknownModel: 'route' },
        providers: { fake: { baseUrl } },
        tiers: { COMPLEX: ['fake/big'] },
      }),
    });
  });
  afterAll(() => h.close());

  it('classifies a request naming a model triage does not know', async () => {
    const res = await post(
      `${h.url}/v1/chat/completions`,
      chat('[COMPLEX] x', { model: 'gpt-4o' }),
    );
    expect(res.status).toBe(200);
    expect(h.fake.chatRequests.map((r) => r.model)).toEqual(['big']);
  });
});
