import { request } from 'undici';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { type FakeLlmServer, startFakeLlm } from '../testing/index.js';
import { createTriageServer, type TriageServer } from './app.js';
import { parseServerConfig } from './config.js';
import { chat, logCapture, post } from './server.test-helpers.js';

/** The real tier router, built from the configuration, in front of the fake upstream. */
async function start(
  fake: FakeLlmServer,
  extra: Record<string, unknown> = {},
): Promise<{ server: TriageServer; url: string }> {
  const config = parseServerConfig(
    {
      // No test here is about upstream timeouts: far more than a busy machine needs.
      providers: { fake: { baseUrl: fake.openAiBaseUrl, timeoutMs: 10_000 } },
      tiers: {
        SIMPLE: ['fake/small'],
        MEDIUM: ['fake/mid'],
        COMPLEX: ['fake/big'],
        REASONING: ['fake/think'],
      },
      ...extra,
    },
    { env: {} },
  );
  const server = createTriageServer({
    config,
    env: {},
    logDestination: logCapture().stream,
    processMetrics: false,
  });
  return { server, url: await server.listen({ port: 0 }) };
}

const AMBIGUOUS = 'Zxqv blorp frandle wibbet.';

describe('the tier router behind the server', () => {
  let fake: FakeLlmServer;
  let server: TriageServer;
  let url: string;
  beforeAll(async () => {
    fake = await startFakeLlm();
    ({ server, url } = await start(fake));
  });
  afterAll(async () => {
    await server.close();
    await fake.close();
  });
  afterEach(() => {
    fake.reset();
  });

  it.each([
    ['What is 2+2?', 'SIMPLE', 'small'],
    ['Prove that the square root of 2 is irrational, step by step.', 'REASONING', 'think'],
    [
      'Design a distributed rate limiter for a Kubernetes microservice architecture, implement it in Go, and deploy it with tests.',
      'COMPLEX',
      'big',
    ],
  ])('classifies %j and sends it to its tier', async (prompt, tier, model) => {
    const res = await post(`${url}/v1/chat/completions`, chat(prompt));
    expect(res.status).toBe(200);
    expect(res.headers['x-triage-tier']).toBe(tier);
    expect(res.headers['x-triage-source']).toBe('local');
    expect(fake.chatRequests.map((r) => r.model)).toEqual([model]);
  });

  it('scores the user text only: a long system prompt does not lift a greeting', async () => {
    const system =
      'You are a senior engineer. Think step by step, prove each claim, answer in JSON, ' +
      'consider distributed systems, kubernetes, algorithms and architecture. '.repeat(20);
    const res = await post(`${url}/v1/route`, {
      model: 'triage/auto',
      messages: [
        { role: 'system', content: system },
        { role: 'user', content: 'Hello!' },
      ],
    });
    expect(JSON.parse(res.text)).toMatchObject({ tier: 'SIMPLE', source: 'local' });
  });

  it('takes forced tiers from the model id', async () => {
    const res = await post(
      `${url}/v1/chat/completions`,
      chat('What is 2+2?', { model: 'triage/complex' }),
    );
    expect(res.headers['x-triage-tier']).toBe('COMPLEX');
    expect(res.headers['x-triage-source']).toBe('forced');
    expect(fake.chatRequests.map((r) => r.model)).toEqual(['big']);
  });

  it.each([
    ['claw-llm-router/simple', 'SIMPLE', 'small'],
    ['claw-llm-router/medium', 'MEDIUM', 'mid'],
    ['claw-llm-router/complex', 'COMPLEX', 'big'],
    ['claw-llm-router/reasoning', 'REASONING', 'think'],
  ])("takes claw-llm-router's forced id %s unchanged", async (model, tier, upstream) => {
    const res = await post(`${url}/v1/chat/completions`, chat('What is 2+2?', { model }));
    expect(res.status).toBe(200);
    expect(res.headers['x-triage-tier']).toBe(tier);
    expect(res.headers['x-triage-source']).toBe('forced');
    expect(fake.chatRequests.map((r) => r.model)).toEqual([upstream]);
  });

  it("classifies claw-llm-router's auto id", async () => {
    const res = await post(
      `${url}/v1/chat/completions`,
      chat('What is 2+2?', { model: 'claw-llm-router/auto' }),
    );
    expect(res.headers['x-triage-tier']).toBe('SIMPLE');
    expect(res.headers['x-triage-source']).toBe('local');
  });

  it('gives the score and signals in POST /v1/route', async () => {
    const res = await post(`${url}/v1/route`, chat('What is 2+2?'));
    const decision = JSON.parse(res.text);
    expect(decision.score).toEqual(expect.any(Number));
    expect(decision.signals.length).toBeGreaterThan(0);
    expect(decision.llm).toEqual({ checked: false, overrode: false, ms: 0 });
    expect(decision.tiers).toEqual(['SIMPLE', 'MEDIUM', 'COMPLEX']);
  });

  it('lists auto and the forced ids in GET /v1/models', async () => {
    const res = await request(`${url}/v1/models`);
    const ids = ((await res.body.json()) as { data: { id: string }[] }).data.map((m) => m.id);
    expect(ids).toEqual(
      expect.arrayContaining([
        'auto',
        'triage/auto',
        'claw-llm-router/auto',
        'simple',
        'triage/reasoning',
        'claw-llm-router/reasoning',
        'small',
      ]),
    );
  });

  it('answers 400 for messages the router cannot read', async () => {
    const res = await post(`${url}/v1/chat/completions`, { model: 'auto', messages: ['hi'] });
    expect(res.status).toBe(400);
    expect(JSON.parse(res.text).error.param).toBe('messages');
    expect(fake.chatRequests).toHaveLength(0);
  });

  it('decides an ambiguous prompt without an LLM check when none is configured', async () => {
    const res = await post(`${url}/v1/route`, chat(AMBIGUOUS));
    expect(JSON.parse(res.text)).toMatchObject({ llm: { checked: false } });
    expect(fake.chatRequests).toHaveLength(0);
  });
});

/** The configuration of an LLM check on the fake server, with this deadline. */
const checker = (fake: FakeLlmServer, timeoutMs: number) => ({
  llm: {
    id: 'checker',
    kind: 'openai',
    model: 'checker-model',
    baseUrl: fake.openAiBaseUrl,
    timeoutMs,
    maxRetries: 0,
  },
  tier: { llm: { timeoutMs } },
});

describe('the LLM check', () => {
  let fake: FakeLlmServer;
  let server: TriageServer;
  let url: string;
  beforeAll(async () => {
    fake = await startFakeLlm();
    // A deadline no answer of the fake server comes near, however busy the machine.
    ({ server, url } = await start(fake, checker(fake, 10_000)));
  });
  afterAll(async () => {
    // The client of the test below left a connection open: close() must still end.
    await server.close({ graceMs: 200 });
    await fake.close();
  });
  afterEach(() => {
    fake.reset();
    fake.reply('ok');
  });

  it('asks the LLM only near a boundary, and follows it when it overrides', async () => {
    fake.reply((r) => (r.model === 'checker-model' ? 'REASONING' : 'answer'));
    const confident = await post(`${url}/v1/chat/completions`, chat('What is 2+2?'));
    expect(confident.headers['x-triage-source']).toBe('local');
    expect(fake.chatRequests.map((r) => r.model)).toEqual(['small']);
    fake.reset();
    const res = await post(`${url}/v1/chat/completions`, chat(AMBIGUOUS));
    expect(res.headers['x-triage-source']).toBe('llm');
    expect(res.headers['x-triage-tier']).toBe('REASONING');
    expect(fake.chatRequests.map((r) => r.model)).toEqual(['checker-model', 'think']);
    // The check sees the user's text, not the whole request.
    expect(fake.chatRequests[0]?.prompt).toContain('Zxqv');
    const metrics = await server.metrics.render();
    expect(metrics).toContain('triage_llm_checks_total 1');
    expect(metrics).toContain('triage_llm_overrides_total 1');
    expect(metrics).toMatch(/triage_decisions_total\{tier="REASONING",source="llm"\} 1/);
  });

  it('says why a decision fell back, in a header and in the metrics', async () => {
    fake.reply((r) => (r.model === 'checker-model' ? { status: 500, error: 'boom' } : 'answer'));
    const res = await post(`${url}/v1/chat/completions`, chat(`${AMBIGUOUS} broken`));
    expect(res.headers['x-triage-source']).toBe('fallback');
    expect(res.headers['x-triage-fallback-cause']).toBe('llm_error');
    expect(await server.metrics.render()).toMatch(
      /triage_decision_fallbacks_total\{cause="llm_error"\} 1/,
    );
  });

  it('falls back to the safe tier when the LLM check times out', async () => {
    // A server of its own, whose check has a short deadline.
    const quick = await start(fake, checker(fake, 300));
    try {
      fake.reply((r) => (r.model === 'checker-model' ? { hang: true } : 'answer'));
      const res = await post(`${quick.url}/v1/route`, chat(`${AMBIGUOUS} again`));
      const decision = JSON.parse(res.text);
      expect(decision).toMatchObject({
        tier: 'MEDIUM',
        source: 'fallback',
        llm: { checked: true },
      });
      expect(decision.llm.ms).toBeGreaterThanOrEqual(250);
    } finally {
      await quick.server.close();
    }
  });

  it('cancels the LLM check when the client leaves, and calls no upstream', async () => {
    // The check never answers: only the client leaving can end it.
    fake.reply((r) => (r.model === 'checker-model' ? { hang: true } : 'answer'));
    const controller = new AbortController();
    const pending = request(`${url}/v1/chat/completions`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(chat(`${AMBIGUOUS} leave`)),
      signal: controller.signal,
    }).catch(() => undefined);
    await fake.whenRequests(1);
    controller.abort();
    await pending;
    await fake.whenAborted(1);
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(fake.chatRequests.map((r) => r.model)).toEqual(['checker-model']);
  });
});
