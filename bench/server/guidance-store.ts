import { spawn } from 'node:child_process';
import { GuidanceSessions } from '../../src/server/agents/guidance-stage.js';
import { parseServerConfig } from '../../src/server/config.js';
import type { ConversationStore } from '../../src/state/conversation-store.js';
import { MemoryConversationStore } from '../../src/state/memory-conversation-store.js';
import { RedisConversationStore } from '../../src/state/redis-conversation-store.js';
import { RedisLink } from '../../src/state/redis-link.js';
import { freePort, redisServerPath } from '../../test/redis-server.js';
import { agentTraffic } from '../agents/traffic.js';

/**
 * `npm exec -- node --import tsx bench/server/guidance-store.ts [--rounds N]`: what sharing agent
 * guidance between instances costs, on the agent-traffic fixture (bench/agents), guidance alone:
 *
 * 1. Per request, the guidance of one instance with its memory store (the default), against two
 *    instances taking turns over one conversation store in Redis (a redis-server of its own on a
 *    free loopback port): the added time is the `SET … GET` round trip, and the nudges must be
 *    the same.
 * 2. What an instance pays for a conversation it has not served yet: its engine rebuilt from the
 *    request's messages, for a long conversation, against the incremental step.
 */

const args = process.argv.slice(2);
const rounds = Number(args[args.indexOf('--rounds') + 1]) || 10;
const section = parseServerConfig({ agents: { guidance: { enabled: true } } }).agents.guidance;
const conversations = agentTraffic().map((conversation) => ({
  id: conversation.id,
  requests: conversation.requests.map((body) => body.messages as unknown[]),
}));

const percentile = (sorted: readonly number[], q: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!;
const us = (ms: number) => Math.round(ms * 1000);

/** Replays the fixture `rounds` times over `instances` taking turns; times and nudges. */
async function replay(instances: readonly GuidanceSessions[]) {
  const times: number[] = [];
  const nudges: string[] = [];
  for (let round = 0; round < rounds; round++) {
    let turn = 0;
    for (const { id, requests } of conversations) {
      for (const messages of requests) {
        const instance = instances[turn++ % instances.length]!;
        const started = performance.now();
        const outcome = await instance.observe(`r${round}:${id}`, messages);
        const ms = performance.now() - started;
        if (round === 0) continue; // warm-up
        times.push(ms);
        if (round === 1) nudges.push(outcome.guidance?.provider ?? '-');
      }
    }
  }
  times.sort((a, b) => a - b);
  return { p50: percentile(times, 0.5), p99: percentile(times, 0.99), nudges };
}

async function startRedis(): Promise<{ url: string; stop: () => void }> {
  const binary = redisServerPath();
  if (binary === undefined) throw new Error('no redis-server found: apt-get install redis-server');
  const port = await freePort();
  const child = spawn(binary, ['--port', String(port), '--bind', '127.0.0.1', '--save', ''], {
    stdio: 'ignore',
  });
  return { url: `redis://127.0.0.1:${port}`, stop: () => child.kill('SIGKILL') };
}

const redis = await startRedis();
const link = new RedisLink({ url: redis.url, keyPrefix: 'bench:', timeoutMs: 1_000 });
if (!(await link.ready(10_000))) throw new Error('the bench redis-server did not answer');
const over = (store: ConversationStore) => [
  new GuidanceSessions(section, store),
  new GuidanceSessions(section, store),
];

const memory = await replay([new GuidanceSessions(section, new MemoryConversationStore())]);
const shared = await replay(over(new RedisConversationStore(link)));
const requests = memory.nudges.length;
const same = memory.nudges.every((nudge, i) => nudge === shared.nudges[i]);
console.log(`guidance per request, ${requests} requests of ${conversations.length} conversations:`);
console.log(
  `  one instance, memory store:          p50 ${us(memory.p50)} µs, p99 ${us(memory.p99)} µs`,
);
console.log(
  `  two instances in turn, Redis store:  p50 ${us(shared.p50)} µs, p99 ${us(shared.p99)} µs`,
);
console.log(`  added by Redis: p50 ${us(shared.p50 - memory.p50)} µs; same nudges: ${same}`);
await link.close();
redis.stop();

// 2. A long conversation: each step one failing or succeeding call.
const long: unknown[] = [{ role: 'user', content: 'fix the build' }];
for (let i = 0; i < 200; i++) {
  long.push({
    role: 'assistant',
    content: null,
    tool_calls: [
      {
        id: `c${i}`,
        type: 'function',
        function: { name: i % 3 ? 'read_file' : 'run_shell', arguments: `{"n":${i % 7}}` },
      },
    ],
  });
  long.push({ role: 'tool', tool_call_id: `c${i}`, content: i % 4 ? `line ${i}` : `Error: ${i}` });
}
const rebuilds: number[] = [];
const steps: number[] = [];
for (let i = 0; i < 50; i++) {
  const sessions = new GuidanceSessions(section, new MemoryConversationStore());
  let started = performance.now();
  sessions.observe('long', long.slice(0, -2));
  rebuilds.push(performance.now() - started);
  started = performance.now();
  sessions.observe('long', long);
  steps.push(performance.now() - started);
}
rebuilds.sort((a, b) => a - b);
steps.sort((a, b) => a - b);
console.log(`a conversation of ${long.length} messages on an instance that has not served it:`);
console.log(`  engine rebuilt from the request: p50 ${us(percentile(rebuilds, 0.5))} µs`);
console.log(`  next step, incremental:          p50 ${us(percentile(steps, 0.5))} µs`);
