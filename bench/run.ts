import { readdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { do_not_optimize, measure } from 'mitata';
import type { BenchCase, BenchResult } from './harness.js';

/**
 * `npm run bench [-- [--json] [filter…]]`: runs every case of every `bench/*.bench.ts` whose name
 * starts with one of the filters (all when none), each with its peer if it has one.
 */
async function main(): Promise<void> {
  const args = process.argv.slice(2);
  const json = args.includes('--json');
  const filters = args.filter((arg) => !arg.startsWith('--'));
  const dir = fileURLToPath(new URL('.', import.meta.url));
  const cases: BenchCase[] = [];
  for (const file of readdirSync(dir)
    .filter((name) => name.endsWith('.bench.ts'))
    .sort()) {
    const module = (await import(new URL(file, import.meta.url).href)) as { benches?: BenchCase[] };
    cases.push(...(module.benches ?? []));
  }
  const selected = cases.filter(
    (c) => filters.length === 0 || filters.some((filter) => c.name.startsWith(filter)),
  );
  if (selected.length === 0) {
    process.stderr.write(`no benchmark matches ${filters.join(' ') || '(any)'}\n`);
    process.exitCode = 2;
    return;
  }
  const results: BenchResult[] = [];
  for (const c of selected) {
    const ours = await timeOf(c.fn);
    let result: BenchResult = {
      name: c.name,
      description: c.description,
      us_per_op: round(ours.avg / 1000),
      p99_us: round(ours.p99 / 1000),
    };
    if (c.peer) {
      const peer = await timeOf(c.peer.fn);
      result = {
        ...result,
        peer: c.peer.name,
        peer_us_per_op: round(peer.avg / 1000),
        speedup: round(peer.avg / ours.avg),
      };
    }
    const baseline = results.find((r) => r.name === c.baseline);
    if (baseline !== undefined) {
      result = {
        ...result,
        baseline: baseline.name,
        overhead_us: round(result.us_per_op - baseline.us_per_op),
      };
    }
    results.push(result);
    if (!json) printRow(result);
  }
  if (json) process.stdout.write(`${JSON.stringify({ results }, null, 2)}\n`);
}

/**
 * Times `fn`; a case that returns a promise is awaited (mitata then times the whole async op).
 *
 * Each case (ours and the peer's alike) first runs untimed for {@link WARM_UP_MS}, as any JIT
 * benchmark should: mitata's own warm-up is two calls, so its first samples were taken before V8
 * had optimised the code, and a slow first call (one-time work: a lexicon copied into WebAssembly
 * memory, regular expressions compiled) made it time a sub-microsecond operation call by call,
 * each sample then carrying two clock reads (~50 ns each here) and their jitter.
 */
async function timeOf(fn: () => unknown): Promise<{ avg: number; p99: number }> {
  const op = () => {
    const value = fn();
    return value instanceof Promise ? value.then(do_not_optimize) : do_not_optimize(value);
  };
  const warmUntil = performance.now() + WARM_UP_MS;
  for (let calls = 0; calls < 3 || performance.now() < warmUntil; calls++) await op();
  return measure(op, { min_cpu_time: 500_000_000 });
}

/** Untimed running time of each case before it is measured (see timeOf). */
const WARM_UP_MS = 200;

function printRow(r: BenchResult): void {
  const peer =
    r.peer === undefined
      ? ''
      : `   ${r.peer}: ${fmt(r.peer_us_per_op ?? 0)}  (${r.speedup}x faster)`;
  const overhead =
    r.overhead_us === undefined ? '' : `   overhead ${fmt(r.overhead_us)} over ${r.baseline}`;
  process.stdout.write(
    `${r.name.padEnd(24)} ${fmt(r.us_per_op)}  p99 ${fmt(r.p99_us)}  ${r.description}${peer}${overhead}\n`,
  );
}

function fmt(us: number): string {
  return us >= 1000 ? `${(us / 1000).toFixed(2)} ms` : `${us.toFixed(us < 10 ? 3 : 1)} µs`;
}

function round(value: number): number {
  return Math.round(value * 1000) / 1000;
}

await main();
// A case may hold a loopback server open (e.g. a fake LLM): the run is over, so end the process.
process.exit();
