import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { readJsonlFile } from '../../test/data.js';
import { parseTierRow } from '../cli/commands/tier.js';
import { createTierRouter } from './router.js';

/**
 * A quality floor, so that a change that makes routing worse fails: the labelled set in the repo
 * (written for this project: four tiers, ten languages, system-prompt contamination, wrapped
 * messages). The floors on the public routing data are in quality.slow.test.ts.
 */
const router = createTierRouter();

describe('tier routing quality', () => {
  it('classifies at least 95% of the labelled set correctly', async () => {
    const file = fileURLToPath(new URL('../../test/fixtures/tier.jsonl', import.meta.url));
    const rows = readJsonlFile(file).map(parseTierRow);
    expect(rows.length).toBeGreaterThanOrEqual(150);
    let correct = 0;
    for (const row of rows) {
      const expected = Array.isArray(row.expected) ? row.expected : [row.expected];
      if (expected.includes((await router.decide(row.input)).tier)) correct++;
    }
    expect(correct / rows.length).toBeGreaterThanOrEqual(0.95);
  });
});
