import Anthropic from '@anthropic-ai/sdk';
import OpenAI from 'openai';
import { afterEach, describe, expect, it } from 'vitest';
import { keyLabel } from './client-id.js';
import { costOf } from './costs.js';
import { type Harness, startHarness } from './server.test-helpers.js';
import type { UsageSummary } from './usage-ledger.js';

/**
 * Costs, savings and budgets for known usage, through the official SDKs: prices per million
 * tokens, a baseline, usage read from JSON answers and from streams (asked for upstream when the
 * client did not, and then left out of its answer), `GET /v1/usage`, the Prometheus counters, and
 * per-key limits answered with 429 in each client's protocol.
 */

const KEY = 'client-key-for-tests';
const LABEL = keyLabel(KEY);

let h: Harness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

async function start(limits: Record<string, unknown> = {}): Promise<Harness> {
  h = await startHarness({
    env: { CLIENT_KEYS: KEY },
    config: (base) => ({
      server: { auth: { keysEnv: 'CLIENT_KEYS' } },
      providers: {
        fake: { baseUrl: base, timeoutMs: 10_000 },
        claude: { baseUrl: base, api: 'anthropic', timeoutMs: 10_000 },
      },
      tiers: { SIMPLE: ['fake/small'], COMPLEX: ['claude/big'] },
      costs: {
        prices: {
          'fake/small': { input: 0.5, output: 1.5, cachedInput: 0.25 },
          big: { input: 3, output: 15 },
        },
        baseline: 'claude/big',
      },
      limits,
    }),
  });
  h.fake.reply({ text: 'Lima.', usage: { inputTokens: 1000, outputTokens: 200 } });
  return h;
}

function clients(url: string) {
  return {
    openai: new OpenAI({ baseURL: `${url}/v1`, apiKey: KEY, maxRetries: 0 }),
    anthropic: new Anthropic({ baseURL: url, apiKey: KEY, maxRetries: 0 }),
  };
}

async function usage(url: string, query = '') {
  const response = await fetch(`${url}/v1/usage${query}`, {
    headers: { authorization: `Bearer ${KEY}` },
  });
  return response.json() as Promise<UsageSummary>;
}

describe('costOf', () => {
  it('prices input, cached input and output per million tokens', () => {
    const usd = costOf(
      { inputTokens: 2_000_000, cachedInputTokens: 1_000_000, outputTokens: 500_000 },
      { input: 3, output: 15, cachedInput: 0.3 },
    );
    expect(usd).toBeCloseTo(6 + 0.3 + 7.5, 12);
    expect(
      costOf({ inputTokens: 0, cachedInputTokens: 4, outputTokens: 0 }, { input: 1, output: 1 }),
    ).toBe(4e-6);
  });
});

describe('costs and savings', () => {
  it('counts a streamed chat answer whose client did not ask for usage, without showing it', async () => {
    const { url } = await start();
    const { openai } = clients(url);
    const stream = await openai.chat.completions.create({
      model: 'simple',
      messages: [{ role: 'user', content: 'Capital of Peru?' }],
      stream: true,
    });
    const chunks: OpenAI.ChatCompletionChunk[] = [];
    for await (const chunk of stream) chunks.push(chunk);
    expect(chunks.every((chunk) => chunk.usage === undefined)).toBe(true);
    expect(chunks.every((chunk) => chunk.choices.length === 1)).toBe(true);
    expect(h!.fake.chatRequests[0]!.body).toMatchObject({
      stream_options: { include_usage: true },
    });

    const summary = await usage(url);
    const cost = (1000 * 0.5 + 200 * 1.5) / 1e6;
    const baseline = (1000 * 3 + 200 * 15) / 1e6;
    expect(summary.baseline).toBe('claude/big');
    expect(summary.totals).toEqual({
      requests: 1,
      inputTokens: 1000,
      cachedInputTokens: 0,
      outputTokens: 200,
      costUsd: cost,
      baselineCostUsd: baseline,
      savingsUsd: Math.round((baseline - cost) * 1e9) / 1e9,
    });
    expect(summary.byModel).toMatchObject([{ model: 'fake/small', tier: 'SIMPLE', requests: 1 }]);
    expect(summary.byClient).toMatchObject([{ client: LABEL, requests: 1, costUsd: cost }]);

    const metrics = await (
      await fetch(`${url}/metrics`, { headers: { authorization: `Bearer ${KEY}` } })
    ).text();
    const labels = `model="fake/small",tier="SIMPLE",client="${LABEL}"`;
    expect(metrics).toContain(`triage_tokens_total{${labels},kind="input"} 1000`);
    expect(metrics).toContain(`triage_tokens_total{${labels},kind="output"} 200`);
    expect(metrics).toContain(`triage_cost_usd_total{${labels}} ${cost}`);
    expect(metrics).toContain(`triage_baseline_cost_usd_total{${labels}} ${baseline}`);
    expect(metrics).toContain(`triage_savings_usd{${labels}} ${baseline - cost}`);
  });

  it('counts JSON answers and Anthropic streams, both ways, and sums a window', async () => {
    const { url } = await start();
    const { openai, anthropic } = clients(url);
    await openai.chat.completions.create({
      model: 'complex',
      messages: [{ role: 'user', content: 'Prove it.' }],
    });
    const stream = anthropic.messages.stream({
      model: 'complex',
      max_tokens: 100,
      messages: [{ role: 'user', content: 'Prove it.' }],
    });
    await stream.finalMessage();
    await anthropic.messages.create({
      model: 'simple',
      max_tokens: 100,
      messages: [{ role: 'user', content: 'Hi' }],
    });
    const summary = await usage(url, '?window=1h');
    const big = (1000 * 3 + 200 * 15) / 1e6;
    const small = (1000 * 0.5 + 200 * 1.5) / 1e6;
    expect(summary.totals.requests).toBe(3);
    expect(summary.totals.inputTokens).toBe(3000);
    expect(summary.totals.outputTokens).toBe(600);
    expect(summary.totals.costUsd).toBeCloseTo(2 * big + small, 12);
    expect(summary.totals.savingsUsd).toBeCloseTo(big - small, 12);
    expect(summary.byModel.map((m: { model: string }) => m.model)).toEqual([
      'claude/big',
      'fake/small',
    ]);
    const before = await usage(url, `?from=2020-01-01T00:00:00Z&to=2020-01-02T00:00:00Z`);
    expect(before.totals.requests).toBe(0);
    const bad = await fetch(`${url}/v1/usage?window=forever`, {
      headers: { authorization: `Bearer ${KEY}` },
    });
    expect(bad.status).toBe(400);
  });
});

describe('cached input tokens', () => {
  /**
   * Every answer reports 100 input tokens at full price, 800 read from the prompt cache and 50
   * written to it (Anthropic's three counts; an OpenAI upstream says prompt_tokens 950 with 800
   * cached). Triage counts 150 at the input price (cache writes are full-price input), 800 at the
   * cached price, 200 output, whichever wire formats the client and the upstream speak.
   */
  const CACHED = { inputTokens: 100, cachedInputTokens: 800, cacheCreationInputTokens: 50 };
  /** fake/small prices cache reads at 0.25; claude/big has no cached price: its input price. */
  const small = (150 * 0.5 + 800 * 0.25 + 200 * 1.5) / 1e6;
  const big = (150 * 3 + 800 * 3 + 200 * 15) / 1e6;

  it('prices them exactly, JSON and streamed, both formats, translated both ways', async () => {
    const { url } = await start();
    h!.fake.reply({ text: 'Lima.', usage: { ...CACHED, outputTokens: 200 } });
    const { openai, anthropic } = clients(url);
    const messages = [{ role: 'user' as const, content: 'Capital of Peru?' }];

    // Chat completions clients: from the OpenAI upstream as it is, from the Anthropic one translated.
    const openAiUsage = {
      prompt_tokens: 950,
      completion_tokens: 200,
      total_tokens: 1150,
      prompt_tokens_details: { cached_tokens: 800 },
    };
    for (const model of ['simple', 'complex']) {
      const answer = await openai.chat.completions.create({ model, messages });
      expect(answer.usage).toEqual(openAiUsage);
      const stream = await openai.chat.completions.create({
        model,
        messages,
        stream: true,
        stream_options: { include_usage: true },
      });
      const usages: unknown[] = [];
      for await (const chunk of stream) if (chunk.usage) usages.push(chunk.usage);
      expect(usages).toEqual([openAiUsage]);
      // Not asked for: asked for upstream all the same, counted, and not shown.
      const quiet = await openai.chat.completions.create({ model, messages, stream: true });
      for await (const chunk of quiet) expect(chunk.usage).toBeUndefined();
    }

    // Messages clients: from the OpenAI upstream translated, from the Anthropic one as it is.
    const translated = { input_tokens: 150, cache_read_input_tokens: 800, output_tokens: 200 };
    const native = {
      input_tokens: 100,
      cache_creation_input_tokens: 50,
      cache_read_input_tokens: 800,
      output_tokens: 200,
    };
    for (const [model, expected] of [
      ['simple', translated],
      ['complex', native],
    ] as const) {
      const answer = await anthropic.messages.create({ model, max_tokens: 100, messages });
      expect(answer.usage).toMatchObject(expected);
      const final = await anthropic.messages
        .stream({ model, max_tokens: 100, messages })
        .finalMessage();
      expect(final.usage).toMatchObject(expected);
    }
    expect(h!.fake.chatRequests).toHaveLength(10);

    const summary = await usage(url);
    const per = (cost: number, requests: number) => ({
      requests,
      inputTokens: 150 * requests,
      cachedInputTokens: 800 * requests,
      outputTokens: 200 * requests,
      costUsd: Math.round(cost * requests * 1e9) / 1e9,
      baselineCostUsd: Math.round(big * requests * 1e9) / 1e9,
      savingsUsd: Math.round((big - cost) * requests * 1e9) / 1e9,
    });
    expect(summary.totals).toEqual({
      requests: 10,
      inputTokens: 1500,
      cachedInputTokens: 8000,
      outputTokens: 2000,
      costUsd: Math.round((small + big) * 5 * 1e9) / 1e9,
      baselineCostUsd: Math.round(big * 10 * 1e9) / 1e9,
      savingsUsd: Math.round((big - small) * 5 * 1e9) / 1e9,
    });
    expect(summary.byModel).toEqual([
      { model: 'claude/big', tier: 'COMPLEX', ...per(big, 5) },
      { model: 'fake/small', tier: 'SIMPLE', ...per(small, 5) },
    ]);
    expect(summary.byClient).toEqual([{ client: LABEL, ...summary.totals }]);

    const metrics = await (
      await fetch(`${url}/metrics`, { headers: { authorization: `Bearer ${KEY}` } })
    ).text();
    const value = (name: string, labels: string) =>
      Number(new RegExp(`^${name}\\{${labels}\\} (\\S+)$`, 'm').exec(metrics)?.[1]);
    for (const [model, tier, cost] of [
      ['fake/small', 'SIMPLE', small],
      ['claude/big', 'COMPLEX', big],
    ] as const) {
      const labels = `model="${model}",tier="${tier}",client="${LABEL}"`;
      expect(value('triage_tokens_total', `${labels},kind="input"`)).toBe(750);
      expect(value('triage_tokens_total', `${labels},kind="cached_input"`)).toBe(4000);
      expect(value('triage_tokens_total', `${labels},kind="output"`)).toBe(1000);
      expect(value('triage_cost_usd_total', labels)).toBeCloseTo(5 * cost, 15);
      expect(value('triage_baseline_cost_usd_total', labels)).toBeCloseTo(5 * big, 15);
      expect(value('triage_savings_usd', labels)).toBeCloseTo(5 * (big - cost), 15);
    }
  });
});

describe('limits per client key', () => {
  it('lets a stream that crosses the daily budget finish, then refuses the next request with 429', async () => {
    // One answer costs $0.0008: the first request crosses a budget of $0.0005.
    const { url } = await start({ keys: { [LABEL]: { spendPerDayUsd: 0.0005 } } });
    const { openai, anthropic } = clients(url);
    const stream = await openai.chat.completions.create({
      model: 'simple',
      messages: [{ role: 'user', content: 'Hi' }],
      stream: true,
    });
    let text = '';
    for await (const chunk of stream) text += chunk.choices[0]?.delta.content ?? '';
    expect(text).toBe('Lima.');

    const refused = await openai.chat.completions
      .create({ model: 'simple', messages: [{ role: 'user', content: 'Hi' }] })
      .catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(OpenAI.RateLimitError);
    const error = refused as InstanceType<typeof OpenAI.RateLimitError>;
    expect(error.message).toContain('the daily budget of $0.0005 is spent');
    expect(Number(error.headers.get('retry-after'))).toBeGreaterThan(0);

    const inAnthropicShape = await anthropic.messages
      .create({ model: 'simple', max_tokens: 10, messages: [{ role: 'user', content: 'Hi' }] })
      .catch((e: unknown) => e);
    expect(inAnthropicShape).toBeInstanceOf(Anthropic.RateLimitError);
    expect((inAnthropicShape as InstanceType<typeof Anthropic.RateLimitError>).error).toMatchObject(
      {
        type: 'error',
        error: { type: 'rate_limit_error' },
      },
    );
    expect(h!.fake.chatRequests).toHaveLength(1);
  });

  it('limits requests and tokens per minute', async () => {
    const { url } = await start({ default: { requestsPerMinute: 2 } });
    const { openai } = clients(url);
    const ask = () =>
      openai.chat.completions
        .create({ model: 'simple', messages: [{ role: 'user', content: 'Hi' }] })
        .then(() => 200)
        .catch((e: { status?: number }) => e.status);
    const statuses = [await ask(), await ask(), await ask()];
    // Two requests a minute: the third is refused, unless the minute turned in between.
    expect(statuses.slice(0, 2)).toEqual([200, 200]);
    expect(statuses.filter((s) => s === 429).length).toBeLessThanOrEqual(1);

    await h!.close();
    const tokens = await start({ default: { tokensPerMinute: 1000 } });
    const second = clients(tokens.url).openai;
    await second.chat.completions.create({
      model: 'simple',
      messages: [{ role: 'user', content: 'Hi' }],
    });
    const refused = await second.chat.completions
      .create({ model: 'simple', messages: [{ role: 'user', content: 'Hi' }] })
      .catch((e: unknown) => e);
    // 1,200 tokens used: the minute's 1,000 are spent (unless the minute turned in between).
    if (refused instanceof Error) expect(refused).toBeInstanceOf(OpenAI.RateLimitError);
  });
});
