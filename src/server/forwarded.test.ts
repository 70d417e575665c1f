import OpenAI from 'openai';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Harness } from './server.test-helpers.js';
import { post, startHarness } from './server.test-helpers.js';
import type { UsageSummary } from './usage-ledger.js';

/**
 * The Responses API (decided on its input, forwarded to upstreams that serve it), embeddings and
 * legacy completions (forwarded to their configured models), through the official `openai` client.
 */

let h: Harness;
let openai: OpenAI;

beforeAll(async () => {
  h = await startHarness({
    config: (base) => ({
      providers: {
        fake: { baseUrl: base, timeoutMs: 10_000, responses: true },
        plain: { baseUrl: base, timeoutMs: 10_000 },
      },
      tiers: { SIMPLE: ['fake/small'], COMPLEX: ['plain/big'] },
      forward: {
        embeddings: { models: ['fake/embed-small', 'fake/embed-large'] },
        completions: { models: ['plain/instruct'] },
      },
      costs: { prices: { 'embed-small': { input: 0.02, output: 0 } } },
    }),
  });
  openai = new OpenAI({ baseURL: `${h.url}/v1`, apiKey: 'unused', maxRetries: 0 });
});

afterAll(() => h.close());
beforeEach(() => h.fake.reset());

describe('POST /v1/responses', () => {
  it('decides on the input and forwards to an upstream that serves Responses, JSON and streamed', async () => {
    const response = await openai.responses.create({
      model: 'auto',
      instructions: 'Be brief.',
      input: [{ role: 'user', content: '[SIMPLE] Capital of Peru?' }],
    });
    expect(response.output_text).toBe('ok');
    expect(response.usage).toMatchObject({ output_tokens: 1 });
    const sent = h.fake.requests.at(-1)!;
    expect(sent.path).toBe('/v1/responses');
    expect((sent.body as { model: string }).model).toBe('small');

    const stream = await openai.responses.create({ model: 'simple', input: 'Hi', stream: true });
    const types: string[] = [];
    for await (const event of stream) types.push(event.type);
    expect(types).toEqual(['response.created', 'response.output_text.delta', 'response.completed']);
  });

  it('refuses clearly when no upstream of the tier serves Responses', async () => {
    const error = await openai.responses
      .create({ model: 'complex', input: 'Prove it.' })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(OpenAI.BadRequestError);
    expect((error as Error).message).toContain(
      "no upstream model of this request's tier serves the Responses API (plain do not)",
    );
    expect(h.fake.requests).toHaveLength(0);
  });
});

describe('POST /v1/embeddings and /v1/completions', () => {
  it('forwards embeddings to the configured model, the first by default, and counts their tokens', async () => {
    const first = await openai.embeddings.create({
      model: 'auto',
      input: ['abcd', 'efgh'],
      encoding_format: 'float',
    });
    expect(first.data.map((d) => d.embedding)).toEqual([
      [4, 0, 0.5, -0.5],
      [4, 1, 0.5, -0.5],
    ]);
    expect((h.fake.requests.at(-1)!.body as { model: string }).model).toBe('embed-small');
    await openai.embeddings.create({ model: 'embed-large', input: 'x' });
    expect((h.fake.requests.at(-1)!.body as { model: string }).model).toBe('embed-large');
    const missing = await openai.embeddings
      .create({ model: 'other', input: 'x' })
      .catch((e: unknown) => e);
    expect(missing).toBeInstanceOf(OpenAI.NotFoundError);
    const usage = (await (await fetch(`${h.url}/v1/usage`)).json()) as UsageSummary;
    const small = usage.byModel.find((m) => m.model === 'fake/embed-small');
    expect(small).toMatchObject({
      tier: 'none',
      requests: 1,
      inputTokens: 2,
      costUsd: (2 * 0.02) / 1e6,
    });
  });

  it('forwards legacy completions', async () => {
    const completion = await openai.completions.create({ model: 'instruct', prompt: 'Say ok' });
    expect(completion.choices[0]!.text).toBe('ok');
    expect(h.fake.requests.at(-1)!.path).toBe('/v1/completions');
  });

  it('says how to configure an endpoint that is not', async () => {
    const h2 = await startHarness();
    try {
      const answer = await post(`${h2.url}/v1/embeddings`, { model: 'x', input: 'y' });
      expect(answer.status).toBe(404);
      expect(JSON.parse(answer.text).error.message).toContain('forward.embeddings.models');
    } finally {
      await h2.close();
    }
  });
});
