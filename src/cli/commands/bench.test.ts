import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { benchScript } from './bench.js';

describe('triage bench', () => {
  const checkout = fileURLToPath(new URL('../../../', import.meta.url));

  it('runs the benchmark scripts of a source checkout', () => {
    expect(benchScript(checkout, false)).toBe('bench/run.ts');
    expect(benchScript(checkout, true)).toBe('bench/server/latency.ts');
  });

  it('says how to get a checkout where there is none (an installed package)', () => {
    const installed = `${mkdtempSync(join(tmpdir(), 'triage-installed-'))}/`;
    expect(() => benchScript(installed, true)).toThrow(/source checkout.*npm run bench:server/);
  });
});
