import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { cpus as cpuList, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { type Dispatcher, Pool } from 'undici';

/**
 * Throughput at saturation of `triage serve --workers N`, for the N asked: the command as a user
 * starts it (the CLI, the cluster primary and its workers, logs on), in front of the benchmark's
 * fake upstream, under a closed loop of `concurrency` requests always in flight on as many
 * keep-alive connections (each answer sends the next request at once). Counted: answers per
 * second, and the CPU time per answer of triage's processes (the primary and every worker, read
 * from /proc) and of the harness (this generator and the fake upstream).
 *
 * On a machine with as many cores as workers, the generator and the upstream compete with the
 * workers for them: the measured ratio between N workers and one then understates what N
 * workers do on cores of their own. So each row also gives the capacity the CPU figures imply:
 * N workers, each with a core, at the CPU time per answer measured (a worker's answers cost
 * about the same CPU whether one or two run; what the ratio hides is the harness's share).
 */

/** One worker count's figures. */
export interface ThroughputRow {
  readonly workers: number;
  /** Answers per second, measured. */
  readonly perSecond: number;
  readonly errors: number;
  /** CPU microseconds per answer: triage's processes together, and the harness's. */
  readonly triageCpuUs: number;
  readonly harnessCpuUs: number;
  /** Answers per second N workers would give with a core each, at `triageCpuUs`. */
  readonly capacity: number;
  /** How the processes were placed on the CPUs. */
  readonly layout: string;
}

export interface ThroughputOptions {
  readonly upstreamPort: number;
  /** The fake upstream's process: its CPU time is the harness's. */
  readonly upstream: ChildProcess;
  readonly workers: readonly number[];
  readonly seconds: number;
  readonly concurrency: number;
  readonly logLevel: string;
  readonly pin: boolean;
}

const MAIN = fileURLToPath(new URL('../../src/cli/main.ts', import.meta.url));

/** Starts `triage serve --workers N`; resolves with the child and its URL once it listens. */
function startTriage(
  config: string,
  workers: number,
): Promise<{ child: ChildProcess; url: string }> {
  const child = spawn(
    process.execPath,
    [
      '--import',
      'tsx',
      MAIN,
      'serve',
      '--config',
      config,
      '--port',
      '0',
      '--workers',
      String(workers),
    ],
    { stdio: ['ignore', 'ignore', 'pipe'] },
  );
  return new Promise((resolve, reject) => {
    let err = '';
    child.stderr?.on('data', (chunk: Buffer) => {
      err += chunk.toString();
      const url = /triage listening on (http:\/\/\S+)/.exec(err)?.[1];
      if (url) resolve({ child, url });
    });
    child.once('exit', (code) => reject(new Error(`triage serve exited with ${code}: ${err}`)));
  });
}

/** A process and its children (the cluster's workers), by pid. */
function processTree(pid: number): number[] {
  const children = (() => {
    try {
      return execFileSync('pgrep', ['-P', String(pid)], { encoding: 'utf8' })
        .split('\n')
        .filter(Boolean)
        .map(Number);
    } catch {
      return [];
    }
  })();
  return [pid, ...children.flatMap(processTree)];
}

/** CPU microseconds used so far by the processes `pids` (user and system, from /proc). */
function cpuUsOf(pids: readonly number[]): number {
  const tick = 1e6 / 100; // USER_HZ is 100 on Linux
  let total = 0;
  for (const pid of pids) {
    try {
      const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]?.split(' ') ?? [];
      total += (Number(fields[11]) + Number(fields[12])) * tick;
    } catch {
      // gone: its time is lost, the figure is a floor
    }
  }
  return total;
}

function pin(pids: readonly number[], cpus: string): boolean {
  try {
    for (const pid of pids)
      execFileSync('taskset', ['-a', '-p', '-c', cpus, String(pid)], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

/**
 * Places the processes: with fewer workers than CPUs, triage gets the last ones and the harness
 * the rest; with as many workers as CPUs (or more) nothing can be kept apart, and the layout
 * says so.
 */
function place(
  triage: readonly number[],
  harness: readonly number[],
  workers: number,
  enabled: boolean,
): string {
  // Every CPU of the machine: this process's own affinity may have been narrowed already.
  const cpus = cpuList().length;
  if (!enabled) {
    pin([...triage, ...harness], `0-${cpus - 1}`);
    return 'not pinned (--no-pin)';
  }
  if (workers >= cpus) {
    // Undo any earlier pinning of the harness: everything shares every CPU.
    pin([...triage, ...harness], `0-${cpus - 1}`);
    return `not pinned: ${workers} workers on ${cpus} CPUs share them with the load generator and the upstream`;
  }
  const first = cpus - workers;
  const mine = first === cpus - 1 ? String(first) : `${first}-${cpus - 1}`;
  const rest = first === 1 ? '0' : `0-${first - 1}`;
  return pin(triage, mine) && pin(harness, rest)
    ? `triage pinned to CPU ${mine}, load generator and fake upstream to CPU ${rest}`
    : 'not pinned (taskset failed or is missing)';
}

/** Runs a closed loop on `pool` for `seconds`: each answer sends the next request. */
function closedLoop(
  pool: Pool,
  body: string,
  concurrency: number,
  seconds: number,
): Promise<{ answers: number; errors: number }> {
  const headers = { 'content-type': 'application/json' };
  const until = performance.now() + seconds * 1000;
  let answers = 0;
  let errors = 0;
  let running = concurrency;
  return new Promise((resolve) => {
    const next = () => {
      if (performance.now() >= until) {
        if (--running === 0) resolve({ answers, errors });
        return;
      }
      let status = 0;
      const handler: Dispatcher.DispatchHandler = {
        onRequestStart() {},
        onResponseStart(_controller, code) {
          status = code;
        },
        onResponseData() {},
        onResponseEnd() {
          if (status === 200) answers++;
          else errors++;
          next();
        },
        onResponseError() {
          errors++;
          next();
        },
      };
      pool.dispatch({ path: '/v1/chat/completions', method: 'POST', headers, body }, handler);
    };
    for (let i = 0; i < concurrency; i++) next();
  });
}

/** Measures each worker count in turn. */
export async function measureThroughput(
  options: ThroughputOptions,
  body: string,
  upstreamCpuUs: () => Promise<number>,
): Promise<ThroughputRow[]> {
  const dir = mkdtempSync(join(tmpdir(), 'triage-bench-'));
  const config = join(dir, 'triage.json');
  writeFileSync(
    config,
    JSON.stringify({
      server: { log: { level: options.logLevel } },
      providers: { fake: { baseUrl: `http://127.0.0.1:${options.upstreamPort}/v1` } },
      tiers: {
        SIMPLE: ['fake/small'],
        MEDIUM: ['fake/mid'],
        COMPLEX: ['fake/large'],
        REASONING: ['fake/thinker'],
      },
    }),
  );
  const rows: ThroughputRow[] = [];
  for (const workers of options.workers) {
    const { child, url } = await startTriage(config, workers);
    const pool = new Pool(url, { connections: options.concurrency, pipelining: 1 });
    try {
      const triage = processTree(child.pid ?? 0);
      const layout = place(triage, [process.pid, options.upstream.pid ?? 0], workers, options.pin);
      await closedLoop(pool, body, options.concurrency, 2); // warm-up
      const triageBefore = cpuUsOf(triage);
      const upstreamBefore = await upstreamCpuUs();
      const generatorBefore = process.cpuUsage();
      const started = performance.now();
      const { answers, errors } = await closedLoop(
        pool,
        body,
        options.concurrency,
        options.seconds,
      );
      const elapsed = (performance.now() - started) / 1000;
      const generator = process.cpuUsage(generatorBefore);
      const harnessUs =
        generator.user + generator.system + (await upstreamCpuUs()) - upstreamBefore;
      const triageCpuUs = (cpuUsOf(triage) - triageBefore) / Math.max(1, answers);
      rows.push({
        workers,
        perSecond: answers / elapsed,
        errors,
        triageCpuUs,
        harnessCpuUs: harnessUs / Math.max(1, answers),
        capacity: (workers * 1e6) / Math.max(1, triageCpuUs),
        layout,
      });
    } finally {
      await pool.close();
      const ended = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGTERM');
      await ended;
    }
  }
  return rows;
}

export function printThroughput(rows: readonly ThroughputRow[]): void {
  const base = rows[0];
  for (const row of rows) {
    const ratio =
      base && row !== base
        ? ` (${(row.perSecond / base.perSecond).toFixed(2)}× ${base.workers})`
        : '';
    process.stdout.write(
      `throughput at saturation, ${row.workers} worker${row.workers > 1 ? 's' : ''}: ` +
        `${row.perSecond.toFixed(0)} answers/s${ratio}, errors ${row.errors}\n` +
        `  CPU per answer: triage ${row.triageCpuUs.toFixed(0)} µs (all its processes), ` +
        `harness ${row.harnessCpuUs.toFixed(0)} µs; with a core per worker: ` +
        `${row.capacity.toFixed(0)} answers/s\n` +
        `  ${row.layout}\n`,
    );
  }
}
