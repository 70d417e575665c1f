import { type ChildProcess, execFileSync, fork } from 'node:child_process';
import { availableParallelism } from 'node:os';
import { fileURLToPath } from 'node:url';
import { type Dispatcher, Pool } from 'undici';
import { summarise } from '../../src/core/benchmark.js';

/**
 * `npm run bench:server [-- --json] [--seconds N] [--rounds N] [--rates 500,1000] [--no-pin]`:
 * the latency triage adds over calling the upstream directly, in one run against the same fake
 * upstream on loopback.
 *
 * Separate processes, as in production: the fake upstream, the routing server (logs on, to
 * standard output), a bare Node proxy for scale (`bare-proxy.ts`: the cost of the hop itself), and
 * this load generator. Load is open-loop: requests are scheduled on a clock at a fixed rate and
 * sent whether or not earlier ones have answered, so a slow server is not hidden by a client that
 * waits for it. Each request's latency runs from its send to its last body byte. The paths
 * alternate, `rounds` phases each per rate, so that noise from a shared machine falls on all
 * alike. Then streaming: time to the first body byte (the first event). Each row also gives the
 * CPU time the routing server and the bare proxy spent per request, and that of the harness.
 *
 * In production the proxy has its cores to itself; here the load generator and the upstream run
 * on the same machine. Unless `--no-pin`, the proxies (triage, the bare proxy) are pinned to the
 * last CPU and the harness (this generator, the fake upstream) to the others, with `taskset`, so
 * that the figures measure the hop rather than the scheduler sharing a core between the hop and
 * its own load generator. Both paths are measured under the same layout; `--no-pin` shows the
 * unpinned figures.
 */

interface Options {
  readonly json: boolean;
  readonly seconds: number;
  readonly rounds: number;
  readonly rates: readonly number[];
  readonly streamRate: number;
  readonly logLevel: string;
  readonly pin: boolean;
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
    pin: !argv.includes('--no-pin'),
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
          'Hello! I ordered a blue jacket last week and it has not arrived yet. ' +
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

/** What one timed phase is collecting. */
interface Collector {
  readonly latencies: number[];
  readonly firstByte: boolean;
  errors: number;
  done(): void;
}

/**
 * One request of the load, timed from its send to its last body byte (or, with `firstByte`, its
 * first). An undici dispatch handler rather than `request()`: the load generator shares the two
 * cores with the servers it measures, and its own cost per request (a third less this way) is
 * noise in theirs.
 */
class TimedRequest implements Dispatcher.DispatchHandler {
  readonly #started = performance.now();
  #status = 0;
  #first = true;

  constructor(readonly collector: Collector) {}

  /** Marks this as a handler of undici's current dispatch API (it has nothing to do here). */
  onRequestStart(): void {}

  onResponseStart(_controller: Dispatcher.DispatchController, status: number): void {
    this.#status = status;
  }

  onResponseData(): void {
    if (this.#first && this.collector.firstByte) {
      this.collector.latencies.push(performance.now() - this.#started);
    }
    this.#first = false;
  }

  onResponseEnd(): void {
    const { collector } = this;
    if (this.#status !== 200) collector.errors++;
    else if (!collector.firstByte) collector.latencies.push(performance.now() - this.#started);
    collector.done();
  }

  onResponseError(): void {
    this.collector.errors++;
    this.collector.done();
  }
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
  const headers = { 'content-type': 'application/json' };
  let sent = 0;
  let maxLateMs = 0;
  return new Promise((resolve) => {
    let finished = 0;
    const collector: Collector = {
      latencies: [],
      firstByte,
      errors: 0,
      done() {
        if (++finished === total) {
          resolve({ latencies: collector.latencies, errors: collector.errors, maxLateMs });
        }
      },
    };
    const send = () => {
      pool.dispatch(
        { path: '/v1/chat/completions', method: 'POST', headers, body },
        new TimedRequest(collector),
      );
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

type PathName = 'direct' | 'bare' | 'triage';
const PATHS: readonly PathName[] = ['direct', 'bare', 'triage'];

interface Quantiles {
  readonly p50: number;
  readonly p99: number;
}

interface Row {
  readonly rate: number;
  readonly what: string;
  readonly samples: number;
  readonly direct: Quantiles;
  readonly triage: Quantiles;
  /** triage − direct: the latency triage adds. */
  readonly added: Quantiles;
  /** The bare proxy, and what it adds over direct (the hop's own cost, for scale). */
  readonly bare: Quantiles;
  readonly bareAdded: Quantiles;
  /** CPU microseconds per request of the routing server and of the bare proxy. */
  readonly triageCpuUs: number;
  readonly bareCpuUs: number;
  /** CPU microseconds per request of the load generator and of the fake upstream (all paths). */
  readonly generatorCpuUs: number;
  readonly upstreamCpuUs: number;
  readonly errors: number;
  readonly maxLateMs: number;
}

interface Target {
  readonly pool: Pool;
  readonly body: string;
  /** CPU microseconds used so far by the process serving this path (0 for direct). */
  readonly cpu: () => Promise<number>;
}

function percentiles(latencies: number[]): Quantiles {
  const s = summarise(
    'latency',
    Float64Array.from(latencies, (ms) => ms * 1e6),
  );
  return { p50: s.p50Ns / 1e6, p99: s.p99Ns / 1e6 };
}

async function measure(
  label: string,
  targets: Record<PathName, Target>,
  rate: number,
  options: Options,
  firstByte: boolean,
  upstream: { reset(): void; cpu(): Promise<number> },
): Promise<Row> {
  const all: Record<PathName, number[]> = { direct: [], bare: [], triage: [] };
  const cpu: Record<PathName, number> = { direct: 0, bare: 0, triage: 0 };
  let errors = 0;
  let maxLateMs = 0;
  // Warm-up: connections opened, code optimised, on every path.
  for (const path of PATHS) {
    await runPhase(targets[path].pool, targets[path].body, rate, 1, firstByte);
  }
  const generatorBefore = process.cpuUsage();
  const upstreamBefore = await upstream.cpu();
  for (let round = 0; round < options.rounds; round++) {
    for (const path of PATHS) {
      upstream.reset();
      const target = targets[path];
      const before = await target.cpu();
      const phase = await runPhase(target.pool, target.body, rate, options.seconds, firstByte);
      cpu[path] += (await target.cpu()) - before;
      all[path].push(...phase.latencies);
      errors += phase.errors;
      maxLateMs = Math.max(maxLateMs, phase.maxLateMs);
    }
  }
  const generator = process.cpuUsage(generatorBefore);
  const upstreamCpu = (await upstream.cpu()) - upstreamBefore;
  const requests = Math.max(1, all.direct.length + all.bare.length + all.triage.length);
  const direct = percentiles(all.direct);
  const triage = percentiles(all.triage);
  const bare = percentiles(all.bare);
  const minus = (a: Quantiles, b: Quantiles) => ({ p50: a.p50 - b.p50, p99: a.p99 - b.p99 });
  return {
    rate,
    what: label,
    samples: all.triage.length,
    direct,
    triage,
    added: minus(triage, direct),
    bare,
    bareAdded: minus(bare, direct),
    triageCpuUs: cpu.triage / Math.max(1, all.triage.length),
    bareCpuUs: cpu.bare / Math.max(1, all.bare.length),
    generatorCpuUs: (generator.user + generator.system) / requests,
    upstreamCpuUs: upstreamCpu / requests,
    errors,
    maxLateMs,
  };
}

function print(row: Row): void {
  const f = (ms: number) => `${ms.toFixed(3)} ms`;
  const q = (x: Quantiles) => `p50 ${f(x.p50)} p99 ${f(x.p99)}`;
  process.stdout.write(
    `${row.what} at ${row.rate} req/s (n=${row.samples} per path, errors ${row.errors}, ` +
      `clock late ≤ ${row.maxLateMs.toFixed(1)} ms)\n` +
      `  direct      ${q(row.direct)}\n` +
      `  triage      ${q(row.triage)}   added ${q(row.added)}   CPU ${row.triageCpuUs.toFixed(0)} µs/request\n` +
      `  bare proxy  ${q(row.bare)}   added ${q(row.bareAdded)}   CPU ${row.bareCpuUs.toFixed(0)} µs/request\n` +
      `  harness     CPU of the load generator ${row.generatorCpuUs.toFixed(0)} µs/request, ` +
      `of the fake upstream ${row.upstreamCpuUs.toFixed(0)} µs/request (same cores)\n`,
  );
}

/** Pins process `pid` (every thread) to `cpus` (a taskset list); false when that fails. */
function pin(pid: number, cpus: string): boolean {
  try {
    execFileSync('taskset', ['-a', '-p', '-c', cpus, String(pid)], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

/**
 * Gives the proxies the last CPU and the harness the others; says what it did, or why not.
 */
function pinProcesses(proxies: readonly number[], harness: readonly number[]): string {
  const cpus = availableParallelism();
  if (cpus < 2) return 'not pinned (one CPU)';
  const last = String(cpus - 1);
  const rest = cpus === 2 ? '0' : `0-${cpus - 2}`;
  const ok = proxies.every((pid) => pin(pid, last)) && harness.every((pid) => pin(pid, rest));
  return ok
    ? `proxies pinned to CPU ${last}, load generator and fake upstream to CPU ${rest}`
    : 'not pinned (taskset failed or is missing)';
}

async function main(): Promise<void> {
  const options = parseArgs(process.argv.slice(2));
  const upstream = await start('./upstream.ts', []);
  const triage = await start('./triage.ts', [String(upstream.port), options.logLevel]);
  const bare = await start('./bare-proxy.ts', [String(upstream.port)]);
  const layout = options.pin
    ? pinProcesses(
        [triage.child.pid ?? 0, bare.child.pid ?? 0],
        [process.pid, upstream.child.pid ?? 0],
      )
    : 'not pinned (--no-pin)';
  if (!options.json) process.stdout.write(`${layout}\n`);
  const pool = (port: number) =>
    new Pool(`http://127.0.0.1:${port}`, { connections: 256, pipelining: 1 });
  const pools = { direct: pool(upstream.port), bare: pool(bare.port), triage: pool(triage.port) };
  const cpuOf = (child: ChildProcess) => () =>
    new Promise<number>((resolve) => {
      child.once('message', (message: { cpu: NodeJS.CpuUsage }) =>
        resolve(message.cpu.user + message.cpu.system),
      );
      child.send({ type: 'cpu' });
    });
  const targetsFor = (stream: boolean): Record<PathName, Target> => ({
    direct: { pool: pools.direct, body: requestBody('small', stream), cpu: async () => 0 },
    bare: { pool: pools.bare, body: requestBody('auto', stream), cpu: cpuOf(bare.child) },
    triage: { pool: pools.triage, body: requestBody('auto', stream), cpu: cpuOf(triage.child) },
  });
  const fake = {
    reset: () => upstream.child.send({ type: 'reset' }),
    cpu: cpuOf(upstream.child),
  };
  const rows: Row[] = [];
  try {
    for (const rate of options.rates) {
      const row = await measure('chat completion', targetsFor(false), rate, options, false, fake);
      rows.push(row);
      if (!options.json) print(row);
    }
    const ttfb = await measure(
      'stream first byte',
      targetsFor(true),
      options.streamRate,
      options,
      true,
      fake,
    );
    rows.push(ttfb);
    if (!options.json) print(ttfb);
  } finally {
    await Promise.all(Object.values(pools).map((p) => p.close()));
    for (const child of [triage.child, bare.child, upstream.child]) child.disconnect();
  }
  if (options.json) {
    process.stdout.write(`${JSON.stringify({ layout, results: rows }, null, 2)}\n`);
  }
}

await main();
