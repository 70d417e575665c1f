/**
 * Memory of the guidance classifiers and of a session, measured with the garbage collector:
 *
 *   node --expose-gc --import tsx bench/guidance.memory.ts [--json]
 *
 * For each kind it creates many instances, keeps them alive in a pre-filled array, collects
 * garbage before and after, and divides the growth of `heapUsed + external` (typed arrays keep
 * their contents off the JS heap) of `process.memoryUsage()` by the count. Shared, compiled-once data (the sensitive-terms lexicon) is created before the
 * measurement and reported separately: it is paid once per process, not per instance.
 */

import {
  DEFAULT_SENSITIVE_TERMS,
  DoomLoopClassifier,
  ErrorStreakClassifier,
  GuidanceEngine,
  HighToolCountClassifier,
  LargeOutputClassifier,
  LlmGuidanceClassifier,
  ProgressStallClassifier,
  SensitiveContentClassifier,
  SequentialWhenParallelClassifier,
  SingleToolRepeatedClassifier,
  TrajectoryBuilder,
} from '../src/guidance/index.js';
import type { LlmProvider } from '../src/llm/index.js';
import { compileLexicon } from '../src/text/index.js';
import { agentSession } from './guidance.fixture.js';

const gc = (globalThis as { gc?: () => void }).gc;
if (gc === undefined) {
  process.stderr.write('run with node --expose-gc --import tsx bench/guidance.memory.ts\n');
  process.exit(2);
}

/** JS heap plus off-heap buffers (typed arrays keep their contents outside the JS heap). */
function heap(): number {
  for (let i = 0; i < 4; i++) gc!();
  const { heapUsed, external } = process.memoryUsage();
  return heapUsed + external;
}

/** Bytes retained per instance made by `make`. */
function perInstance(make: (i: number) => unknown, count: number): number {
  const keep: unknown[] = new Array(count).fill(0);
  make(0); // warm: compile code and shared tables outside the measurement
  const before = heap();
  for (let i = 0; i < count; i++) keep[i] = make(i);
  const after = heap();
  if (keep.length !== count) throw new Error('unreachable');
  return (after - before) / count;
}

const provider: LlmProvider = {
  id: 'none',
  model: 'm',
  complete: () => Promise.reject(new Error('no')),
};
const session = agentSession(1_000);

const classifiers: [string, () => unknown][] = [
  ['doom_loop', () => new DoomLoopClassifier()],
  ['error_streak', () => new ErrorStreakClassifier()],
  ['progress_stall', () => new ProgressStallClassifier()],
  ['high_tool_count', () => new HighToolCountClassifier()],
  ['single_tool_repeated', () => new SingleToolRepeatedClassifier()],
  ['sequential_when_parallel', () => new SequentialWhenParallelClassifier()],
  ['large_output', () => new LargeOutputClassifier()],
  ['sensitive_content', () => new SensitiveContentClassifier()],
  ['llm', () => new LlmGuidanceClassifier({ provider, question: 'Stuck?' })],
];
const rows: { name: string; bytes: number; per: string }[] = [];
for (const [name, make] of classifiers) {
  rows.push({ name, bytes: Math.round(perInstance(make, 20_000)), per: 'classifier instance' });
}
rows.push({
  name: 'sensitive terms lexicon (shared)',
  bytes: Math.round(perInstance(() => compileLexicon({ sensitive: DEFAULT_SENSITIVE_TERMS }), 20)),
  per: 'process (compiled once)',
});
rows.push({
  name: 'trajectory, empty',
  bytes: Math.round(perInstance(() => new TrajectoryBuilder(), 2_000)),
  per: 'session',
});
/** Bytes retained per session after replaying the 1,000-call session into it. */
const afterSession = (make: () => { onEvent(event: (typeof session)[number]): unknown }) =>
  Math.round(
    perInstance(() => {
      const target = make();
      for (const event of session) target.onEvent(event);
      return target;
    }, 200),
  );
rows.push({
  name: 'trajectory after 1,000 calls',
  bytes: afterSession(() => new TrajectoryBuilder()),
  per: 'session (outputs not counted: they are the caller’s strings)',
});
rows.push({
  name: 'engine after 1,000 calls',
  bytes: afterSession(() => new GuidanceEngine()),
  per: 'session, default providers included',
});

if (process.argv.includes('--json')) {
  process.stdout.write(`${JSON.stringify({ results: rows }, null, 2)}\n`);
} else {
  for (const row of rows) {
    process.stdout.write(
      `${row.name.padEnd(34)} ${String(row.bytes).padStart(8)} B  per ${row.per}\n`,
    );
  }
}
