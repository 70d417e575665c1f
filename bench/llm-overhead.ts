import { Pool } from 'undici';
import { askLabel, createProvider, LlmTimeoutError } from '../src/llm/index.js';
import { startFakeLlm } from '../src/testing/index.js';

/**
 * `node --import tsx bench/llm-overhead.ts [--json]`: what the LLM layer costs on top of the HTTP
 * call itself, and how closely it keeps its deadlines.
 *
 * 1. Overhead: the same chat completion against the fake server (127.0.0.1), as a bare undici
 *    request (keep-alive Pool, JSON body, read and parse the reply) and through the layer
 *    (`createProvider` → concurrency limit → deadline → retries → adapter → parse), alternated
 *    call by call so that drift hits both alike; plus `askLabel` and a cache hit.
 * 2. Cut-off accuracy: calls to a server that never answers, with a 25 ms timeout; the overshoot
 *    is the time from the deadline to the moment the caller has its LlmTimeoutError.
 */
const CALLS = 3000;
const WARMUP = 300;
const TIMEOUT_CALLS = 300;
const TIMEOUT_MS = 25;

async function main(): Promise<void> {
  const json = process.argv.includes('--json');
  const fake = await startFakeLlm({ reply: 'COMPLEX' });
  const config = {
    id: 'bench',
    kind: 'openai',
    baseUrl: fake.openAiBaseUrl,
    model: 'fake-model',
    timeoutMs: 2000,
  } as const;
  const provider = createProvider(config);
  const cached = createProvider({ ...config, id: 'bench-cached', cache: {} });
  const pool = new Pool(fake.url, { keepAliveTimeout: 30_000 });
  const request = {
    system: 'Classify the prompt into SIMPLE, MEDIUM, COMPLEX or REASONING. Answer with one word.',
    messages: [{ role: 'user' as const, content: 'Explain how a B-tree stays balanced.' }],
    maxTokens: 5,
    temperature: 0,
  };
  const bare = async () => {
    const body = JSON.stringify({
      model: 'fake-model',
      messages: [{ role: 'system', content: request.system }, ...request.messages],
      max_tokens: 5,
      temperature: 0,
      stream: false,
    });
    const res = await pool.request({
      path: '/v1/chat/completions',
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body,
    });
    const reply = JSON.parse(await res.body.text()) as {
      choices: { message: { content: string } }[];
    };
    return reply.choices[0]?.message.content;
  };
  const layered = () => provider.complete(request);
  const label = () =>
    askLabel(provider, {
      system: request.system,
      prompt: 'Explain how a B-tree stays balanced.',
      labels: ['SIMPLE', 'MEDIUM', 'COMPLEX', 'REASONING'],
      maxTokens: 5,
    });
  const hit = () => cached.complete(request);

  const runs: Record<string, number[]> = { bare: [], layer: [], askLabel: [], cacheHit: [] };
  const fns: Record<string, () => Promise<unknown>> = {
    bare,
    layer: layered,
    askLabel: label,
    cacheHit: hit,
  };
  for (let i = 0; i < WARMUP + CALLS; i++) {
    for (const [name, fn] of Object.entries(fns)) {
      const started = performance.now();
      await fn();
      if (i >= WARMUP) runs[name]?.push((performance.now() - started) * 1000);
    }
  }
  fake.reset().reply({ hang: true });
  const overshoot: number[] = [];
  for (let i = 0; i < TIMEOUT_CALLS; i++) {
    const started = performance.now();
    try {
      await provider.complete({ ...request, timeoutMs: TIMEOUT_MS });
      throw new Error('a hung server answered');
    } catch (error) {
      if (!(error instanceof LlmTimeoutError)) throw error;
      overshoot.push(performance.now() - started - TIMEOUT_MS);
    }
  }
  await Promise.all([provider.close(), cached.close(), pool.close()]);
  await fake.close();

  const summary = {
    calls: CALLS,
    us: Object.fromEntries(Object.entries(runs).map(([name, times]) => [name, stats(times)])),
    overheadUs: {
      mean: round(mean(runs.layer ?? []) - mean(runs.bare ?? [])),
      p50: round(quantile(runs.layer ?? [], 0.5) - quantile(runs.bare ?? [], 0.5)),
    },
    timeout: { calls: TIMEOUT_CALLS, timeoutMs: TIMEOUT_MS, overshootMs: stats(overshoot) },
  };
  if (json) {
    process.stdout.write(`${JSON.stringify(summary, null, 2)}\n`);
    return;
  }
  for (const [name, s] of Object.entries(summary.us)) {
    process.stdout.write(
      `${name.padEnd(10)} mean ${s.mean} µs  p50 ${s.p50} µs  p99 ${s.p99} µs  max ${s.max} µs\n`,
    );
  }
  process.stdout.write(
    `overhead   mean ${summary.overheadUs.mean} µs  p50 ${summary.overheadUs.p50} µs per call (layer - bare)\n`,
  );
  const o = summary.timeout.overshootMs;
  process.stdout.write(
    `timeout    ${TIMEOUT_CALLS} calls at ${TIMEOUT_MS} ms: overshoot mean ${o.mean} ms  p50 ${o.p50} ms  p99 ${o.p99} ms  max ${o.max} ms\n`,
  );
}

function stats(values: number[]) {
  return {
    mean: round(mean(values)),
    p50: round(quantile(values, 0.5)),
    p99: round(quantile(values, 0.99)),
    max: round(Math.max(...values)),
  };
}

function mean(values: number[]): number {
  return values.reduce((sum, v) => sum + v, 0) / values.length;
}

function quantile(values: number[], q: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? Number.NaN;
}

function round(value: number): number {
  return Math.round(value * 1000) / 1000;
}

await main();
