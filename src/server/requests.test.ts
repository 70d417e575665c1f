import { connect } from 'node:net';
import { request } from 'undici';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { chat, type Harness, post, startHarness } from './server.test-helpers.js';

describe('bad requests', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness({
      config: (baseUrl) => ({
        server: { bodyLimitBytes: 4096, requestTimeoutMs: 300 },
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

  it('answers 400 with an OpenAI-style error for malformed JSON, without quoting the body', async () => {
    const res = await post(completions(), '{"model":"auto","messages":[secret prompt text');
    expect(res.status).toBe(400);
    const { error } = JSON.parse(res.text);
    expect(error.code).toBe('invalid_json');
    expect(error.type).toBe('invalid_request_error');
    expect(error.message).not.toContain('secret');
    expect(h.fake.chatRequests).toHaveLength(0);
  });

  it.each([
    ['an array', '[1,2]', 'invalid_body'],
    ['no messages', '{"model":"auto"}', 'invalid_messages'],
    ['empty messages', '{"model":"auto","messages":[]}', 'invalid_messages'],
    [
      'a non-string model',
      '{"model":3,"messages":[{"role":"user","content":"x"}]}',
      'invalid_model',
    ],
  ])('answers 400 for %s', async (_what, body, code) => {
    const res = await post(completions(), body);
    expect(res.status).toBe(400);
    expect(JSON.parse(res.text).error.code).toBe(code);
  });

  it('answers 400 for an empty body', async () => {
    const res = await request(completions(), { method: 'POST' });
    expect(res.statusCode).toBe(400);
    expect(((await res.body.json()) as { error: { code: string } }).error.code).toBe(
      'missing_body',
    );
  });

  it('accepts JSON sent with another content type (curl -d)', async () => {
    const res = await post(completions(), JSON.stringify(chat('x')), {
      'content-type': 'application/x-www-form-urlencoded',
    });
    expect(res.status).toBe(200);
  });

  it('answers 413 for a body over the limit', async () => {
    const res = await post(completions(), chat('x'.repeat(5000)));
    expect(res.status).toBe(413);
    const { error } = JSON.parse(res.text);
    expect(error.code).toBe('body_too_large');
    expect(h.fake.chatRequests).toHaveLength(0);
  });

  it('answers 408 to a client that never finishes sending its request', async () => {
    const { port } = new URL(h.url);
    const socket = connect(Number(port), '127.0.0.1');
    socket.write(
      'POST /v1/chat/completions HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n' +
        'Content-Length: 100\r\n\r\n{"model":',
    );
    const answer = await new Promise<string>((resolve) => {
      let text = '';
      socket.on('data', (chunk: Buffer) => {
        text += chunk.toString();
      });
      socket.on('close', () => resolve(text));
    });
    expect(answer).toMatch(/^HTTP\/1\.1 408/);
  });

  it('answers 404 in OpenAI style for an unknown route', async () => {
    const res = await request(`${h.url}/v1/audio/speech`, { method: 'POST', body: '{}' });
    expect(res.statusCode).toBe(404);
    expect(((await res.body.json()) as { error: { code: string } }).error.code).toBe(
      'unknown_route',
    );
  });

  it('counts the errors by kind', async () => {
    const text = await h.server.metrics.render();
    expect(text).toMatch(/triage_errors_total\{kind="invalid_json"\} 1/);
    expect(text).toMatch(/triage_errors_total\{kind="body_too_large"\} 1/);
  });
});

describe('client keys', () => {
  let h: Harness;
  const key = 'sk-client-0123456789';
  beforeAll(async () => {
    h = await startHarness({
      env: { TRIAGE_KEYS: `other-key-abcdefgh, ${key}` },
      config: (baseUrl) => ({
        server: { auth: { keysEnv: 'TRIAGE_KEYS' } },
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

  it.each([
    ['no key', {}],
    ['a wrong key', { authorization: 'Bearer sk-client-0123456788' }],
    ['a key prefix', { authorization: 'Bearer sk-client' }],
    ['a non-bearer scheme', { authorization: `Basic ${key}` }],
  ])('answers 401 with %s', async (_what, headers) => {
    const res = await post(completions(), chat('x'), headers);
    expect(res.status).toBe(401);
    expect(res.headers['www-authenticate']).toBe('Bearer');
    expect(JSON.parse(res.text).error.code).toBe('invalid_api_key');
    expect(h.fake.chatRequests).toHaveLength(0);
  });

  it('lets a request with a valid key through, without passing the key upstream', async () => {
    const res = await post(completions(), chat('x'), { authorization: `Bearer ${key}` });
    expect(res.status).toBe(200);
    expect(h.fake.chatRequests[0]?.headers.authorization).toBeUndefined();
  });

  it('accepts the key as x-api-key', async () => {
    const res = await post(completions(), chat('x'), { 'x-api-key': 'other-key-abcdefgh' });
    expect(res.status).toBe(200);
  });

  it('guards /v1/route, /v1/models and /metrics, but not /health', async () => {
    expect((await post(`${h.url}/v1/route`, chat('x'))).status).toBe(401);
    expect((await request(`${h.url}/v1/models`)).statusCode).toBe(401);
    expect((await request(`${h.url}/metrics`)).statusCode).toBe(401);
    expect((await request(`${h.url}/health`)).statusCode).toBe(200);
  });
});

describe('upstream keys', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness({
      env: { FAKE_KEY: 'sk-upstream-secret' },
      config: (baseUrl) => ({
        providers: {
          fake: { baseUrl, apiKeyEnv: 'FAKE_KEY', headers: { 'X-Title': 'triage tests' } },
        },
        tiers: { MEDIUM: ['fake/m'] },
      }),
    });
  });
  afterAll(() => h.close());

  it('sends the provider key from the environment and the configured headers', async () => {
    await post(`${h.url}/v1/chat/completions`, chat('x'), { authorization: 'Bearer client' });
    const sent = h.fake.chatRequests[0]?.headers;
    expect(sent?.authorization).toBe('Bearer sk-upstream-secret');
    expect(sent?.['x-title']).toBe('triage tests');
  });

  it('never writes the key to the logs', () => {
    expect(h.logs.text()).not.toContain('sk-upstream-secret');
  });
});
