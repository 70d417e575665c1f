import { defineConfig } from 'vitest/config';

/**
 * Two suites (README, Development):
 * - `default` (`npm test`): every `*.test.ts`, the loop a developer runs all the time.
 * - `slow` (`npm run test:slow`, CI runs it too): `*.slow.test.ts`, tests that take seconds by
 *   nature: load, child processes of the built CLI, evaluations on the public data sets beside the
 *   repository. Its global setup rebuilds `dist/` first, so a child process never runs stale code.
 */
const SLOW = ['src/**/*.slow.test.ts', 'test/**/*.slow.test.ts'];

export default defineConfig({
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
        },
      },
      {
        extends: true,
        test: {
          name: 'slow',
          include: SLOW,
          globalSetup: ['test/build-dist.ts'],
          testTimeout: 60_000,
        },
      },
    ],
  },
});
