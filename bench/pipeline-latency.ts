import { benches, floorCall } from './pipeline.bench.js';

/**
 * `node --import tsx bench/pipeline-latency.ts [--json]`: the closing figures of the pipeline, as
 * distributions (median, p10, p90, p99) rather than means, which a shared machine's stalls
 * distort:
 *
 * - `pipeline.overhead.*`: a whole run with an in-process provider that answers at once, i.e.
 *   everything but the LLM calls;
 * - `pipeline.wall.8x100ms.*`: a run whose eight classifiers each take 100 ms to answer, over real
 *   HTTP against the fake LLM server, with 8 workers and with the default 7;
 * - `floor.1x100ms`: one such call on its own, the least a run can take.
 */
const json = process.argv.includes('--json');
const cases = [...benches, floorCall].map((c) => ({
  name: c.name,
  fn: c.fn as () => Promise<unknown>,
  runs: c.name.includes('100ms') ? 40 : 3000,
}));
const rows: Record<string, number | string>[] = [];
for (const c of cases) {
  for (let i = 0; i < Math.min(c.runs, 200); i++) await c.fn();
  const times: number[] = [];
  for (let i = 0; i < c.runs; i++) {
    const started = performance.now();
    await c.fn();
    times.push(performance.now() - started);
  }
  times.sort((a, b) => a - b);
  const at = (q: number) =>
    Math.round((times[Math.min(times.length - 1, Math.floor(q * times.length))] ?? 0) * 1000) /
    1000;
  const row = {
    name: c.name,
    runs: c.runs,
    median_ms: at(0.5),
    p10_ms: at(0.1),
    p90_ms: at(0.9),
    p99_ms: at(0.99),
  };
  rows.push(row);
  if (!json) {
    process.stdout.write(
      `${c.name.padEnd(28)} median ${String(row.median_ms).padStart(9)} ms  p10 ${row.p10_ms} ms  p90 ${row.p90_ms} ms  p99 ${row.p99_ms} ms\n`,
    );
  }
}
if (json) process.stdout.write(`${JSON.stringify({ results: rows }, null, 2)}\n`);
process.exit();
