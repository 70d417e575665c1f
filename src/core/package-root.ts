import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * triage's own package folder and version, found by walking up from this module to the
 * `package.json` named `triage`: the checkout when run from `src/`, the installed package when run
 * from the bundled `dist/` (whose files sit at another depth than the sources).
 */

let found: { root: string; version: string } | undefined;

function ownPackage(): { root: string; version: string } {
  if (found) return found;
  let dir = dirname(fileURLToPath(import.meta.url));
  for (;;) {
    const file = join(dir, 'package.json');
    if (existsSync(file)) {
      const pkg = JSON.parse(readFileSync(file, 'utf8')) as { name?: string; version?: string };
      if (pkg.name === 'triage') {
        found = { root: dir, version: pkg.version ?? '0.0.0' };
        return found;
      }
    }
    const parent = dirname(dir);
    if (parent === dir) throw new Error('triage: cannot find its own package.json');
    dir = parent;
  }
}

/** The folder holding triage's `package.json` (a checkout, or the installed package). */
export function packageRoot(): string {
  return ownPackage().root;
}

/** triage's version, from its `package.json`. */
export function packageVersion(): string {
  return ownPackage().version;
}
