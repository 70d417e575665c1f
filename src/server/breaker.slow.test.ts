import type { ChildProcess } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { request } from 'undici';
import { afterEach, describe, expect, it } from 'vitest';
import { listening, spawnCli } from '../../test/built-cli.js';
import { needRedis, type TestRedis } from '../../test/redis-server.js';
import { type FakeLlmServer, startFakeLlm } from '../testing/index.js';

/**
 * Two `triage serve` processes (the built CLI) sharing the test's own redis-server: an upstream
 * model that fails for instance A's requests only is skipped by instance B, which never saw it
 * fail, and both use it again once it recovers.
 */

/** Generous: the machine may be busy; nothing here asserts a duration. */
const LIMIT_MS = 30_000;

async function until<T>(check: () => Promise<T | undefined>, what: string): Promise<T> {
  const started = Date.now();
  for (;;) {
    const value = await check();
    if (value !== undefined) return value;
    if (Date.now() - started > LIMIT_MS) throw new Error(`still waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

/** The instance's breaker state of `model` (0 closed, 1 open, 2 half-open), if reported. */
async function breakerState(url: string, model: string): Promise<number | undefined> {
  const text = await (await request(`${url}/metrics`)).body.text();
  const escaped = model.replace('/', '\\/');
  const found = new RegExp(`triage_upstream_breaker_state\\{model="${escaped}"\\} (\\d+)`).exec(
    text,
  );
  return found ? Number(found[1]) : undefined;
}

async function ask(url: string) {
  const res = await request(`${url}/v1/chat/completions`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ model: 'medium', messages: [{ role: 'user', content: 'Hi' }] }),
  });
  await res.body.dump();
  return { status: res.statusCode, headers: res.headers };
}

describe('upstream health shared by two instances through Redis', () => {
  const children: ChildProcess[] = [];
  let fake: FakeLlmServer | undefined;
  let redis: TestRedis | undefined;
  afterEach(async () => {
    for (const child of children.splice(0)) child.kill('SIGKILL');
    await fake?.close();
    await redis?.stop({ kill: true });
  });

  /** Starts an instance whose upstream requests carry `x-instance: <name>`. */
  async function instance(name: string, fakeUrl: string, redisUrl: string): Promise<string> {
    const dir = mkdtempSync(join(tmpdir(), `triage-breaker-${name}-`));
    const file = join(dir, 'triage.json');
    const config = {
      providers: { fake: { baseUrl: fakeUrl, timeoutMs: 10_000, headers: { 'x-instance': name } } },
      tiers: { MEDIUM: ['fake/mid-a', 'fake/mid-b'] },
      state: { redis: { url: redisUrl, timeoutMs: 1_000 } },
      breaker: { failures: 3, openMs: 1_000 },
      server: { log: { level: 'warn' } },
    };
    writeFileSync(file, JSON.stringify(config));
    const child = spawnCli(['serve', '--config', file, '--port', '0']);
    children.push(child);
    return listening(child);
  }

  it('B skips the model A found failing, within a second, and goes back to it once it recovers', async (context) => {
    redis = await needRedis(context);
    fake = await startFakeLlm();
    let recovered = false;
    fake.reply((r) =>
      r.model === 'mid-a' && r.headers['x-instance'] === 'a' && !recovered
        ? { status: 503 }
        : `from ${r.model}`,
    );
    const a = await instance('a', fake.openAiBaseUrl, redis.url);
    const b = await instance('b', fake.openAiBaseUrl, redis.url);
    // Both instances are connected to Redis before anything fails.
    for (const url of [a, b]) {
      await until(async () => {
        const text = await (await request(`${url}/metrics`)).body.text();
        return /triage_state_redis_up 1/.test(text) || undefined;
      }, 'the instance to reach Redis');
    }

    for (let i = 0; i < 3; i++) {
      const answer = await ask(a);
      expect(answer.headers['x-triage-model']).toBe('fake/mid-b');
    }
    expect(await breakerState(a, 'fake/mid-a')).toBe(1);
    const opened = Date.now();
    await until(
      async () => ((await breakerState(b, 'fake/mid-a')) === 1 ? true : undefined),
      'B to see the breaker open',
    );
    const seenAfterMs = Date.now() - opened;
    const fromB = await ask(b);
    expect(fromB.status).toBe(200);
    expect(fromB.headers['x-triage-model']).toBe('fake/mid-b');
    expect(fromB.headers['x-triage-skipped']).toBe('fake/mid-a');
    // B never sent anything to mid-a.
    expect(
      fake.chatRequests.filter((r) => r.headers['x-instance'] === 'b').map((r) => r.model),
    ).toEqual(['mid-b']);
    console.log(`instance B saw the breaker A opened after ${seenAfterMs} ms (metrics polled)`);

    recovered = true;
    // After openMs, one request probes mid-a; it answers, and the breaker closes for both.
    await until(async () => {
      const answer = await ask(b);
      return answer.headers['x-triage-model'] === 'fake/mid-a' ? true : undefined;
    }, 'B to use mid-a again');
    await until(
      async () => ((await breakerState(a, 'fake/mid-a')) === 0 ? true : undefined),
      'A to see it closed',
    );
    expect((await ask(a)).headers['x-triage-model']).toBe('fake/mid-a');
  });
});
