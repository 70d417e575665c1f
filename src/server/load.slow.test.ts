import { Agent, request } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listenBacklogCap } from '../../test/kernel.js';
import { chat, type Harness, startHarness } from './server.test-helpers.js';

/**
 * A burst of simultaneous connections, each with its own request. The burst and both servers'
 * listen backlogs are sized to the kernel's cap (1,000 where the kernel allows it): beyond it the
 * kernel itself refuses connections, whatever the server does. The upstream holds every answer
 * until the whole burst has reached it, so the test proves that every request was in flight at
 * once, however slowly a busy machine sends them.
 */
const BURST = Math.min(1000, listenBacklogCap());
const TIERS = ['SIMPLE', 'MEDIUM', 'COMPLEX', 'REASONING'] as const;
const MODELS = { SIMPLE: 'small', MEDIUM: 'mid-a', COMPLEX: 'big', REASONING: 'think' };

describe(`${BURST} concurrent requests`, () => {
  let h: Harness;
  const agent = new Agent({ connections: BURST });
  beforeAll(async () => {
    h = await startHarness({
      backlog: BURST,
      // Timeouts are not under test here: the upstream answers only once the burst is complete.
      config: (baseUrl) => ({
        providers: { fake: { baseUrl, timeoutMs: 120_000 } },
        tiers: {
          SIMPLE: ['fake/small'],
          MEDIUM: ['fake/mid-a'],
          COMPLEX: ['fake/big'],
          REASONING: ['fake/think'],
        },
      }),
    });
  });
  afterAll(async () => {
    await agent.close();
    await h.close();
  });

  it('holds every one upstream at once, then answers each from its tier, streamed or not', async () => {
    let release = () => {};
    const released = new Promise<void>((resolve) => {
      release = resolve;
    });
    h.fake.reply(async (r) => {
      await released;
      return { text: `answer from ${r.model}` };
    });
    const answers = Promise.all(
      Array.from({ length: BURST }, async (_, i) => {
        const tier = TIERS[i % 4] as (typeof TIERS)[number];
        const stream = i % 3 === 0;
        const res = await request(`${h.url}/v1/chat/completions`, {
          dispatcher: agent,
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify(chat(`[${tier}] request ${i}`, { stream })),
        });
        const text = await res.body.text();
        const expected = stream ? `"content":" ${MODELS[tier]}"` : `from ${MODELS[tier]}`;
        return res.statusCode === 200 && res.headers['x-triage-tier'] === tier
          ? text.includes(expected) || `request ${i}: ${text.slice(0, 200)}`
          : `request ${i}: ${res.statusCode} ${text.slice(0, 200)}`;
      }),
    );
    await h.fake.whenRequests(BURST, 50_000);
    expect(h.fake.chatRequests.every((r) => r.outcome === 'pending')).toBe(true);
    release();
    expect((await answers).filter((ok) => ok !== true)).toEqual([]);
    expect(h.fake.chatRequests).toHaveLength(BURST);
    expect(h.fake.chatRequests.every((r) => r.outcome === 'completed')).toBe(true);
    const metrics = await h.server.metrics.render();
    expect(metrics).not.toMatch(/triage_errors_total\{/);
    expect(metrics).not.toMatch(/triage_upstream_failures_total\{/);
  });
});
