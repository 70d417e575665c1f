import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** A temporary directory of custom classifiers for tests; `cleanup()` removes it. */
export function classifierDir(): { root: string; add: AddClassifier; cleanup(): void } {
  const root = mkdtempSync(join(tmpdir(), 'triage-classifiers-'));
  return {
    root,
    add: (name, manifest, prompt = 'Decide what the target message needs.') => {
      const dir = join(root, name);
      mkdirSync(dir, { recursive: true });
      writeFileSync(
        join(dir, 'manifest.json'),
        typeof manifest === 'string' ? manifest : JSON.stringify({ name, ...manifest }, null, 2),
      );
      if (prompt !== undefined) writeFileSync(join(dir, 'prompt.md'), prompt);
      return dir;
    },
    cleanup: () => rmSync(root, { recursive: true, force: true }),
  };
}

/** Writes one classifier folder and returns its path. */
export type AddClassifier = (
  name: string,
  manifest: Record<string, unknown> | string,
  prompt?: string,
) => string;

/** A minimal valid manifest, with `extra` merged in. */
export function manifest(extra: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    version: '1.0.0',
    purpose: 'A test classifier.',
    fallback: { reason: 'failed', certainty: 'no_signal' },
    ...extra,
  };
}
