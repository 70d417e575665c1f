import { vi } from 'vitest';

/**
 * Captures what a CLI command writes to standard output and standard error during a test
 * (restore with `vi.restoreAllMocks()` after each test).
 */
export function captureOutput(): { out(): string; err(): string } {
  const out = vi.spyOn(process.stdout, 'write').mockImplementation(() => true);
  const err = vi.spyOn(process.stderr, 'write').mockImplementation(() => true);
  return {
    out: () => out.mock.calls.map((call) => String(call[0])).join(''),
    err: () => err.mock.calls.map((call) => String(call[0])).join(''),
  };
}
