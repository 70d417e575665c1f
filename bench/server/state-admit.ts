import { MemoryCounterStore } from '../../src/state/memory-counter-store.js';
import { RedisCounterStore } from '../../src/state/redis-counter-store.js';
import { RedisLink } from '../../src/state/redis-link.js';
import { redisServerPath, startRedis } from '../../test/redis-server.js';

/**
 * `node --import tsx bench/server/state-admit.ts [count]`: one admission of a client with every
 * limit (three checks and a take, as `Limits.admit` sends them), in memory and against a
 * redis-server of its own on loopback, `count` times in a row (default 10,000) after a warm-up:
 * its latency (p50, p90) and the client's CPU per admission. No server, no HTTP: the store alone.
 */

const count = Number(process.argv[2] ?? 10_000);
const expiresAt = Date.now() + 3_600_000;
const admission = {
  checks: [
    { key: 'spend:month', limit: 1e9 },
    { key: 'spend:day', limit: 1e9 },
    { key: 'tokens:minute', limit: 1e12 },
  ],
  take: { key: 'requests:minute', amount: 1, limit: 1e12, expiresAt },
};

async function measure(name: string, admit: () => Promise<unknown>): Promise<void> {
  for (let i = 0; i < 2_000; i++) await admit();
  const latencies = new Float64Array(count);
  const cpu = process.cpuUsage();
  for (let i = 0; i < count; i++) {
    const started = performance.now();
    await admit();
    latencies[i] = performance.now() - started;
  }
  const used = process.cpuUsage(cpu);
  latencies.sort();
  const at = (q: number) => (latencies[Math.floor(q * count)] ?? 0).toFixed(3);
  const cpuUs = ((used.user + used.system) / count).toFixed(1);
  process.stdout.write(
    `${name.padEnd(9)} p50 ${at(0.5)} ms p90 ${at(0.9)} ms   CPU ${cpuUs} µs/admission\n`,
  );
}

const memory = new MemoryCounterStore();
await measure('memory', () => memory.admit(admission));
const binary = redisServerPath();
if (binary === undefined) {
  process.stdout.write('redis: skipped (no redis-server installed)\n');
} else {
  const redis = await startRedis(binary);
  let fallbacks = 0;
  const link = new RedisLink(
    { url: redis.url, keyPrefix: 'bench:', timeoutMs: 50 },
    { fallback: () => fallbacks++ },
  );
  await link.ready(10_000);
  const shared = new RedisCounterStore(link);
  await measure('redis', () => shared.admit(admission));
  process.stdout.write(`          ${fallbacks} admissions fell back to memory\n`);
  await link.close();
  await redis.stop();
}
