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

/**
 * The catalog the pipeline tests and benchmarks resolve against: two coders and two chat models of
 * equal price (the larger ranks first), a writer and a frontier model.
 */
export const TEST_CATALOG = {
  default: 'fallback-model',
  models: [
    {
      id: 'frontier',
      tier: 'frontier_strong',
      specializations: ['reasoning', 'writing'],
      inputCostPerMillion: 3,
      outputCostPerMillion: 15,
    },
    {
      id: 'coder-small',
      tier: 'local_coding',
      specializations: ['coding'],
      inputCostPerMillion: 0.2,
      outputCostPerMillion: 0.6,
      parameters: 7,
    },
    {
      id: 'coder-big',
      tier: 'local_coding',
      specializations: ['coding'],
      inputCostPerMillion: 0.2,
      outputCostPerMillion: 0.6,
      parameters: 32,
    },
    {
      id: 'chat-small',
      tier: 'local_fast',
      specializations: ['chat'],
      inputCostPerMillion: 0.1,
      outputCostPerMillion: 0.1,
      parameters: 3,
    },
    {
      id: 'chat-big',
      tier: 'local_fast',
      specializations: ['chat'],
      inputCostPerMillion: 0.1,
      outputCostPerMillion: 0.1,
      parameters: 8,
    },
    {
      id: 'writer',
      tier: 'local_strong',
      specializations: ['writing'],
      inputCostPerMillion: 0.5,
      outputCostPerMillion: 1.5,
    },
  ],
} as const;
