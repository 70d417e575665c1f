import { request } from 'undici';
import { createTriageServer } from '../../src/server/app.js';
import { parseServerConfig } from '../../src/server/config.js';
import { MemoryBreaker } from '../../src/state/memory-breaker.js';
import { byModel, startFakeLlm } from '../../src/testing/index.js';

/**
 * `npm exec -- node --import tsx bench/server/breaker.ts`: what the upstream circuit breakers
 * cost and save (docs/instances.md, "Upstream health").
 *
 * 1. The request path's cost of a closed breaker: one admission and one healthy report per
 *    attempt, in process (the Redis-backed breakers read and write the same local state on this
 *    path: a healthy answer of a quiet model writes nothing to Redis).
 * 2. A first model that hangs (its `timeoutMs` 300 ms) in front of a healthy one: 20 requests in
 *    a row through the server, breaker off, then on (defaults: open after 5 failures).
 */

const ROUNDS = 3;
const ATTEMPTS = 2_000_000;

const breaker = new MemoryBreaker();
const ids = ['fake/a', 'fake/b', 'fake/c', 'fake/d'];
for (let round = 0; round < ROUNDS; round++) {
  const started = performance.now();
  for (let i = 0; i < ATTEMPTS; i++) {
    const id = ids[i & 3] as string;
    breaker.admit(id, 1_000);
    breaker.report(id, 'pass', 'healthy');
  }
  const ns = ((performance.now() - started) * 1e6) / ATTEMPTS;
  console.log(`closed breaker, admission and report: ${ns.toFixed(1)} ns per attempt`);
}

const fake = await startFakeLlm();
fake.reply(byModel({ 'mid-a': { hang: true }, 'mid-b': 'ok' }));
for (const enabled of [false, true]) {
  fake.reset();
  fake.reply(byModel({ 'mid-a': { hang: true }, 'mid-b': 'ok' }));
  const config = parseServerConfig({
    providers: { fake: { baseUrl: fake.openAiBaseUrl, timeoutMs: 300 } },
    tiers: { MEDIUM: ['fake/mid-a', 'fake/mid-b'] },
    breaker: { enabled },
    server: { log: { level: 'warn' } },
  });
  const server = createTriageServer({ config, processMetrics: false });
  const url = await server.listen({ port: 0 });
  const body = JSON.stringify({ model: 'medium', messages: [{ role: 'user', content: 'Hi' }] });
  const started = performance.now();
  for (let i = 0; i < 20; i++) {
    const res = await request(`${url}/v1/chat/completions`, { method: 'POST', body });
    await res.body.dump();
  }
  const ms = performance.now() - started;
  const tried = fake.chatRequests.filter((r) => r.model === 'mid-a').length;
  console.log(
    `hanging first model, breaker ${enabled ? 'on' : 'off'}: 20 requests in ${ms.toFixed(0)} ms, ` +
      `${tried} of them sent to it`,
  );
  await server.close({ graceMs: 0 });
}
await fake.close();
