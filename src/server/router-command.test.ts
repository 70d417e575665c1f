import { request } from 'undici';
import { afterEach, describe, expect, it } from 'vitest';
import { type FakeLlmServer, startFakeLlm } from '../testing/index.js';
import { createTriageServer, type TriageServer } from './app.js';
import { parseServerConfig } from './config.js';
import { chat, logCapture, post } from './server.test-helpers.js';

/** Far from every tier boundary: the scorer is unsure, so the LLM check is asked. */
const AMBIGUOUS = 'Zxqv blorp frandle wibbet.';
const ADMIN_KEY = 'admin-key-0123456789abcdef';

interface Started {
  readonly url: string;
  readonly fake: FakeLlmServer;
  readonly logs: ReturnType<typeof logCapture>;
}

describe('switching the tier classifier model at run time', () => {
  let fake: FakeLlmServer | undefined;
  let server: TriageServer | undefined;
  afterEach(async () => {
    await server?.close();
    await fake?.close();
    server = fake = undefined;
  });

  async function start(
    extra: Record<string, unknown> = {},
    options: { llm?: boolean; env?: Record<string, string> } = {},
  ): Promise<Started> {
    fake = await startFakeLlm({ reply: 'COMPLEX' });
    const logs = logCapture();
    const env = options.env ?? {};
    const config = parseServerConfig(
      {
        providers: { fake: { baseUrl: fake.openAiBaseUrl, timeoutMs: 10_000 } },
        tiers: { SIMPLE: ['fake/small'], MEDIUM: ['fake/mid'], COMPLEX: ['fake/big'] },
        ...(options.llm === false
          ? {}
          : {
              llm: {
                id: 'checker',
                kind: 'openai',
                model: 'checker-model',
                baseUrl: fake.openAiBaseUrl,
                maxRetries: 0,
              },
            }),
        context: false,
        ...extra,
      },
      { env },
    );
    server = createTriageServer({
      config,
      env,
      logDestination: logs.stream,
      processMetrics: false,
    });
    return { url: await server.listen({ host: '127.0.0.1', port: 0 }), fake, logs };
  }

  const content = (text: string) =>
    (JSON.parse(text) as { choices: { message: { content: string } }[] }).choices[0]!.message
      .content;

  it('answers /router with the commands, in the chat-completions shape, proxying nothing', async () => {
    const { url, fake } = await start();
    const res = await post(`${url}/v1/chat/completions`, chat('/router'));
    expect(res.status).toBe(200);
    expect(res.headers['x-triage-command']).toBe('router');
    const body = JSON.parse(res.text);
    expect(body).toMatchObject({
      object: 'chat.completion',
      model: 'triage/router',
      choices: [{ index: 0, message: { role: 'assistant' }, finish_reason: 'stop' }],
    });
    expect(content(res.text)).toContain('/router classifier <model>');
    expect(fake.chatRequests).toHaveLength(0);
  });

  it('shows the model, switches it from this machine, and the tier check then asks the new one', async () => {
    const { url, fake, logs } = await start();
    const shown = await post(`${url}/v1/chat/completions`, chat('/router classifier'));
    expect(content(shown.text)).toBe('Classifier model: checker-model, on provider checker.');

    const switched = await post(
      `${url}/v1/chat/completions`,
      chat('/router classifier google/gemini-2.5-flash', { model: 'claw-llm-router/auto' }),
    );
    expect(content(switched.text)).toBe(
      'Classifier model switched to google/gemini-2.5-flash (configured: checker-model).',
    );
    expect(logs.text()).toContain('tier classifier model switched');
    expect(fake.chatRequests).toHaveLength(0);

    const route = JSON.parse((await post(`${url}/v1/route`, chat(AMBIGUOUS))).text);
    expect(route).toMatchObject({ tier: 'COMPLEX', llm: { checked: true } });
    expect(fake.chatRequests.map((r) => r.model)).toEqual(['google/gemini-2.5-flash']);

    const reset = await post(`${url}/v1/chat/completions`, chat('/router classifier reset'));
    expect(content(reset.text)).toBe('Classifier model reset to checker-model.');
  });

  it('streams the answer when the request asks for a stream', async () => {
    const { url } = await start();
    const res = await post(`${url}/v1/chat/completions`, chat('/router help', { stream: true }));
    expect(res.headers['content-type']).toContain('text/event-stream');
    const events = res.text.split('\n\n').filter(Boolean);
    expect(events.at(-1)).toBe('data: [DONE]');
    const first = JSON.parse(events[0]!.slice('data: '.length));
    expect(first).toMatchObject({ object: 'chat.completion.chunk', model: 'triage/router' });
    expect(first.choices[0].delta.content).toContain('/router classifier');
  });

  it('reads only the last message: an earlier command, or one from the assistant, is proxied', async () => {
    const { url, fake } = await start();
    const res = await post(`${url}/v1/chat/completions`, {
      model: 'simple',
      messages: [
        { role: 'user', content: '/router classifier x' },
        { role: 'assistant', content: 'ok' },
        { role: 'user', content: 'What does /router do?' },
      ],
    });
    expect(res.status).toBe(200);
    expect(res.headers['x-triage-command']).toBeUndefined();
    expect(fake.chatRequests).toHaveLength(1);
  });

  it('refuses a switch by a caller who is not an admin, and takes the admin key', async () => {
    const { url } = await start(
      { server: { admin: { keysEnv: 'ADMIN_KEYS', allowLoopback: false } } },
      { env: { ADMIN_KEYS: ADMIN_KEY } },
    );
    const refused = await post(`${url}/v1/chat/completions`, chat('/router classifier other'));
    expect(refused.status).toBe(403);
    expect(JSON.parse(refused.text).error).toMatchObject({
      code: 'admin_forbidden',
      type: 'permission_error',
    });
    // Anyone may look.
    expect((await post(`${url}/v1/chat/completions`, chat('/router classifier'))).status).toBe(200);
    const allowed = await post(`${url}/v1/chat/completions`, chat('/router classifier other'), {
      'x-triage-admin-key': ADMIN_KEY,
    });
    expect(content(allowed.text)).toContain('switched to other');
  });

  it('does not take a forwarded request as local', async () => {
    const { url } = await start();
    const res = await post(
      `${url}/admin/classifier`,
      { model: 'other' },
      {
        'x-forwarded-for': '203.0.113.7',
      },
    );
    expect(res.status).toBe(403);
  });

  it('GET, POST and DELETE /admin/classifier, behind the client keys', async () => {
    const { url, fake } = await start(
      { server: { auth: { keysEnv: 'CLIENT_KEYS' } } },
      { env: { CLIENT_KEYS: 'client-key-1' } },
    );
    const auth = { authorization: 'Bearer client-key-1' };
    expect((await request(`${url}/admin/classifier`)).statusCode).toBe(401);
    const got = await request(`${url}/admin/classifier`, { headers: auth });
    expect(await got.body.json()).toEqual({
      enabled: true,
      model: 'checker-model',
      configured_model: 'checker-model',
      provider: 'checker',
      reason: null,
    });
    const posted = await post(`${url}/admin/classifier`, { model: 'small-judge' }, auth);
    expect(JSON.parse(posted.text)).toMatchObject({ model: 'small-judge' });
    await post(`${url}/v1/route`, chat(AMBIGUOUS), auth);
    expect(fake.chatRequests.map((r) => r.model)).toEqual(['small-judge']);
    const bad = await post(`${url}/admin/classifier`, { model: 'two words' }, auth);
    expect(bad.status).toBe(400);
    const deleted = await request(`${url}/admin/classifier`, { method: 'DELETE', headers: auth });
    expect(await deleted.body.json()).toMatchObject({ model: 'checker-model' });
  });

  it('says the check is off without an LLM, and refuses a switch with 409', async () => {
    const { url } = await start({}, { llm: false });
    const shown = await post(`${url}/v1/chat/completions`, chat('/router classifier'));
    expect(content(shown.text)).toBe(
      "The tier router's LLM check is off: no LLM is configured (add an llm section).",
    );
    const res = await post(`${url}/admin/classifier`, { model: 'x' });
    expect(res.status).toBe(409);
    expect(JSON.parse(res.text).error.code).toBe('classifier_off');
  });
});
