import type { ChildProcess } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { request } from 'undici';
import { afterAll, describe, expect, it } from 'vitest';
import { listening, spawnCli } from '../../../test/built-cli.js';
import { needRedis, type TestRedis } from '../../../test/redis-server.js';
import { type FakeLlmServer, startFakeLlm } from '../../testing/index.js';
import { failingMake } from './agents.test-helpers.js';

/**
 * Two `triage serve` processes (the built CLI) sharing the test's own redis-server, with agent
 * guidance on: a conversation whose requests alternate between them is guided as it is by one
 * instance (same nudges at the same steps, cooldowns holding, a retried step not nudged twice).
 */

/** Processes of their own on a machine that may be busy. */
const SLOW = 120_000;

/** The guidance header of one chat request of conversation `id` to `url`. */
async function guidanceOf(url: string, id: string, messages: unknown[]): Promise<string> {
  const res = await request(`${url}/v1/chat/completions`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-triage-conversation': id },
    body: JSON.stringify({ model: 'auto', messages }),
  });
  const text = await res.body.text();
  if (res.statusCode !== 200) throw new Error(`${res.statusCode}: ${text.slice(0, 300)}`);
  return String(res.headers['x-triage-guidance'] ?? '-');
}

async function metricsOf(url: string): Promise<string> {
  return (await request(`${url}/metrics`)).body.text();
}

describe('agent guidance across two instances sharing Redis', () => {
  let redis: TestRedis | undefined;
  let fake: FakeLlmServer | undefined;
  const children: ChildProcess[] = [];
  afterAll(async () => {
    for (const child of children) child.kill('SIGKILL');
    await fake?.close();
    await redis?.stop({ kill: true });
  });

  it(
    'continues a conversation on either instance as on one',
    async (context) => {
      redis = await needRedis(context);
      fake = await startFakeLlm();
      const file = join(mkdtempSync(join(tmpdir(), 'triage-guidance-')), 'triage.yaml');
      writeFileSync(
        file,
        [
          `providers:\n  local: { baseUrl: "${fake.openAiBaseUrl}" }`,
          'tiers:\n  SIMPLE: [local/small]\n  MEDIUM: [local/mid]',
          'agents:\n  guidance: { enabled: true }',
          // A generous limit: the test is about sharing, not about a late Redis on a busy machine.
          `state:\n  redis: { url: "${redis.url}", keyPrefix: "guidance-test:", timeoutMs: 5000 }`,
          '',
        ].join('\n'),
      );
      const urls = await Promise.all(
        [0, 1].map(() => {
          const child = spawnCli(['serve', '--config', file, '--port', '0']);
          children.push(child);
          return listening(child);
        }),
      );
      for (const url of urls) {
        await expect
          .poll(() => metricsOf(url), { timeout: 30_000 })
          .toMatch(/triage_state_redis_up 1/);
      }

      // Six failing steps, the third one retried (a client resending after a lost answer).
      const plan = [1, 2, 3, 3, 4, 5, 6];
      const alone: string[] = [];
      for (const steps of plan) alone.push(await guidanceOf(urls[0]!, 'alone', failingMake(steps)));
      const alternating: string[] = [];
      for (const [i, steps] of plan.entries()) {
        alternating.push(await guidanceOf(urls[i % 2]!, 'alternating', failingMake(steps)));
      }

      expect(alternating).toEqual(alone);
      // The third failure in a row is an error streak, nudged once: its retry, served by the
      // other instance, is not nudged again. The streak goes on, but its cooldown (2 turns) keeps
      // it quiet at steps 4 and 5, whichever instance serves them, until step 6.
      expect(alone).toEqual([
        '-',
        '-',
        'error_streak',
        '-',
        'single_tool_repeated',
        'progress_stall',
        'error_streak',
      ]);
      for (const url of urls) {
        expect(await metricsOf(url)).not.toMatch(/triage_state_fallbacks_total\{part="guidance"\}/);
      }
    },
    SLOW,
  );
});
