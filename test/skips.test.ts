import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

/**
 * Every skip says why: a test that cannot run here calls `context.skip(reason)`, whose reason the
 * run lists at its end (test/skip-reporter.ts). A static `it.skip`, `describe.skipIf(…)` or
 * `runIf` would be counted by the summary without a word of explanation, so none is allowed.
 */
const ROOT = fileURLToPath(new URL('..', import.meta.url));
const STATIC_SKIP = /\b(?:it|test|describe|suite)\s*\.\s*(?:skip|skipIf|runIf)\b/;

function testFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return testFiles(path);
    return /\.test(-helpers)?\.ts$/.test(entry.name) ? [path] : [];
  });
}

describe('skips', () => {
  it('are all made with a reason (context.skip), none statically', () => {
    const self = fileURLToPath(import.meta.url);
    const offenders = [...testFiles(join(ROOT, 'src')), ...testFiles(join(ROOT, 'test'))]
      .filter((file) => file !== self)
      .flatMap((file) =>
        readFileSync(file, 'utf8')
          .split('\n')
          .map((line, index) => ({ line, index }))
          .filter(({ line }) => STATIC_SKIP.test(line))
          .map(({ index }) => `${relative(ROOT, file)}:${index + 1}`),
      );
    expect(offenders).toEqual([]);
  });
});
