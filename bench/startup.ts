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
 */

interface Case {
  readonly name: string;
  readonly description: string;
  readonly args: readonly string[];
}

const root = fileURLToPath(new URL('..', import.meta.url));
const cli = join(root, 'dist/cli/main.js');

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

interface Row {
  readonly name: string;
  readonly description: string;
  readonly median_ms: number;
  readonly added_ms: number;
}

function parseArgs(argv: readonly string[]): { json: boolean; runs: number } {
  const i = argv.indexOf('--runs');
  const runs = i >= 0 ? Number(argv[i + 1]) : 10;
  if (!Number.isInteger(runs) || runs < 1)
    throw new RangeError('--runs must be a positive integer');
  return { json: argv.includes('--json'), runs };
}

/** Wall time of one cold process, in milliseconds; a failing case stops the benchmark. */
function timeOnce(c: Case): number {
  const start = process.hrtime.bigint();
  const result = spawnSync(process.execPath, c.args, { cwd: root, encoding: 'utf8' });
  const ms = Number(process.hrtime.bigint() - start) / 1e6;
  if (result.status !== 0) {
    throw new Error(`${c.name} failed (exit ${result.status}): ${result.stderr.trim()}`);
  }
  return ms;
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
    else if (name.endsWith('.ts') && !name.includes('.test'))
      newest = Math.max(newest, stat.mtimeMs);
  }
  return newest;
}

function main(): void {
  const { json, runs } = parseArgs(process.argv.slice(2));
  const built = join(root, 'dist/index.js');
  if (!existsSync(built)) throw new Error('dist/ is missing: run `npm run build` first');
  if (newestSource(join(root, 'src')) > statSync(built).mtimeMs) {
    process.stderr.write('warning: src/ is newer than dist/; run `npm run build` to measure it\n');
  }
  const all = [BARE, ...CASES];
  for (const c of all) timeOnce(c); // one untimed run each: the file system cache, not triage
  const times = all.map(() => [] as number[]);
  for (let round = 0; round < runs; round++) {
    all.forEach((c, i) => {
      times[i]!.push(timeOnce(c));
    });
  }
  const bare = median(times[0]!);
  const rows: Row[] = all.map((c, i) => {
    const m = median(times[i]!);
    return {
      name: c.name,
      description: c.description,
      median_ms: round1(m),
      added_ms: i === 0 ? 0 : round1(m - bare),
    };
  });
  if (json) {
    process.stdout.write(
      `${JSON.stringify({ node: process.version, runs, results: rows }, null, 2)}\n`,
    );
    return;
  }
  process.stdout.write(`Node ${process.version}, median of ${runs} cold processes per case\n`);
  for (const r of rows) {
    const added = r === rows[0] ? '(baseline)' : `+${r.added_ms.toFixed(0)} ms`.padStart(10);
    process.stdout.write(
      `${r.name.padEnd(34)} ${`${r.median_ms.toFixed(0)} ms`.padStart(8)}  ${added}  ${r.description}\n`,
    );
  }
}

function round1(value: number): number {
  return Math.round(value * 10) / 10;
}

main();
