import { request } from 'undici';
import { afterEach, describe, expect, it } from 'vitest';
import { type FakeLlmServer, startFakeLlm } from '../testing/index.js';
import { createTriageServer, type TriageServer } from './app.js';
import { parseServerConfig } from './config.js';
import { chat, logCapture, post } from './server.test-helpers.js';

/** A configuration whose LLM check reads its key from `TRIAGE_CHECK_KEY`. */
const configWithKeyedLlm = (fake: FakeLlmServer) => ({
  providers: { fake: { baseUrl: fake.openAiBaseUrl, timeoutMs: 10_000 } },
  tiers: { SIMPLE: ['fake/small'], MEDIUM: ['fake/mid'] },
  llm: {
    id: 'checker',
    kind: 'openai',
    model: 'checker-model',
    baseUrl: fake.openAiBaseUrl,
    apiKeyEnv: 'TRIAGE_CHECK_KEY',
    maxRetries: 0,
  },
});

/** Far from every tier boundary: the scorer is unsure, so the LLM check would be asked. */
const AMBIGUOUS = 'Zxqv blorp frandle wibbet.';

describe('an LLM check whose key variable is unset', () => {
  let fake: FakeLlmServer | undefined;
  let server: TriageServer | undefined;
  afterEach(async () => {
    await server?.close();
    await fake?.close();
    server = fake = undefined;
  });

  async function start(env: Record<string, string>) {
    fake = await startFakeLlm({ reply: 'COMPLEX' });
    const logs = logCapture();
    const config = parseServerConfig(configWithKeyedLlm(fake), { env });
    server = createTriageServer({
      config,
      env,
      logDestination: logs.stream,
      processMetrics: false,
    });
    const url = await server.listen({ host: '127.0.0.1', port: 0 });
    return { url, logs, fake };
  }

  it('starts the server with the check off, one warning naming the variable, in /health and /metrics', async () => {
    const { url, logs, fake } = await start({});
    const warnings = logs.lines
      .map((line) => JSON.parse(line) as { level: number; msg: string })
      .filter((line) => line.level === 40 && line.msg.includes('TRIAGE_CHECK_KEY'));
    expect(warnings).toHaveLength(1);
    expect(warnings[0]!.msg).toBe(
      "environment variable TRIAGE_CHECK_KEY is not set: the LLM check of provider 'checker' is off until it is",
    );

    const health = await (await request(`${url}/health`)).body.json();
    expect(health).toMatchObject({
      status: 'ok',
      llm_check: {
        enabled: false,
        reason: expect.stringContaining('TRIAGE_CHECK_KEY'),
        subsystems: { tier: false, injection: false, context: false },
      },
    });
    const metrics = await (await request(`${url}/metrics`)).body.text();
    expect(metrics).toContain('triage_llm_check_enabled{subsystem="tier"} 0');
    expect(metrics).toContain('triage_llm_check_enabled{subsystem="context"} 0');

    // An unsure request is decided locally and answered; the checker is never called.
    const res = await post(`${url}/v1/chat/completions`, chat(AMBIGUOUS));
    expect(res.status).toBe(200);
    expect(res.headers['x-triage-source']).not.toBe('llm');
    expect(fake.chatRequests.map((r) => r.model)).not.toContain('checker-model');
  });

  it('runs the check when the variable is set', async () => {
    const { url, logs, fake } = await start({ TRIAGE_CHECK_KEY: 'sk-test-check-key' });
    expect(logs.text()).not.toContain('TRIAGE_CHECK_KEY');
    const health = await (await request(`${url}/health`)).body.json();
    expect(health).toMatchObject({
      llm_check: { enabled: true, reason: null, subsystems: { tier: true, context: true } },
    });
    const metrics = await (await request(`${url}/metrics`)).body.text();
    expect(metrics).toContain('triage_llm_check_enabled{subsystem="tier"} 1');
    const route = JSON.parse((await post(`${url}/v1/route`, chat(AMBIGUOUS))).text);
    expect(route).toMatchObject({ tier: 'COMPLEX', llm: { checked: true } });
    expect(fake.chatRequests.map((r) => r.model)).toContain('checker-model');
  });

  it('still refuses an upstream whose key variable is unset (no request could reach it)', () => {
    expect(() =>
      parseServerConfig(
        { providers: { up: { baseUrl: 'http://127.0.0.1:9/v1', apiKeyEnv: 'UP_KEY' } } },
        { env: {} },
      ),
    ).toThrow(/\/providers\/up\/apiKeyEnv environment variable UP_KEY is not set/);
  });
});
