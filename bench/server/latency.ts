import { type ChildProcess, fork } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { Pool } from 'undici';
import { summarise } from '../../src/core/benchmark.js';

/**
 * `npm run bench:server [-- --json] [--seconds N] [--rounds N] [--rates 500,1000]`: the latency
 * triage adds over calling the upstream directly, in one run against the same fake upstream on
 * loopback.
 *
 * Three processes, as in production: the fake upstream, the routing server (logs on), and this
 * load generator. Load is open-loop: requests are scheduled on a clock at a fixed rate and sent
 * whether or not earlier ones have answered, so a slow server is not hidden by a client that
 * waits for it. Each request's latency runs from its send to its last body byte. Direct and
 * routed phases alternate, `rounds` times each per rate, so that noise from a shared machine
 * falls on both alike. Then streaming: time to the first body byte (the first event), direct vs
 * through triage.
 */

interface Options {
  readonly json: boolean;
  readonly seconds: number;
  readonly rounds: number;
  readonly rates: readonly number[];
  readonly streamRate: number;
  readonly logLevel: string;
}

function parseArgs(argv: readonly string[]): Options {
  const value = (name: string, fallback: string) => {
    const i = argv.indexOf(name);
    return i >= 0 && argv[i + 1] !== undefined ? (argv[i + 1] as string) : fallback;
  };
  return {
    json: argv.includes('--json'),
    seconds: Number(value('--seconds', '3')),
    rounds: Number(value('--rounds', '3')),
    rates: value('--rates', '500,1000').split(',').map(Number),
    streamRate: Number(value('--stream-rate', '200')),
    logLevel: value('--log-level', 'info'),
  };
}

/** A realistic request: a system prompt and a question of a few sentences. */
function requestBody(model: string, stream: boolean): string {
  return JSON.stringify({
    model,
    stream,
    messages: [
      {
        role: 'system',
        content:
          'You are a helpful assistant for an online shop. Answer briefly and politely. ' +
          'If you do not know, say so. Never invent order numbers.',
      },
      {
        role: 'user',
        content:
          '[SIMPLE] Hello! I ordered a blue jacket last week and it has not arrived yet. ' +
          'What is the usual delivery time to Lyon, and can I change the address?',
      },
    ],
    temperature: 0.2,
    max_tokens: 200,
  });
}

function start(file: string, args: string[]): Promise<{ child: ChildProcess; port: number }> {
  const child = fork(fileURLToPath(new URL(file, import.meta.url)), args, {
    stdio: ['ignore', 'ignore', 'inherit', 'ipc'],
  });
  return new Promise((resolve, reject) => {
    child.once('message', (message: { port: number }) => resolve({ child, port: message.port }));
    child.once('exit', (code) => reject(new Error(`${file} exited with code ${code}`)));
  });
}

/** What one timed phase measured: latencies (ms) and how late the clock sent requests. */
interface Phase {
  readonly latencies: number[];
  readonly errors: number;
  readonly maxLateMs: number;
}

/**
 * Sends requests at `rate` per second for `seconds`, on a clock, and measures each one: to the
 * last body byte, or (with `firstByte`) to the first.
 */
function runPhase(
  pool: Pool,
  body: string,
  rate: number,
  seconds: number,
  firstByte: boolean,
): Promise<Phase> {
  const total = Math.round(rate * seconds);
  const interval = 1000 / rate;
  const latencies: number[] = [];
  let errors = 0;
  let finished = 0;
  let sent = 0;
  let maxLateMs = 0;
  return new Promise((resolve) => {
    const done = () => {
      if (++finished === total) resolve({ latencies, errors, maxLateMs });
    };
    const send = () => {
      const started = performance.now();
      pool
        .request({
          path: '/v1/chat/completions',
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body,
        })
        .then(
          (res) =>
            new Promise<void>((ended) => {
              let first = true;
              res.body.on('data', () => {
                if (first && firstByte) latencies.push(performance.now() - started);
                first = false;
              });
              res.body.on('end', () => {
                if (res.statusCode !== 200) errors++;
                else if (!firstByte) latencies.push(performance.now() - started);
                ended();
              });
              res.body.on('error', () => {
                errors++;
                ended();
              });
            }),
          () => {
            errors++;
          },
        )
        .finally(done);
    };
    const clockStart = performance.now();
    const tick = () => {
      const now = performance.now();
      const due = Math.min(total, Math.floor((now - clockStart) / interval) + 1);
      if (due > sent) maxLateMs = Math.max(maxLateMs, now - clockStart - sent * interval);
      while (sent < due) {
        send();
        sent++;
      }
      if (sent < total) setTimeout(tick, Math.max(0, clockStart + sent * interval - now - 0.5));
    };
    tick();
  });
}

interface Row {
  readonly rate: number;
  readonly what: string;
  readonly samples: number;
  readonly direct: { readonly p50: number; readonly p99: number };
  readonly triage: { readonly p50: number; readonly p99: number };
  readonly added: { readonly p50: number; readonly p99: number };
  readonly errors: number;
  readonly maxLateMs: number;
}

function percentiles(latencies: number[]): { p50: number; p99: number } {
  const s = summarise(
    'latency',
    Float64Array.from(latencies, (ms) => ms * 1e6),
  );
  return { p50: s.p50Ns / 1e6, p99: s.p99Ns / 1e6 };
}

async function measure(
  label: string,
  pools: { direct: Pool; triage: Pool },
  bodies: { direct: string; triage: string },
  rate: number,
  options: Options,
  firstByte: boolean,
  reset: () => void,
): Promise<Row> {
  const all = { direct: [] as number[], triage: [] as number[] };
  let errors = 0;
  let maxLateMs = 0;
  // Warm-up: connections opened, code optimised, on both paths.
  for (const path of ['direct', 'triage'] as const) {
    await runPhase(pools[path], bodies[path], rate, 1, firstByte);
  }
  for (let round = 0; round < options.rounds; round++) {
    for (const path of ['direct', 'triage'] as const) {
      reset();
      const phase = await runPhase(pools[path], bodies[path], rate, options.seconds, firstByte);
      all[path].push(...phase.latencies);
      errors += phase.errors;
      maxLateMs = Math.max(maxLateMs, phase.maxLateMs);
    }
  }
  const direct = percentiles(all.direct);
  const triage = percentiles(all.triage);
  return {
    rate,
    what: label,
    samples: all.triage.length,
    direct,
    triage,
    added: { p50: triage.p50 - direct.p50, p99: triage.p99 - direct.p99 },
    errors,
    maxLateMs,
  };
}

function print(row: Row): void {
  const f = (ms: number) => `${ms.toFixed(3)} ms`;
  process.stdout.write(
    `${row.what.padEnd(22)} ${String(row.rate).padStart(5)} req/s  ` +
      `direct p50 ${f(row.direct.p50)} p99 ${f(row.direct.p99)}  ` +
      `triage p50 ${f(row.triage.p50)} p99 ${f(row.triage.p99)}  ` +
      `added p50 ${f(row.added.p50)} p99 ${f(row.added.p99)}  ` +
      `(n=${row.samples} per path, errors ${row.errors}, clock late ≤ ${row.maxLateMs.toFixed(1)} ms)\n`,
  );
}

async function main(): Promise<void> {
  const options = parseArgs(process.argv.slice(2));
  const upstream = await start('./upstream.ts', []);
  const triage = await start('./triage.ts', [String(upstream.port), options.logLevel]);
  const pool = (port: number) =>
    new Pool(`http://127.0.0.1:${port}`, { connections: 256, pipelining: 1 });
  const pools = { direct: pool(upstream.port), triage: pool(triage.port) };
  const reset = () => upstream.child.send({ type: 'reset' });
  const rows: Row[] = [];
  try {
    for (const rate of options.rates) {
      const row = await measure(
        'chat completion',
        pools,
        { direct: requestBody('small', false), triage: requestBody('auto', false) },
        rate,
        options,
        false,
        reset,
      );
      rows.push(row);
      if (!options.json) print(row);
    }
    const ttfb = await measure(
      'stream first byte',
      pools,
      { direct: requestBody('small', true), triage: requestBody('auto', true) },
      options.streamRate,
      options,
      true,
      reset,
    );
    rows.push(ttfb);
    if (!options.json) print(ttfb);
  } finally {
    await Promise.all([pools.direct.close(), pools.triage.close()]);
    triage.child.disconnect();
    upstream.child.disconnect();
  }
  if (options.json) process.stdout.write(`${JSON.stringify({ results: rows }, null, 2)}\n`);
}

await main();
