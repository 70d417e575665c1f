import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { readJsonlFile } from '../../test/data.js';
import { parseTierRow } from '../cli/commands/tier.js';
import { createTierRouter } from './router.js';

/**
 * Quality floors, so that a change that makes routing worse fails: the labelled set in the repo
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

  it('decides at least 80% of the labelled set locally, at least 97% of those right', () => {
    const file = fileURLToPath(new URL('../../test/fixtures/tier.jsonl', import.meta.url));
    const rows = readJsonlFile(file).map(parseTierRow);
    let local = 0;
    let right = 0;
    for (const row of rows) {
      const decision = router.classify(row.input);
      if (decision.source !== 'local') continue;
      local++;
      const expected = Array.isArray(row.expected) ? row.expected : [row.expected];
      if (expected.includes(decision.tier)) right++;
    }
    expect(local / rows.length).toBeGreaterThanOrEqual(0.8);
    expect(right / local).toBeGreaterThanOrEqual(0.97);
  });
});
