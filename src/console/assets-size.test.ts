import { describe, expect, it } from 'vitest';
import { CONSOLE_FILES, consoleAssets } from '../server/console-assets.js';

/** The most the web console's files may add to the package (docs/console.md). */
const BUDGET_BYTES = 300 * 1024;

describe('the console assets', () => {
  it(`stay within ${BUDGET_BYTES / 1024} KB, and load nothing from another origin`, async () => {
    const assets = await consoleAssets();
    const bytes = CONSOLE_FILES.reduce((sum, name) => sum + assets.get(name)!.body.length, 0);
    expect(bytes).toBeLessThanOrEqual(BUDGET_BYTES);
    for (const name of CONSOLE_FILES) {
      const text = assets.get(name)!.body.toString('utf8');
      expect(text).not.toMatch(/(?:src|href)=["']?https?:/);
      expect(text).not.toMatch(/import\s*\(?\s*["']https?:/);
    }
  });
});
