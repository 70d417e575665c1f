import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

/**
 * The labelled public data lives beside the repository in `../shared/data/` and is never copied
 * into it. Tests that need it use {@link sharedData}, and skip with a visible reason where a
 * checkout has no such folder.
 */
export const SHARED_DATA_DIR = fileURLToPath(new URL('../../shared/data/', import.meta.url));

/** The absolute path of a file under `../shared/data/`, or `undefined` when it is absent. */
export function sharedData(relative: string): string | undefined {
  const path = `${SHARED_DATA_DIR}${relative}`;
  return existsSync(path) ? path : undefined;
}
