import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { TestContext } from 'vitest';

/**
 * The labelled public data lives beside the repository in `../shared/data/` and is never copied
 * into it. Only the slow suite reads it (`*.slow.test.ts`): the default suite runs the same in any
 * checkout. Tests that need a file get it from {@link needSharedData}, which skips the test,
 * naming the file, where a checkout has no such folder.
 */
export const SHARED_DATA_DIR = fileURLToPath(new URL('../../shared/data/', import.meta.url));

/** The absolute path of a file under `../shared/data/`, or `undefined` when it is absent. */
export function sharedData(relative: string): string | undefined {
  const path = `${SHARED_DATA_DIR}${relative}`;
  return existsSync(path) ? path : undefined;
}

/**
 * The absolute path of a file under `../shared/data/` for the running test; when the file is
 * absent the test is skipped with the reason `../shared/data/<relative> not found`, which the run
 * lists at its end (test/skip-reporter.ts). Call it in the test, or in a `beforeEach`.
 */
export function needSharedData(context: TestContext, relative: string): string {
  const path = sharedData(relative);
  if (path === undefined) context.skip(`../shared/data/${relative} not found`);
  return path;
}

/** The rows of a JSON Lines file (blank lines ignored). */
export function readJsonlFile(path: string): unknown[] {
  return readFileSync(path, 'utf8')
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => JSON.parse(line) as unknown);
}
