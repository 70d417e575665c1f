import type { ChildProcess } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Redis } from 'ioredis';
import { Agent, request } from 'undici';
import { afterEach, describe, expect, it } from 'vitest';
import { listening, spawnCli } from '../../test/built-cli.js';
import { poll } from '../../test/poll.js';
import { needRedis, type TestRedis } from '../../test/redis-server.js';
import { type FakeLlmServer, startFakeLlm } from '../testing/index.js';
import { keyLabel } from './client-id.js';

/**
 * Several instances, one state: two `triage serve` processes (the built CLI, as users run it)
 * share the test's own redis-server. A per-key limit holds across them, a budget spent on one is
 * refused on the other, and killing Redis under load loses no request: each instance answers
 * from its own memory meanwhile, says so once, counts it, and shares again once Redis returns.
 */

const KEY = 'client-key-shared-state';
const LABEL = keyLabel(KEY);
const OUTAGE_LOG = 'shared state: Redis is not answering';
const RETURN_LOG = 'shared state: Redis answers; state is shared again';
/** The longest wait for what another process does (generous: the machine may be busy). */
const PROCESS_LIMIT_MS = 60_000;

/** One running instance: its URL and what it logged. */
interface Instance {
  readonly url: string;
  readonly child: ChildProcess;
  log(): string;
}

describe('two triage instances sharing one Redis', () => {
  let redis: TestRedis | undefined;
  let fake: FakeLlmServer | undefined;
  const children: ChildProcess[] = [];
  const agent = new Agent({ connections: 16 });
  afterEach(async () => {
    for (const child of children.splice(0)) child.kill('SIGKILL');
    await fake?.close();
    await redis?.stop({ kill: true });
  });

  async function start(limits: Record<string, unknown>): Promise<[Instance, Instance]> {
    fake = await startFakeLlm();
    fake.reply({ text: 'ok', usage: { inputTokens: 1000, outputTokens: 200 } });
    const dir = mkdtempSync(join(tmpdir(), 'triage-shared-state-'));
    const file = join(dir, 'triage.yaml');
    const base = fake.openAiBaseUrl;
    // JSON is YAML.
    writeFileSync(
      file,
      JSON.stringify({
        server: { auth: { keysEnv: 'CLIENT_KEYS' } },
        providers: { fake: { baseUrl: base, timeoutMs: 30_000 } },
        tiers: {
          SIMPLE: ['fake/small'],
          MEDIUM: ['fake/mid'],
          COMPLEX: ['fake/big'],
          REASONING: ['fake/think'],
        },
        costs: {
          prices: Object.fromEntries(
            ['small', 'mid', 'big', 'think'].map((m) => [`fake/${m}`, { input: 1, output: 1 }]),
          ),
        },
        limits: { keys: { [LABEL]: limits } },
        // Long: on a busy machine a slow answer must not turn into a fallback (which would
        // count locally); a killed Redis fails at once, whatever the limit.
        state: { redis: { url: redis!.url, keyPrefix: 'shared-test:', timeoutMs: 10_000 } },
      }),
    );
    const one = async (): Promise<Instance> => {
      const child = spawnCli(['serve', '--config', file, '--port', '0'], {
        env: { CLIENT_KEYS: KEY },
      });
      children.push(child);
      let out = '';
      child.stdout?.setEncoding('utf8').on('data', (chunk: string) => {
        out += chunk;
      });
      const url = await listening(child);
      await poll(
        async () => (await metric(url, 'triage_state_redis_up')) === 1,
        'Redis up',
        PROCESS_LIMIT_MS,
      );
      return { url, child, log: () => out };
    };
    return Promise.all([one(), one()]);
  }

  async function chat(url: string, i: number): Promise<{ status: number; code?: string }> {
    const res = await request(`${url}/v1/chat/completions`, {
      dispatcher: agent,
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${KEY}` },
      body: JSON.stringify({ model: 'auto', messages: [{ role: 'user', content: `Hi ${i}` }] }),
    });
    const text = await res.body.text();
    const code = res.statusCode === 200 ? undefined : JSON.parse(text).error?.code;
    return { status: res.statusCode, ...(code === undefined ? {} : { code }) };
  }

  async function metric(url: string, name: string): Promise<number> {
    const res = await request(`${url}/metrics`, {
      dispatcher: agent,
      headers: { authorization: `Bearer ${KEY}` },
    });
    const text = await res.body.text();
    const line = text.split('\n').find((l) => l.startsWith(`${name} `) || l.startsWith(`${name}{`));
    return line === undefined ? 0 : Number(line.split(' ').at(-1));
  }

  it('holds a per-key requests-a-minute limit across both: the limit in total, not twice', async (context) => {
    redis = await needRedis(context);
    const limit = 25;
    const [a, b] = await start({ requestsPerMinute: limit });
    const results = await Promise.all(
      Array.from({ length: 120 }, (_, i) => chat(i % 2 ? a.url : b.url, i)),
    );
    const admitted = results.filter((r) => r.status === 200).length;
    expect(results.filter((r) => r.status !== 200).map((r) => r.code)).toEqual(
      Array(120 - admitted).fill('rate_limit_exceeded'),
    );
    // Each minute window is a counter of its own; the burst may straddle two.
    const plain = new Redis(redis.url);
    const windows = await plain.keys(`shared-test:requests:${LABEL}:*`);
    const counts = (await Promise.all(windows.map((k) => plain.get(k)))).map(Number);
    plain.disconnect();
    expect(counts.every((count) => count <= limit)).toBe(true);
    expect(counts).toContain(limit);
    expect(admitted).toBe(counts.reduce((sum, n) => sum + n, 0));
    expect(fake!.chatRequests).toHaveLength(admitted);
  });

  it('shares a budget: spent on one instance, refused on the other', async (context) => {
    redis = await needRedis(context);
    // One answer costs $0.0012 (1,200 tokens at $1 a million): over a daily budget of $0.001.
    const [a, b] = await start({ spendPerDayUsd: 0.001 });
    expect((await chat(a.url, 1)).status).toBe(200);
    // Counted after the answer, in the background.
    const plain = new Redis(redis.url);
    await poll(
      async () => (await plain.keys(`shared-test:spend:${LABEL}:*`)).length > 0,
      'the spend to reach Redis',
      PROCESS_LIMIT_MS,
    );
    plain.disconnect();
    expect(await chat(b.url, 2)).toEqual({ status: 429, code: 'budget_exceeded' });
    expect(fake!.chatRequests).toHaveLength(1);
  });

  it('loses no request when Redis is killed under load, says so once, and shares again after', async (context) => {
    redis = await needRedis(context);
    const [a, b] = await start({ requestsPerMinute: 100_000 });
    const total = 400;
    let sent = 0;
    let killed: Promise<void> | undefined;
    const results: { status: number; code?: string }[] = [];
    const worker = async () => {
      while (sent < total) {
        const i = sent++;
        if (i === 100) killed = redis!.stop({ kill: true });
        results.push(await chat(i % 2 ? a.url : b.url, i));
      }
    };
    await Promise.all(Array.from({ length: 8 }, worker));
    await killed;
    expect(results).toHaveLength(total);
    expect(results.filter((r) => r.status !== 200)).toEqual([]);
    let fallbacks = 0;
    for (const instance of [a, b]) {
      fallbacks += await metric(instance.url, 'triage_state_fallbacks_total');
      expect(await metric(instance.url, 'triage_state_redis_up')).toBe(0);
    }
    expect(fallbacks).toBeGreaterThan(0);

    await redis.restart();
    for (const instance of [a, b]) {
      await poll(
        async () => (await metric(instance.url, 'triage_state_redis_up')) === 1,
        'the instance to reach Redis again',
        PROCESS_LIMIT_MS,
      );
      // Logs are written in batches (a line may come a second late): said at start, and once
      // more now, after the outage, which was said once.
      const said = (what: string) => instance.log().split(what).length - 1;
      await poll(async () => said(RETURN_LOG) >= 2, 'the return to be logged', PROCESS_LIMIT_MS);
      expect(said(RETURN_LOG)).toBe(2);
      expect(said(OUTAGE_LOG)).toBe(1);
    }
    // Both count in Redis again: one counter, two requests.
    expect((await chat(a.url, 1)).status).toBe(200);
    expect((await chat(b.url, 2)).status).toBe(200);
    const plain = new Redis(redis.url);
    const [window] = await plain.keys(`shared-test:requests:${LABEL}:*`);
    expect(Number(await plain.get(window!))).toBe(2);
    plain.disconnect();
  });
});
