import { request } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTriageServer, type TriageServer } from './app.js';
import {
  chat,
  type Harness,
  logCapture,
  post,
  startHarness,
  testTierRouter,
} from './server.test-helpers.js';

describe('decision and service endpoints', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness();
  });
  afterAll(() => h.close());

  it('POST /v1/route returns the decision, the chosen model and the chain, calling no upstream', async () => {
    const res = await post(`${h.url}/v1/route`, chat('[SIMPLE] hi'));
    expect(res.status).toBe(200);
    const decision = JSON.parse(res.text);
    expect(decision).toMatchObject({
      tier: 'SIMPLE',
      model: 'fake/small',
      chain: [
        { tier: 'SIMPLE', provider: 'fake', model: 'small' },
        { tier: 'MEDIUM', provider: 'fake', model: 'mid-a' },
        { tier: 'MEDIUM', provider: 'fake', model: 'mid-b' },
        { tier: 'COMPLEX', provider: 'fake', model: 'big' },
      ],
      tiers: ['SIMPLE', 'MEDIUM', 'COMPLEX'],
      forced: false,
      confidence: 0.9,
      score: 0.1,
      signals: ['test decision'],
      source: 'local',
      llm: { checked: false, overrode: false, ms: 0 },
    });
    expect(decision.decide_ms).toBeGreaterThanOrEqual(0);
    expect(h.fake.chatRequests).toHaveLength(0);
  });

  it('POST /v1/route gives the context policy of the question', async () => {
    const res = await post(`${h.url}/v1/route`, chat('What does photosynthesis mean?'));
    const { context } = JSON.parse(res.text);
    expect(context).toMatchObject({ mode: 'standalone_definition', source: 'local' });
    expect(context.policy).toMatchObject({ useImage: false, useHistory: false, maxSentences: 2 });
    expect(context.confidence).toBeGreaterThan(0.75);
  });

  it('POST /v1/route reports forced and pass-through decisions', async () => {
    const forced = JSON.parse(
      (await post(`${h.url}/v1/route`, chat('x', { model: 'reasoning' }))).text,
    );
    expect(forced).toMatchObject({ tier: 'REASONING', forced: true, source: 'forced' });
    const through = JSON.parse((await post(`${h.url}/v1/route`, chat('x', { model: 'big' }))).text);
    expect(through).toMatchObject({ tier: 'COMPLEX', source: 'passthrough', model: 'fake/big' });
  });

  it('GET /v1/models lists the routed ids and the configured models', async () => {
    const res = await request(`${h.url}/v1/models`);
    const body = (await res.body.json()) as { object: string; data: { id: string }[] };
    expect(body.object).toBe('list');
    expect(body.data.map((m) => m.id)).toEqual([
      'auto',
      'triage/auto',
      'simple',
      'medium',
      'complex',
      'reasoning',
      'small',
      'mid-a',
      'mid-b',
      'big',
      'think',
    ]);
  });

  it('GET /health says ok and how many models each tier has', async () => {
    const res = await request(`${h.url}/health`);
    expect(res.statusCode).toBe(200);
    expect(await res.body.json()).toMatchObject({
      status: 'ok',
      tiers: { SIMPLE: 1, MEDIUM: 2, COMPLEX: 1, REASONING: 1 },
    });
  });

  it('GET /metrics exposes requests by tier and model, decisions and classification time', async () => {
    await post(`${h.url}/v1/chat/completions`, chat('[COMPLEX] x'));
    const res = await request(`${h.url}/metrics`);
    expect(res.headers['content-type']).toContain('text/plain');
    const text = await res.body.text();
    expect(text).toMatch(
      /triage_requests_total\{endpoint="chat",tier="COMPLEX",model="fake\/big",status="200"\} 1/,
    );
    expect(text).toMatch(/triage_decisions_total\{tier="COMPLEX",source="local"\} [1-9]/);
    expect(text).toMatch(/triage_classification_seconds_count\{source="local"\} [1-9]/);
    expect(text).toMatch(
      /triage_upstream_first_byte_seconds_count\{model="fake\/big",kind="json"\} 1/,
    );
    expect(text).toContain('triage_llm_checks_total 0');
    expect(text).toContain('triage_requests_in_flight 0');
  });
});

describe('context policy turned off', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness({
      config: (baseUrl) => ({ providers: { fake: { baseUrl } }, context: false }),
    });
  });
  afterAll(() => h.close());

  it('leaves the context out of POST /v1/route', async () => {
    const res = await post(`${h.url}/v1/route`, chat('What does photosynthesis mean?'));
    expect(res.status).toBe(200);
    expect(JSON.parse(res.text).context).toBeUndefined();
  });
});

describe('with no configuration at all', () => {
  let server: TriageServer;
  let url: string;
  beforeAll(async () => {
    server = createTriageServer({
      tiers: testTierRouter(),
      logDestination: logCapture().stream,
      processMetrics: false,
    });
    url = await server.listen({ port: 0 });
  });
  afterAll(() => server.close());

  it('listens on loopback', () => {
    expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
  });

  it('still decides: /v1/route works', async () => {
    const res = await post(`${url}/v1/route`, chat('[COMPLEX] design a system'));
    expect(res.status).toBe(200);
    expect(JSON.parse(res.text)).toMatchObject({ tier: 'COMPLEX', model: null, chain: [] });
  });

  it('explains, in an OpenAI-style error, that no upstream is configured and how to add one', async () => {
    const res = await post(`${url}/v1/chat/completions`, chat('[SIMPLE] hi'));
    expect(res.status).toBe(503);
    expect(res.headers['x-triage-tier']).toBe('SIMPLE');
    const { error } = JSON.parse(res.text);
    expect(error.code).toBe('no_upstream');
    expect(error.message).toContain('no upstream model is configured for SIMPLE');
    expect(error.message).toContain('nor for its fallbacks MEDIUM, COMPLEX');
    expect(error.message).toContain('triage serve --config triage.yaml');
    expect(error.message).toContain('SIMPLE: [');
    expect(error.message).toContain('docs/server.md');
  });
});

describe('logs', () => {
  const secret = 'the launch code is zebra-umbrella-42';

  async function exercise(logPrompts: boolean): Promise<string> {
    const h = await startHarness({
      config: (baseUrl) => ({
        server: { log: { level: 'trace', prompts: logPrompts } },
        // m hangs once below (its deadline is short); n always answers (it has all the time).
        providers: { fake: { baseUrl, timeoutMs: 10_000 } },
        tiers: { MEDIUM: [{ provider: 'fake', model: 'm', timeoutMs: 300 }, 'fake/n'] },
      }),
    });
    try {
      h.fake.script({ status: 500, error: `upstream echoes ${secret}` });
      await post(`${h.url}/v1/chat/completions`, chat(secret));
      await post(`${h.url}/v1/chat/completions`, chat(secret, { stream: true }));
      await post(`${h.url}/v1/chat/completions`, `{"messages":[{"content":"${secret}"`);
      await post(`${h.url}/v1/chat/completions`, chat(secret, { model: 'unknown-model' }));
      await post(`${h.url}/v1/route`, chat(secret));
      h.fake.script({ hang: true });
      await post(`${h.url}/v1/chat/completions`, chat(secret));
    } finally {
      await h.close();
    }
    return h.logs.text();
  }

  it('never contain prompt text by default, on success or failure', async () => {
    const text = await exercise(false);
    expect(text).toContain('"msg":"chat completion"');
    expect(text).toContain('"tier":"MEDIUM"');
    expect(text).toContain('"model":"fake/n"');
    expect(text).not.toContain('zebra-umbrella');
  });

  it('contain the last user message when prompt logging is enabled', async () => {
    const text = await exercise(true);
    expect(text).toContain(`"prompt":"${secret}"`);
  });
});
