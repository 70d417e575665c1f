import { type ChildProcess, execFileSync, fork } from 'node:child_process';
import { availableParallelism } from 'node:os';
import { fileURLToPath } from 'node:url';
import { type Dispatcher, Pool } from 'undici';
import { summarise } from '../../src/core/benchmark.js';
import type { ChildUsage } from './child.js';
import { measureState, printState, type StateRow } from './state.js';
import {
  measureThroughput,
  printThroughput,
  type ThroughputPath,
  type ThroughputRow,
} from './throughput.js';

/**
 * `npm run bench:server [-- --json] [--seconds N] [--rounds N] [--rates 500,1000] [--no-pin]
 * [--workers 1,2] [--throughput-seconds 5] [--throughput-rounds 3] [--concurrency 64]
 * [--paths route,chat] [--no-wrk]
 * [--throughput-only] [--no-throughput] [--no-state] [--state-only] [--translation-only]`: the latency
 * triage adds over calling the upstream
 * directly, in one run against the same fake upstream on loopback; then the throughput at
 * saturation of `triage serve --workers N` for each N and path, and the ratio of N workers to
 * one (`throughput.ts`; `npm run bench:throughput` runs that part alone).
 *
 * Separate processes, as in production: the fake upstream (`upstream.ts`), the routing server
 * (logs on, to standard output), a bare Node proxy for scale (`bare-proxy.ts`: the cost of the hop
 * itself), and this load generator. Load is open-loop: requests are scheduled on a clock at a
 * fixed rate and sent whether or not earlier ones have answered, so a slow server is not hidden by
 * a client that waits for it. Each request's latency runs from its send to its last body byte.
 *
 * Each proxy is measured in phases of its own, `rounds` per rate, the proxies taking turns. In a
 * phase, direct requests go out alongside the proxy's, on the same clock and at the same rate: what the proxy adds is
 * its latency minus that of direct requests sent at the same moments, so a pause of the machine
 * falls on both sides of the difference. Then streaming: time to the first body byte (the first
 * event). Each row also gives the CPU time and the garbage-collection pauses of each proxy, and the
 * CPU time of the harness. Then shared state: limits and budgets with the state in memory
 * against the same with it in a Redis of the benchmark's own (`state.ts`). Then the web console: the default server (console on, no page open)
 * against one with the console off, their requests alternating on one clock.
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
  /** Measure latency (the paired phases); false with `--throughput-only`. */
  readonly latency: boolean;
  /** Only the translation phases (`--translation-only`): no other latency phase, no throughput. */
  readonly translationOnly: boolean;
  /** Worker counts measured at saturation (`--workers 1,2`); none with `--no-throughput`. */
  readonly workers: readonly number[];
  readonly throughputSeconds: number;
  /** Rounds of the throughput phase, the worker counts taking turns (`--throughput-rounds 3`). */
  readonly throughputRounds: number;
  readonly concurrency: number;
  /** Paths measured at saturation (`--paths route,chat`). */
  readonly paths: readonly ThroughputPath[];
  /** Load the throughput phase with wrk when installed; false with `--no-wrk`. */
  readonly wrk: boolean;
  /** Measure the shared-state phase; false with `--no-state`. */
  readonly state: boolean;
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
    latency: !argv.includes('--throughput-only') && !argv.includes('--state-only'),
    translationOnly: argv.includes('--translation-only'),
    workers: ['--no-throughput', '--state-only', '--translation-only'].some((flag) =>
      argv.includes(flag),
    )
      ? []
      : value('--workers', '1,2').split(',').map(Number),
    throughputSeconds: Number(value('--throughput-seconds', '5')),
    throughputRounds: Number(value('--throughput-rounds', '3')),
    concurrency: Number(value('--concurrency', '64')),
    paths: value('--paths', 'route,chat').split(',') as ThroughputPath[],
    wrk: !argv.includes('--no-wrk'),
    state: !['--no-state', '--throughput-only', '--translation-only'].some((flag) =>
      argv.includes(flag),
    ),
  };
}

/** A realistic request: a system prompt and a question of a few sentences. */
const SYSTEM_PROMPT =
  'You are a helpful assistant for an online shop. Answer briefly and politely. ' +
  'If you do not know, say so. Never invent order numbers.';
const QUESTION =
  'Hello! I ordered a blue jacket last week and it has not arrived yet. ' +
  'What is the usual delivery time to Lyon, and can I change the address?';

/** The realistic request as a chat client sends it. */
function requestBody(model: string, stream: boolean): string {
  return JSON.stringify({
    model,
    stream,
    messages: [
      { role: 'system', content: SYSTEM_PROMPT },
      { role: 'user', content: QUESTION },
    ],
    temperature: 0.2,
    max_tokens: 200,
  });
}

/** The same request as an Anthropic Messages client sends it (`POST /v1/messages`). */
function messagesBody(model: string): string {
  return JSON.stringify({
    model,
    stream: true,
    system: SYSTEM_PROMPT,
    messages: [{ role: 'user', content: QUESTION }],
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

/** One stream of requests in a phase: where it goes, what it sends, what it measured. */
interface Lane {
  readonly pool: Pool;
  readonly body: string;
  /** The endpoint (default `/v1/chat/completions`). */
  readonly path: string;
  readonly collector: Collector;
}

/**
 * Sends requests at `rate` per second on each of `targets` for `seconds`, on one clock, and
 * measures each one: to the last body byte, or (with `firstByte`) to the first. With several
 * targets their requests take turns on the clock, so that a pause of the machine falls on all of
 * them alike. Node's timers tick every millisecond: at 1,000 req/s each, two targets' requests go
 * out together, each pair led by the other target.
 */
function runPhase(
  targets: readonly { readonly pool: Pool; readonly body: string; readonly path?: string }[],
  rate: number,
  seconds: number,
  firstByte: boolean,
): Promise<Phase[]> {
  const perLane = Math.round(rate * seconds);
  const total = perLane * targets.length;
  const interval = 1000 / (rate * targets.length);
  const headers = { 'content-type': 'application/json' };
  let sent = 0;
  let finished = 0;
  let maxLateMs = 0;
  return new Promise((resolve) => {
    const done = () => {
      if (++finished === total) {
        resolve(
          lanes.map(({ collector }) => ({
            latencies: collector.latencies,
            errors: collector.errors,
            maxLateMs,
          })),
        );
      }
    };
    const lanes: Lane[] = targets.map(({ pool, body, path = '/v1/chat/completions' }) => ({
      pool,
      body,
      path,
      collector: { latencies: [], firstByte, errors: 0, done },
    }));
    const send = (lane: Lane) => {
      lane.pool.dispatch(
        { path: lane.path, method: 'POST', headers, body: lane.body },
        new TimedRequest(lane.collector),
      );
    };
    const clockStart = performance.now();
    const tick = () => {
      const now = performance.now();
      const due = Math.min(total, Math.floor((now - clockStart) / interval) + 1);
      if (due > sent) maxLateMs = Math.max(maxLateMs, now - clockStart - sent * interval);
      while (sent < due) {
        // Turn about, each turn starting with the next lane: when the clock sends several at once,
        // no lane is always first.
        const n = lanes.length;
        send(lanes[(sent + Math.floor(sent / n)) % n] as Lane);
        sent++;
      }
      if (sent < total) setTimeout(tick, Math.max(0, clockStart + sent * interval - now - 0.5));
    };
    tick();
  });
}

/** A proxy measured against the direct path. */
type ProxyName = 'triage' | 'bare';
const PROXIES: readonly ProxyName[] = ['triage', 'bare'];

interface Quantiles {
  readonly p50: number;
  readonly p99: number;
}

/** A proxy's latencies, those of the direct requests sent alongside its own, and the difference. */
interface Paired {
  /** The direct path, in the same phases as the proxy. */
  readonly direct: Quantiles;
  readonly proxy: Quantiles;
  /** proxy − direct: the latency the proxy adds. */
  readonly added: Quantiles;
  /** CPU microseconds per request of the proxy. */
  readonly cpuUs: number;
  /** The proxy's garbage-collection pauses during the phases: how many, longest, in all (ms). */
  readonly gc: { readonly pauses: number; readonly maxMs: number; readonly totalMs: number };
}

interface Row {
  readonly rate: number;
  readonly what: string;
  /** Requests measured per path and proxy. */
  readonly samples: number;
  readonly triage: Paired;
  /** The bare proxy: the hop's own cost, for scale. */
  readonly bare: Paired;
  /** CPU microseconds per request of the load generator and of the fake upstream (all paths). */
  readonly generatorCpuUs: number;
  readonly upstreamCpuUs: number;
  readonly errors: number;
  readonly maxLateMs: number;
}

interface Target {
  readonly pool: Pool;
  readonly body: string;
  /** What the process serving this path has used (nothing for direct: it is the upstream's). */
  readonly usage: () => Promise<ChildUsage>;
}

function percentiles(latencies: number[]): Quantiles {
  const s = summarise(
    'latency',
    Float64Array.from(latencies, (ms) => ms * 1e6),
  );
  return { p50: s.p50Ns / 1e6, p99: s.p99Ns / 1e6 };
}

/**
 * Each round runs one phase per proxy, in which that proxy's requests alternate with direct ones
 * at the same rate each: the direct figures a proxy is compared with were taken under the same
 * conditions, pauses of the machine included. The proxies never run at the same time: each has the
 * proxies' CPU to itself, as in production.
 */
async function measure(
  label: string,
  targets: Record<ProxyName | 'direct', Target>,
  rate: number,
  options: Options,
  firstByte: boolean,
  upstream: () => Promise<ChildUsage>,
): Promise<Row> {
  const latencies = {
    triage: { direct: [] as number[], proxy: [] as number[] },
    bare: { direct: [] as number[], proxy: [] as number[] },
  };
  const cpu: Record<ProxyName, number> = { triage: 0, bare: 0 };
  const gc: Record<ProxyName, number[]> = { triage: [], bare: [] };
  let errors = 0;
  let maxLateMs = 0;
  const phaseOf = (proxy: ProxyName, seconds: number) =>
    runPhase([targets.direct, targets[proxy]], rate, seconds, firstByte);
  // Warm-up: connections opened, code optimised, on every path.
  for (const proxy of PROXIES) await phaseOf(proxy, 1);
  const generatorBefore = process.cpuUsage();
  const upstreamBefore = (await upstream()).cpuUs;
  for (let round = 0; round < options.rounds; round++) {
    for (const proxy of PROXIES) {
      const before = (await targets[proxy].usage()).cpuUs;
      const [direct, proxied] = (await phaseOf(proxy, options.seconds)) as [Phase, Phase];
      const after = await targets[proxy].usage();
      cpu[proxy] += after.cpuUs - before;
      gc[proxy].push(...after.gcPausesMs);
      latencies[proxy].direct.push(...direct.latencies);
      latencies[proxy].proxy.push(...proxied.latencies);
      errors += direct.errors + proxied.errors;
      maxLateMs = Math.max(maxLateMs, direct.maxLateMs);
    }
  }
  const generator = process.cpuUsage(generatorBefore);
  const upstreamCpu = (await upstream()).cpuUs - upstreamBefore;
  const paired = (proxy: ProxyName): Paired => {
    const direct = percentiles(latencies[proxy].direct);
    const proxied = percentiles(latencies[proxy].proxy);
    return {
      direct,
      proxy: proxied,
      added: { p50: proxied.p50 - direct.p50, p99: proxied.p99 - direct.p99 },
      cpuUs: cpu[proxy] / Math.max(1, latencies[proxy].proxy.length),
      gc: {
        pauses: gc[proxy].length,
        maxMs: Math.max(0, ...gc[proxy]),
        totalMs: gc[proxy].reduce((sum, ms) => sum + ms, 0),
      },
    };
  };
  const requests = Math.max(
    1,
    PROXIES.reduce((n, p) => n + latencies[p].direct.length + latencies[p].proxy.length, 0),
  );
  return {
    rate,
    what: label,
    samples: latencies.triage.proxy.length,
    triage: paired('triage'),
    bare: paired('bare'),
    generatorCpuUs: (generator.user + generator.system) / requests,
    upstreamCpuUs: upstreamCpu / requests,
    errors,
    maxLateMs,
  };
}

/** Triage with the console on (no page open) against triage with it off. */
interface ConsoleRow {
  readonly rate: number;
  readonly samples: number;
  readonly on: Quantiles;
  readonly off: Quantiles;
  /** on − off: what the console's recorder adds to a proxied request. */
  readonly added: Quantiles;
  readonly errors: number;
}

/**
 * What the web console costs proxied requests when nobody has it open: the default server (the
 * console on, its recorder writing each request to its ring) against one with the console off,
 * their requests alternating on one clock, so that both see the same conditions.
 */
async function measureConsole(
  on: Target,
  off: Target,
  rate: number,
  options: Options,
): Promise<ConsoleRow> {
  await runPhase([on, off], rate, 1, false);
  const latencies = { on: [] as number[], off: [] as number[] };
  let errors = 0;
  for (let round = 0; round < options.rounds; round++) {
    const [a, b] = (await runPhase([on, off], rate, options.seconds, false)) as [Phase, Phase];
    latencies.on.push(...a.latencies);
    latencies.off.push(...b.latencies);
    errors += a.errors + b.errors;
  }
  const q = { on: percentiles(latencies.on), off: percentiles(latencies.off) };
  return {
    rate,
    samples: latencies.on.length,
    ...q,
    added: { p50: q.on.p50 - q.off.p50, p99: q.on.p99 - q.off.p99 },
    errors,
  };
}

function printConsole(row: ConsoleRow): void {
  const q = (x: Quantiles) => `p50 ${x.p50.toFixed(3)} ms p99 ${x.p99.toFixed(3)} ms`;
  process.stdout.write(
    `web console, no page open, at ${row.rate} req/s per server (n=${row.samples}, errors ${row.errors})\n` +
      `  console on  ${q(row.on)}   added ${q(row.added)}\n` +
      `  console off ${q(row.off)}   (sent alongside)\n`,
  );
}

function print(row: Row): void {
  const f = (ms: number) => `${ms.toFixed(3)} ms`;
  const q = (x: Quantiles) => `p50 ${f(x.p50)} p99 ${f(x.p99)}`;
  const pair = (name: string, p: Paired) =>
    `  ${name.padEnd(10)}  ${q(p.proxy)}   added ${q(p.added)}   CPU ${p.cpuUs.toFixed(0)} µs/request\n` +
    `    direct    ${q(p.direct)}   (sent alongside its requests)\n` +
    `    GC        ${p.gc.pauses} pauses, longest ${f(p.gc.maxMs)}, ${f(p.gc.totalMs)} in all\n`;
  process.stdout.write(
    `${row.what} at ${row.rate} req/s per path (n=${row.samples} per path, errors ${row.errors}, ` +
      `clock late ≤ ${row.maxLateMs.toFixed(1)} ms)\n` +
      pair('triage', row.triage) +
      pair('bare proxy', row.bare) +
      `  harness     CPU of the load generator ${row.generatorCpuUs.toFixed(0)} µs/request, ` +
      `of the fake upstream ${row.upstreamCpuUs.toFixed(0)} µs/request (same cores)\n`,
  );
}

/** What translating a streamed answer between wire formats adds. */
interface TranslationRow {
  /** Which client and which upstreams. */
  readonly what: string;
  readonly rate: number;
  readonly samples: number;
  /** Whole streams (to the last byte) from an upstream of the client's own format, passed through. */
  readonly passThrough: Quantiles;
  /** The same streams from an upstream of the other format, translated event by event. */
  readonly translated: Quantiles;
  readonly added: Quantiles;
  readonly errors: number;
}

/** A client of one wire format and its two upstream paths through triage. */
interface TranslationCase {
  readonly what: string;
  /** The endpoint the client calls. */
  readonly path: string;
  /** The request to an upstream of the client's format, and to one of the other format. */
  readonly passThrough: string;
  readonly translated: string;
}

/**
 * The translation phases. A chat client streaming from `small` (an OpenAI-compatible upstream,
 * passed through byte for byte, its usage asked for upstream and left out) and from
 * `claude-small` (the same fake upstream as an Anthropic one: the request translated to
 * Messages, the stream translated back to chat-completion chunks); then an Anthropic Messages
 * client the other way round. Both are configured model ids, so routing is the same; the fake
 * upstream answers the same text in both formats (the Anthropic stream has three more events,
 * and fewer bytes).
 */
const TRANSLATIONS: readonly TranslationCase[] = [
  {
    what: 'chat client, stream translated from Anthropic',
    path: '/v1/chat/completions',
    passThrough: requestBody('small', true),
    translated: requestBody('claude-small', true),
  },
  {
    what: 'messages client, stream translated from OpenAI',
    path: '/v1/messages',
    passThrough: messagesBody('claude-small'),
    translated: messagesBody('small'),
  },
];

/**
 * Streams through triage, in one phase on one clock: the case's pass-through and translated
 * requests taking turns, each measured to its last byte.
 */
async function measureTranslation(
  pool: Pool,
  options: Options,
  c: TranslationCase,
): Promise<TranslationRow> {
  const lanes = [
    { pool, body: c.passThrough, path: c.path },
    { pool, body: c.translated, path: c.path },
  ];
  await runPhase(lanes, options.streamRate, 1, false);
  const through: number[] = [];
  const translated: number[] = [];
  let errors = 0;
  for (let round = 0; round < options.rounds; round++) {
    const [a, b] = (await runPhase(lanes, options.streamRate, options.seconds, false)) as [
      Phase,
      Phase,
    ];
    through.push(...a.latencies);
    translated.push(...b.latencies);
    errors += a.errors + b.errors;
  }
  const passThrough = percentiles(through);
  const translatedQ = percentiles(translated);
  return {
    what: c.what,
    rate: options.streamRate,
    samples: translated.length,
    passThrough,
    translated: translatedQ,
    added: {
      p50: translatedQ.p50 - passThrough.p50,
      p99: translatedQ.p99 - passThrough.p99,
    },
    errors,
  };
}

function printTranslation(row: TranslationRow): void {
  const f = (ms: number) => `${ms.toFixed(3)} ms`;
  const q = (x: Quantiles) => `p50 ${f(x.p50)} p99 ${f(x.p99)}`;
  process.stdout.write(
    `${row.what} at ${row.rate} req/s per path (n=${row.samples} per path, ` +
      `errors ${row.errors}, to the last byte)\n` +
      `  pass-through ${q(row.passThrough)}\n` +
      `  translated   ${q(row.translated)}   added ${q(row.added)}\n`,
  );
}

/**
 * The CPUs of the machine, read before this process is pinned (afterwards it sees only its own),
 * so that a later phase can pin the processes it starts.
 */
const CPUS = availableParallelism();

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
  const cpus = CPUS;
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
  const noConsole = await start('./triage.ts', [
    String(upstream.port),
    options.logLevel,
    'console-off',
  ]);
  const layout = options.pin
    ? pinProcesses(
        [triage.child.pid ?? 0, bare.child.pid ?? 0, noConsole.child.pid ?? 0],
        [process.pid, upstream.child.pid ?? 0],
      )
    : 'not pinned (--no-pin)';
  if (!options.json) process.stdout.write(`${layout}\n`);
  const pool = (port: number) =>
    new Pool(`http://127.0.0.1:${port}`, { connections: 256, pipelining: 1 });
  const pools = {
    direct: pool(upstream.port),
    bare: pool(bare.port),
    triage: pool(triage.port),
    noConsole: pool(noConsole.port),
  };
  const usageOf = (child: ChildProcess) => () =>
    new Promise<ChildUsage>((resolve) => {
      child.once('message', (usage: ChildUsage) => resolve(usage));
      child.send({ type: 'usage' });
    });
  const none: ChildUsage = { cpuUs: 0, gcPausesMs: [] };
  const targetsFor = (stream: boolean): Record<ProxyName | 'direct', Target> => ({
    direct: { pool: pools.direct, body: requestBody('small', stream), usage: async () => none },
    bare: { pool: pools.bare, body: requestBody('auto', stream), usage: usageOf(bare.child) },
    triage: { pool: pools.triage, body: requestBody('auto', stream), usage: usageOf(triage.child) },
  });
  const fake = usageOf(upstream.child);
  const rows: Row[] = [];
  let consoleRow: ConsoleRow | undefined;
  let stateRow: StateRow | string | undefined;
  const translations: TranslationRow[] = [];
  let throughput: ThroughputRow[] = [];
  try {
    const others = options.latency && !options.translationOnly;
    for (const rate of others ? options.rates : []) {
      const row = await measure('chat completion', targetsFor(false), rate, options, false, fake);
      rows.push(row);
      if (!options.json) print(row);
    }
    if (others) {
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
      const off: Target = {
        pool: pools.noConsole,
        body: requestBody('auto', false),
        usage: usageOf(noConsole.child),
      };
      consoleRow = await measureConsole(targetsFor(false).triage, off, options.rates[0]!, options);
      if (!options.json) printConsole(consoleRow);
    }
    if (options.state) {
      stateRow = await measureState({
        upstreamPort: upstream.port,
        logLevel: options.logLevel,
        rate: options.rates.includes(1000) ? 1000 : options.rates[0]!,
        seconds: options.seconds,
        rounds: options.rounds,
        body: requestBody('auto', false),
        start,
        pin: (proxies, harness) =>
          options.pin ? pinProcesses(proxies, harness) : 'not pinned (--no-pin)',
        runPhase,
        usage: (child) => usageOf(child)(),
      });
      if (!options.json) printState(stateRow);
    }
    for (const c of options.latency ? TRANSLATIONS : []) {
      const translation = await measureTranslation(pools.triage, options, c);
      translations.push(translation);
      if (!options.json) printTranslation(translation);
    }
    if (options.workers.length > 0) {
      throughput = await measureThroughput(
        {
          upstreamPort: upstream.port,
          upstream: upstream.child,
          workers: options.workers,
          seconds: options.throughputSeconds,
          rounds: options.throughputRounds,
          concurrency: options.concurrency,
          logLevel: options.logLevel,
          pin: options.pin,
          paths: options.paths,
          wrk: options.wrk,
        },
        requestBody('auto', false),
        async () => (await fake()).cpuUs,
      );
      if (!options.json) printThroughput(throughput);
    }
  } finally {
    await Promise.all(Object.values(pools).map((p) => p.close()));
    for (const child of [triage.child, bare.child, noConsole.child, upstream.child]) {
      child.disconnect();
    }
  }
  if (options.json) {
    process.stdout.write(
      `${JSON.stringify({ layout, results: rows, state: stateRow, console: consoleRow, translations, throughput }, null, 2)}\n`,
    );
  }
}

await main();
