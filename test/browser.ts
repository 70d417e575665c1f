import { existsSync, mkdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { type Browser, chromium } from 'playwright-core';
import type { TestContext } from 'vitest';

/**
 * Real Chromium for the console's browser tests, driven by playwright-core: Debian's `chromium`
 * package (`apt-get install -y chromium`; `.ci/run` installs it when missing), or the browser a
 * `CHROMIUM_PATH` variable names. A test that needs it skips, saying why, when none is found.
 */

/** Where the browser tests write their screenshots (git-ignored). */
export const SCREENSHOTS_DIR = fileURLToPath(
  new URL('../test-output/screenshots/', import.meta.url),
);

const CANDIDATES = ['/usr/bin/chromium', '/usr/bin/chromium-browser', '/usr/bin/google-chrome'];

/** The browser executable to use, or `undefined` when none is installed. */
export function chromiumPath(): string | undefined {
  const named = process.env.CHROMIUM_PATH;
  if (named) return existsSync(named) ? named : undefined;
  return CANDIDATES.find((path) => existsSync(path));
}

/**
 * Launches headless Chromium for a test, or skips the test with the reason (no browser found,
 * or one that does not start).
 */
export async function needBrowser(context: TestContext): Promise<Browser> {
  const executablePath = chromiumPath();
  if (executablePath === undefined) {
    context.skip(
      `no Chromium found (looked for CHROMIUM_PATH, ${CANDIDATES.join(', ')}): ` +
        'install it with `apt-get install -y chromium` (.ci/run does)',
    );
  }
  try {
    return await chromium.launch({
      executablePath,
      headless: true,
      // Containers often run as root without user namespaces for Chromium's sandbox.
      args: ['--no-sandbox', '--disable-dev-shm-usage'],
    });
  } catch (error) {
    context.skip(`Chromium at ${executablePath} did not start: ${(error as Error).message}`);
  }
}

/** The path of a screenshot named `name` (the folder is created). */
export function screenshotPath(name: string): string {
  mkdirSync(SCREENSHOTS_DIR, { recursive: true });
  return `${SCREENSHOTS_DIR}${name}.png`;
}
