import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
    // Tests start real loopback servers; a generous per-test limit keeps a slow CI core from
    // failing a correct test, while hung tests still end.
    testTimeout: 20_000,
    hookTimeout: 20_000,
    pool: 'forks',
  },
});
