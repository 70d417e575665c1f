import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * `npm run bench:startup [-- --json] [--runs N]`: how long triage takes to start, as wall time
 * added over a bare `node -e 0`, median of N cold processes (default 10) per case.
 *
 * It measures the built package (`dist/`, as users run it), imported by its own name (Node
 * resolves `triage` and `triage/…` to this package through `exports`), on the Node that runs the
 * script. The cases take turns, round by round, so that a busy spell of a shared machine falls on
 * all of them rather than on one.
 *
 * Wall time is what a user waits, but on a busy machine it also counts the time other processes
 * held the cores. So each case runs N more times with a preloaded hook that reports, at exit, the
 * CPU time the process used (user + system, all of its threads: V8 compiles and collects garbage
 * on helper threads, so it can exceed the wall time): a figure a busy machine inflates far less.
 */

interface Case {
  readonly name: string;
  readonly description: string;
  readonly args: readonly string[];
}

const root = fileURLToPath(new URL('..', import.meta.url));
const cli = join(root, 'dist/cli.js');

/** Runs ES-module code given on the command line, as a user's script would. */
const esm = (code: string): string[] => ['--input-type=module', '-e', code];

const BARE: Case = {
  name: 'node -e 0',
  description: 'bare Node (the baseline)',
  args: ['-e', '0'],
};

const CASES: readonly Case[] = [
  {
    name: "import('triage')",
    description: 'the root entry',
    args: esm("await import('triage');"),
  },
  {
    name: "import('triage/tier') + classify",
    description: 'the tier entry, a default router and its first decision',
    args: esm(
      "const tier = await import('triage/tier');" +
        // The front door's name once it lands, the router's until then.
        'const create = tier.createTier ?? tier.createTierRouter;' +
        "create().classify('Explain how a hash map handles collisions');",
    ),
  },
  {
    name: 'triage tier "hi"',
    description: 'the CLI, one tier decision',
    args: [cli, 'tier', 'hi'],
  },
  { name: 'triage --version', description: 'the CLI, nothing to decide', args: [cli, '--version'] },
];

/** Preloaded in the CPU runs: prints the process's CPU time (ms) last on standard error. */
const CPU_PROBE = `data:text/javascript,${encodeURIComponent(
  "process.on('exit', () => { const u = process.cpuUsage();" +
    " process.stderr.write('\\n@cpu ' + (u.user + u.system) / 1000 + '\\n'); });",
)}`;

interface Row {
  readonly name: string;
  readonly description: string;
  readonly median_ms: number;
  readonly added_ms: number;
  readonly cpu_ms: number;
  readonly added_cpu_ms: number;
}

function parseArgs(argv: readonly string[]): { json: boolean; runs: number } {
  const i = argv.indexOf('--runs');
  const runs = i >= 0 ? Number(argv[i + 1]) : 10;
  if (!Number.isInteger(runs) || runs < 1)
    throw new RangeError('--runs must be a positive integer');
  return { json: argv.includes('--json'), runs };
}

/** One cold process: its wall time, or with `cpu` its CPU time, in milliseconds. */
function timeOnce(c: Case, cpu: boolean): number {
  const args = cpu ? ['--import', CPU_PROBE, ...c.args] : c.args;
  const start = process.hrtime.bigint();
  const result = spawnSync(process.execPath, args, { cwd: root, encoding: 'utf8' });
  const ms = Number(process.hrtime.bigint() - start) / 1e6;
  if (result.status !== 0) {
    throw new Error(`${c.name} failed (exit ${result.status}): ${result.stderr.trim()}`);
  }
  if (!cpu) return ms;
  const reported = /@cpu ([\d.]+)\s*$/.exec(result.stderr);
  if (!reported) throw new Error(`${c.name} did not report its CPU time`);
  return Number(reported[1]);
}

function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 === 1 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

/** Newest modification time of the TypeScript sources the build compiles. */
function newestSource(dir: string): number {
  let newest = 0;
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    const stat = statSync(path);
    if (stat.isDirectory()) newest = Math.max(newest, newestSource(path));
    else if (name.endsWith('.ts') && !name.includes('.test')) {
      newest = Math.max(newest, stat.mtimeMs);
    }
  }
  return newest;
}

/** Medians of `runs` rounds in which every case runs once, for wall time or CPU time. */
function measure(all: readonly Case[], runs: number, cpu: boolean): number[] {
  const times = all.map(() => [] as number[]);
  for (let round = 0; round < runs; round++) {
    all.forEach((c, i) => {
      times[i]!.push(timeOnce(c, cpu));
    });
  }
  return times.map(median);
}

function main(): void {
  const { json, runs } = parseArgs(process.argv.slice(2));
  const built = join(root, 'dist/index.js');
  if (!existsSync(built)) throw new Error('dist/ is missing: run `npm run build` first');
  if (newestSource(join(root, 'src')) > statSync(built).mtimeMs) {
    process.stderr.write('warning: src/ is newer than dist/; run `npm run build` to measure it\n');
  }
  const all = [BARE, ...CASES];
  for (const c of all) timeOnce(c, false); // one untimed run each: the file system cache
  const wall = measure(all, runs, false);
  const cpu = measure(all, runs, true);
  const rows: Row[] = all.map((c, i) => ({
    name: c.name,
    description: c.description,
    median_ms: round1(wall[i]!),
    added_ms: round1(wall[i]! - wall[0]!),
    cpu_ms: round1(cpu[i]!),
    added_cpu_ms: round1(cpu[i]! - cpu[0]!),
  }));
  if (json) {
    const report = { node: process.version, runs, results: rows };
    process.stdout.write(`${JSON.stringify(report, null, 2)}\n`);
    return;
  }
  process.stdout.write(
    `Node ${process.version}, median of ${runs} cold processes per case; wall time, then CPU time\n`,
  );
  for (const r of rows) {
    const first = r === rows[0];
    const added = (ms: number) => (first ? '' : `+${ms.toFixed(0)} ms`).padStart(8);
    process.stdout.write(
      `${r.name.padEnd(34)} ${ms(r.median_ms)} ${added(r.added_ms)}   cpu ${ms(r.cpu_ms)} ` +
        `${added(r.added_cpu_ms)}   ${r.description}\n`,
    );
  }
}

function ms(value: number): string {
  return `${value.toFixed(0)} ms`.padStart(7);
}

function round1(value: number): number {
  return Math.round(value * 10) / 10;
}

main();
