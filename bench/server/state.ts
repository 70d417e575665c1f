import type { ChildProcess } from 'node:child_process';
import { Redis } from 'ioredis';
import { Pool } from 'undici';
import { redisServerPath, startRedis } from '../../test/redis-server.js';
import type { ChildUsage } from './child.js';

/**
 * The shared-state phase of `npm run bench:server`: what keeping the limits' counters and the
 * verdict cache in Redis adds to a proxied chat completion, against the same server with its state
 * in memory. Two triage servers with the same limits and budgets (never reached, so every request
 * is admitted through the one atomic check-and-take, and its tokens and spend are counted
 * afterwards), one with `state.redis` pointed at a redis-server this phase starts on loopback.
 * Each is loaded alone at the rate (as triage is in the main phase), the two taking turns, round
 * after round, so that a slow moment of the machine does not fall on one of them only.
 */

/** Latencies (ms) and errors of one lane of a phase. */
export interface StatePhase {
  readonly latencies: number[];
  readonly errors: number;
}

/** What the phase needs from the harness (latency.ts). */
export interface StateHarness {
  readonly upstreamPort: number;
  readonly logLevel: string;
  readonly rate: number;
  readonly seconds: number;
  readonly rounds: number;
  readonly body: string;
  start(file: string, args: string[]): Promise<{ child: ChildProcess; port: number }>;
  /** Pins the triage servers as the other proxies are; says what it did. */
  pin(proxies: readonly number[], harness: readonly number[]): string;
  runPhase(
    targets: readonly { readonly pool: Pool; readonly body: string }[],
    rate: number,
    seconds: number,
    firstByte: boolean,
  ): Promise<StatePhase[]>;
  /** What a server started by `start` has used so far. */
  usage(child: ChildProcess): Promise<ChildUsage>;
}

interface Quantiles {
  readonly p50: number;
  readonly p90: number;
}

/** What the phase measured. */
export interface StateRow {
  readonly rate: number;
  readonly samples: number;
  readonly memory: Quantiles;
  readonly redis: Quantiles;
  /** redis − memory. */
  readonly added: Quantiles;
  /** CPU microseconds per request of each server: steadier than latency on a busy machine. */
  readonly cpuUs: { readonly memory: number; readonly redis: number };
  readonly errors: number;
  /** Keys the Redis held at the end (the counters and nothing else: no LLM is configured). */
  readonly redisKeys: number;
  /** Operations the Redis-state server answered from its own memory (0: all went to Redis). */
  readonly fallbacks: number;
  readonly layout: string;
}

function quantiles(latencies: readonly number[]): Quantiles {
  const sorted = Float64Array.from(latencies).sort();
  const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? 0;
  return { p50: at(0.5), p90: at(0.9) };
}

/** Runs the phase; why not, when no redis-server is installed. */
export async function measureState(h: StateHarness): Promise<StateRow | string> {
  const binary = redisServerPath();
  if (binary === undefined) return 'shared state: skipped (no redis-server installed)';
  const redis = await startRedis(binary);
  const args = [String(h.upstreamPort), h.logLevel, 'console-on'];
  const memory = await h.start('./triage.ts', [...args, 'memory']);
  const shared = await h.start('./triage.ts', [...args, redis.url]);
  // Redis with the harness: it stands for a server of its own, and does not take the proxies' CPU.
  const layout = h.pin(
    [memory.child.pid ?? 0, shared.child.pid ?? 0],
    [process.pid, redis.pid ?? 0],
  );
  const pool = (port: number) =>
    new Pool(`http://127.0.0.1:${port}`, { connections: 256, pipelining: 1 });
  const lanes = [
    { pool: pool(memory.port), body: h.body },
    { pool: pool(shared.port), body: h.body },
  ];
  try {
    const latencies = { memory: [] as number[], redis: [] as number[] };
    let errors = 0;
    const servers = [memory.child, shared.child] as const;
    const cpu = [0, 0];
    const phase = async (lane: 0 | 1, seconds: number) => {
      const before = (await h.usage(servers[lane])).cpuUs;
      const [one] = (await h.runPhase([lanes[lane]!], h.rate, seconds, false)) as [StatePhase];
      cpu[lane]! += (await h.usage(servers[lane])).cpuUs - before;
      errors += one.errors;
      return one.latencies;
    };
    // Warm-up: connections opened (to Redis too), code optimised.
    await phase(0, 1);
    await phase(1, 1);
    errors = 0;
    cpu.fill(0);
    for (let round = 0; round < h.rounds; round++) {
      latencies.memory.push(...(await phase(0, h.seconds)));
      latencies.redis.push(...(await phase(1, h.seconds)));
    }
    const q = { memory: quantiles(latencies.memory), redis: quantiles(latencies.redis) };
    const client = new Redis(redis.url);
    const redisKeys = await client.dbsize();
    client.disconnect();
    const metrics = await (await fetch(`http://127.0.0.1:${shared.port}/metrics`)).text();
    const fallbacks = metrics
      .split('\n')
      .filter((line) => line.startsWith('triage_state_fallbacks_total{'))
      .reduce((sum, line) => sum + Number(line.split(' ').at(-1)), 0);
    return {
      rate: h.rate,
      samples: latencies.redis.length,
      ...q,
      added: { p50: q.redis.p50 - q.memory.p50, p90: q.redis.p90 - q.memory.p90 },
      cpuUs: {
        memory: cpu[0]! / Math.max(1, latencies.memory.length),
        redis: cpu[1]! / Math.max(1, latencies.redis.length),
      },
      errors,
      redisKeys,
      fallbacks,
      layout,
    };
  } finally {
    await Promise.all(lanes.map(({ pool }) => pool.close()));
    memory.child.disconnect();
    shared.child.disconnect();
    await redis.stop();
  }
}

/** Prints a row of {@link measureState} (or why it was skipped). */
export function printState(row: StateRow | string): void {
  if (typeof row === 'string') {
    process.stdout.write(`${row}\n`);
    return;
  }
  const f = (ms: number) => `${ms.toFixed(3)} ms`;
  const q = (x: Quantiles) => `p50 ${f(x.p50)} p90 ${f(x.p90)}`;
  process.stdout.write(
    `shared state, limits and budgets on, at ${row.rate} req/s, each server alone in turn ` +
      `(n=${row.samples} per server, errors ${row.errors}; ${row.layout})\n` +
      `  state in memory ${q(row.memory)}   CPU ${row.cpuUs.memory.toFixed(0)} µs/request\n` +
      `  state in Redis  ${q(row.redis)}   CPU ${row.cpuUs.redis.toFixed(0)} µs/request   ` +
      `added ${q(row.added)}\n` +
      `    Redis held ${row.redisKeys} keys; ${row.fallbacks} operations fell back to memory\n`,
  );
}
