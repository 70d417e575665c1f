import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { cpus as cpuList, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { type Dispatcher, Pool } from 'undici';
import { hasWrk, runWrk } from './wrk.js';

/**
 * Throughput at saturation of `triage serve --workers N`, for the N asked: the command as a user
 * starts it (the CLI, the cluster primary and its workers, logs on), under a closed loop of
 * `concurrency` requests always in flight on as many keep-alive connections (each answer sends
 * the next request at once), on two paths: `POST /v1/route` (the decision alone: no upstream, so
 * only the load generator shares the machine with triage) and `POST /v1/chat/completions`
 * (proxied to the benchmark's fake upstream). Counted: answers per second, and the CPU time per
 * answer of triage's processes (the primary and every worker, read from /proc) and of the
 * harness (the load generator and, for chat, the fake upstream).
 *
 * The load generator is `wrk` when it is installed (a C client: a few microseconds of CPU per
 * request), else this process's Node closed loop (tens of microseconds: on a small machine it
 * takes a good part of a core from the server it loads). See wrk.ts.
 *
 * On a machine with as many cores as workers, the generator and the upstream compete with the
 * workers for them: the measured ratio between N workers and one then understates what N
 * workers do on cores of their own. So each row also gives the capacity the CPU figures imply:
 * N workers, each with a core, at the CPU time per answer measured (a worker's answers cost
 * about the same CPU whether one or two run; what the ratio hides is the harness's share).
 */

/** The paths measured. */
export type ThroughputPath = 'route' | 'chat';

const PATHS: Readonly<Record<ThroughputPath, string>> = {
  route: '/v1/route',
  chat: '/v1/chat/completions',
};

/** One worker count's figures. */
export interface ThroughputRow {
  readonly path: ThroughputPath;
  readonly workers: number;
  /** Which round (from 1): the worker counts take turns, round after round. */
  readonly round: number;
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
  /** The load generator: `wrk` or `node`. */
  readonly generator: string;
}

export interface ThroughputOptions {
  readonly upstreamPort: number;
  /** The fake upstream's process: its CPU time is the harness's. */
  readonly upstream: ChildProcess;
  readonly workers: readonly number[];
  readonly seconds: number;
  /**
   * Rounds: each measures every worker count in turn, so that a change in the machine's other
   * load falls on both sides of the ratio; the ratio is that of the medians.
   */
  readonly rounds: number;
  readonly concurrency: number;
  readonly logLevel: string;
  readonly pin: boolean;
  /** The paths to measure, in order. */
  readonly paths: readonly ThroughputPath[];
  /** Use wrk when it is installed (default), or always the Node closed loop. */
  readonly wrk: boolean;
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

/** Where the processes were placed: in words, and the CPUs left to the harness (if any). */
interface Layout {
  readonly text: string;
  /** A `taskset` CPU list for the harness's processes (the load generator among them). */
  readonly harnessCpus?: string;
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
): Layout {
  // Every CPU of the machine: this process's own affinity may have been narrowed already.
  const cpus = cpuList().length;
  const all = `0-${cpus - 1}`;
  if (!enabled) {
    pin([...triage, ...harness], all);
    return { text: 'not pinned (--no-pin)' };
  }
  if (workers >= cpus) {
    // Undo any earlier pinning of the harness: everything shares every CPU.
    pin([...triage, ...harness], all);
    return {
      text: `not pinned: ${workers} workers on ${cpus} CPUs share them with the load generator and the upstream`,
      harnessCpus: all,
    };
  }
  const first = cpus - workers;
  const mine = first === cpus - 1 ? String(first) : `${first}-${cpus - 1}`;
  const rest = first === 1 ? '0' : `0-${first - 1}`;
  return pin(triage, mine) && pin(harness, rest)
    ? {
        text: `triage pinned to CPU ${mine}, load generator and fake upstream to CPU ${rest}`,
        harnessCpus: rest,
      }
    : { text: 'not pinned (taskset failed or is missing)' };
}

/** Runs a closed loop on `pool` for `seconds`: each answer sends the next request. */
function closedLoop(
  pool: Pool,
  path: string,
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
      pool.dispatch({ path, method: 'POST', headers, body }, handler);
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
  const useWrk = options.wrk && hasWrk();
  const turns = Array.from({ length: options.rounds }, (_, i) =>
    options.workers.map((workers) => ({ round: i + 1, workers })),
  ).flat();
  for (const { round, workers } of turns) {
    const { child, url } = await startTriage(config, workers);
    const pool = new Pool(url, { connections: options.concurrency, pipelining: 1 });
    try {
      const triage = processTree(child.pid ?? 0);
      const layout = place(triage, [process.pid, options.upstream.pid ?? 0], workers, options.pin);
      for (const path of options.paths) {
        const load = (seconds: number) =>
          useWrk
            ? runWrk({
                url: `${url}${PATHS[path]}`,
                body,
                connections: options.concurrency,
                seconds,
                ...(layout.harnessCpus === undefined ? {} : { cpus: layout.harnessCpus }),
              })
            : closedLoop(pool, PATHS[path], body, options.concurrency, seconds).then((r) => ({
                ...r,
                seconds,
                cpuUs: 0,
              }));
        await load(2); // warm-up
        const triageBefore = cpuUsOf(triage);
        const upstreamBefore = await upstreamCpuUs();
        const generatorBefore = process.cpuUsage();
        const started = performance.now();
        const measured = await load(options.seconds);
        const elapsed = (performance.now() - started) / 1000;
        const generator = process.cpuUsage(generatorBefore);
        const harnessUs =
          measured.cpuUs +
          generator.user +
          generator.system +
          (await upstreamCpuUs()) -
          upstreamBefore;
        const { answers, errors } = measured;
        const triageCpuUs = (cpuUsOf(triage) - triageBefore) / Math.max(1, answers);
        rows.push({
          path,
          workers,
          round,
          perSecond: answers / (useWrk ? measured.seconds : elapsed),
          errors,
          triageCpuUs,
          harnessCpuUs: harnessUs / Math.max(1, answers),
          capacity: (workers * 1e6) / Math.max(1, triageCpuUs),
          layout: layout.text,
          generator: useWrk
            ? 'wrk'
            : 'node (wrk is not installed: apt-get install wrk, or brew install wrk)',
        });
      }
    } finally {
      await pool.close();
      const ended = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGTERM');
      await ended;
    }
  }
  return rows;
}

/** Prints each row, then the ratio of the most workers to one, per path. */
export function printThroughput(rows: readonly ThroughputRow[]): void {
  for (const row of rows) {
    process.stdout.write(
      `throughput at saturation, round ${row.round}, ${PATHS[row.path]}, ${row.workers} worker${row.workers > 1 ? 's' : ''}: ` +
        `${row.perSecond.toFixed(0)} answers/s, errors ${row.errors}\n` +
        `  CPU per answer: triage ${row.triageCpuUs.toFixed(0)} µs (all its processes), ` +
        `harness ${row.harnessCpuUs.toFixed(0)} µs; with a core per worker: ` +
        `${row.capacity.toFixed(0)} answers/s\n` +
        `  ${row.layout}; load generator: ${row.generator}\n`,
    );
  }
  for (const ratio of throughputRatios(rows)) {
    process.stdout.write(
      `ratio ${PATHS[ratio.path]}: ${ratio.workers} workers / 1 = ${ratio.measured.toFixed(2)}× measured ` +
        `(medians of ${rows.filter((r) => r.path === ratio.path && r.workers === 1).length} rounds) ` +
        `(${ratio.capacity.toFixed(2)}× by CPU per answer)\n`,
    );
  }
}

/**
 * Per path: the throughput of the most workers measured over that of one (medians over the
 * rounds), measured and by CPU per answer.
 */
export function throughputRatios(rows: readonly ThroughputRow[]): {
  path: ThroughputPath;
  workers: number;
  measured: number;
  capacity: number;
}[] {
  const paths = [...new Set(rows.map((row) => row.path))];
  return paths.flatMap((path) => {
    const mine = rows.filter((row) => row.path === path);
    const most = Math.max(...mine.map((row) => row.workers));
    const one = mine.filter((row) => row.workers === 1);
    const many = mine.filter((row) => row.workers === most);
    if (one.length === 0 || most === 1) return [];
    const median = (of: readonly ThroughputRow[], field: 'perSecond' | 'capacity') => {
      const sorted = of.map((row) => row[field]).sort((a, b) => a - b);
      const middle = sorted.length >> 1;
      return sorted.length % 2 === 1
        ? (sorted[middle] as number)
        : ((sorted[middle - 1] as number) + (sorted[middle] as number)) / 2;
    };
    return [
      {
        path,
        workers: most,
        measured: median(many, 'perSecond') / median(one, 'perSecond'),
        capacity: median(many, 'capacity') / median(one, 'capacity'),
      },
    ];
  });
}
