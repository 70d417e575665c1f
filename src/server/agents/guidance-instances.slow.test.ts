import type { ChildProcess } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { request } from 'undici';
import { afterAll, describe, expect, it } from 'vitest';
import { listening, spawnCli } from '../../../test/built-cli.js';
import { needRedis, type TestRedis } from '../../../test/redis-server.js';
import { type FakeLlmServer, startFakeLlm } from '../../testing/index.js';

/**
 * Two `triage serve` processes (the built CLI) sharing the test's own redis-server, with agent
 * guidance on: a conversation whose requests alternate between them is guided as it is by one
 * instance (same nudges at the same steps, cooldowns holding, a retried step not nudged twice).
 */

/** Processes of their own on a machine that may be busy. */
const SLOW = 120_000;

/** The messages of an agent whose `steps` calls of `make` all failed. */
function failing(steps: number): unknown[] {
  const messages: unknown[] = [{ role: 'user', content: 'build the project' }];
  for (let i = 0; i < steps; i++) {
    messages.push({
      role: 'assistant',
      content: null,
      tool_calls: [
        {
          id: `c${i}`,
          type: 'function',
          function: { name: 'run_shell', arguments: '{"command":"make"}' },
        },
      ],
    });
    messages.push({
      role: 'tool',
      tool_call_id: `c${i}`,
      content: `Error: make: *** [all] Error ${i}`,
    });
  }
  return messages;
}

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
      for (const steps of plan) alone.push(await guidanceOf(urls[0]!, 'alone', failing(steps)));
      const alternating: string[] = [];
      for (const [i, steps] of plan.entries()) {
        alternating.push(await guidanceOf(urls[i % 2]!, 'alternating', failing(steps)));
      }

      expect(alternating).toEqual(alone);
      // The third failure in a row is an error streak, nudged once: its retry, served by the
      // other instance, is not nudged again, nor is the next step (the streak's cooldown).
      expect(alone.slice(0, 5)).toEqual(['-', '-', 'error_streak', '-', 'single_tool_repeated']);
      expect(alone.filter((header) => header === 'error_streak').length).toBeLessThanOrEqual(2);
      for (const url of urls) {
        expect(await metricsOf(url)).not.toMatch(/triage_state_fallbacks_total\{part="guidance"\}/);
      }
    },
    SLOW,
  );
});
