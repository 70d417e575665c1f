import { existsSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { TestContext } from 'vitest';

/**
 * The labelled public data sets (injection, routing and intent sets, see the README's
 * "Evaluating on public data") are never copied into the repository. They are read from the
 * folder `TRIAGE_DATA_DIR` names (with `injection/`, `routing/` and `intent/` inside), by default
 * `../shared/data/` beside the repository, where this project's own checkouts have them. Only the
 * slow suite and some benchmarks read them (`*.slow.test.ts`): the default suite runs the same in
 * any checkout. Tests that need a file get it from {@link needSharedData}, which skips the test,
 * naming the file, where the folder does not have it.
 */
export const SHARED_DATA_DIR = `${
  process.env.TRIAGE_DATA_DIR
    ? resolve(process.env.TRIAGE_DATA_DIR)
    : fileURLToPath(new URL('../../shared/data', import.meta.url))
}/`;

/** The absolute path of a file of the data folder, or `undefined` when it is absent. */
export function sharedData(relative: string): string | undefined {
  const path = `${SHARED_DATA_DIR}${relative}`;
  return existsSync(path) ? path : undefined;
}

/**
 * The absolute path of a file of the data folder for the running test; when the file is absent
 * the test is skipped with the reason `<relative> not found in <folder> (TRIAGE_DATA_DIR)`, which
 * the run lists at its end (test/skip-reporter.ts). Call it in the test, or in a `beforeEach`.
 */
export function needSharedData(context: TestContext, relative: string): string {
  const path = sharedData(relative);
  if (path === undefined) context.skip(missingData(relative));
  return path;
}

/** Why a data file was not read: where it was looked for, and how to point elsewhere. */
export function missingData(relative: string): string {
  return `${relative} not found in ${SHARED_DATA_DIR} (set TRIAGE_DATA_DIR to the data folder)`;
}

/** The rows of a JSON Lines file (blank lines ignored). */
export function readJsonlFile(path: string): unknown[] {
  return readFileSync(path, 'utf8')
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => JSON.parse(line) as unknown);
}
