import { availableParallelism } from 'node:os';
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

/**
 * Two suites (README, Development):
 * - `default` (`npm test`): every `*.test.ts`, the loop a developer runs all the time.
 * - `slow` (`npm run test:slow`, CI runs it too): `*.slow.test.ts`, tests that take seconds by
 *   nature: load, child processes of the built CLI, evaluations on the public data sets beside the
 *   repository. Its global setup rebuilds `dist/` first, so a child process never runs stale code.
 */
const SRC = fileURLToPath(new URL('./src', import.meta.url));
const SLOW = ['src/**/*.slow.test.ts', 'test/**/*.slow.test.ts'];

export default defineConfig({
  // The examples import the package by name (`triage/ai-sdk`, …): run them on the sources.
  resolve: {
    alias: [
      {
        find: /^triage\/(ai-sdk|langchain|openai-agents)$/,
        replacement: `${SRC}/adapters/$1/index.ts`,
      },
      { find: /^triage\/([a-z]+)$/, replacement: `${SRC}/$1/index.ts` },
    ],
  },
  test: {
    // Tests start real loopback servers; a generous per-test limit keeps a slow CI core from
    // failing a correct test, while hung tests still end.
    testTimeout: 20_000,
    hookTimeout: 20_000,
    pool: 'forks',
    setupFiles: ['test/setup.ts'],
    // The default output, then the skipped tests and why (test/skip-reporter.ts).
    reporters: ['default', './test/skip-reporter.ts'],
    projects: [
      {
        extends: true,
        test: {
          name: 'default',
          include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
          exclude: SLOW,
          // One module graph per worker instead of one per test file: importing the tree once
          // per worker instead of ~100 times takes the suite from ~80 to ~25 s of CPU. Test files
          // therefore leave no global state behind (restore spies, reset process.exitCode).
          isolate: false,
          // Every core: most tests wait on loopback sockets and timers, not on the CPU (Vitest's
          // default leaves one core idle, which on two cores means one test file at a time).
          maxWorkers: Math.max(2, availableParallelism()),
        },
      },
      {
        extends: true,
        test: {
          name: 'slow',
          include: SLOW,
          globalSetup: ['test/build-dist.ts'],
          testTimeout: 60_000,
          // One file at a time: the load and latency tests must not compete with each other.
          maxWorkers: 1,
        },
      },
    ],
  },
});
