import { Agent, request } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chat, type Harness, startHarness } from './server.test-helpers.js';

describe('1,000 concurrent requests', () => {
  let h: Harness;
  const agent = new Agent({ connections: null, pipelining: 0 });
  beforeAll(async () => {
    h = await startHarness();
    h.fake.reply((r) => ({ text: `answer from ${r.model}`, delayMs: 20 }));
  });
  afterAll(async () => {
    await agent.close();
    await h.close();
  });

  it('answers every one, each from its tier, streamed or not, with no error', async () => {
    const tiers = ['SIMPLE', 'MEDIUM', 'COMPLEX', 'REASONING'] as const;
    const models = { SIMPLE: 'small', MEDIUM: 'mid-a', COMPLEX: 'big', REASONING: 'think' };
    const results = await Promise.all(
      Array.from({ length: 1000 }, async (_, i) => {
        const tier = tiers[i % 4] as (typeof tiers)[number];
        const stream = i % 3 === 0;
        const res = await request(`${h.url}/v1/chat/completions`, {
          dispatcher: agent,
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify(chat(`[${tier}] request ${i}`, { stream })),
        });
        const text = await res.body.text();
        const expected = `from ${models[tier]}`;
        return (
          res.statusCode === 200 &&
          res.headers['x-triage-tier'] === tier &&
          text.includes(stream ? `"content":" ${models[tier]}"` : expected)
        );
      }),
    );
    expect(results.filter((ok) => !ok)).toHaveLength(0);
    expect(h.fake.chatRequests).toHaveLength(1000);
    expect(h.fake.chatRequests.every((r) => r.outcome === 'completed')).toBe(true);
    const metrics = await h.server.metrics.render();
    expect(metrics).not.toMatch(/triage_errors_total\{/);
    expect(metrics).not.toMatch(/triage_upstream_failures_total\{/);
  });
});
