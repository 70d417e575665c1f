import { afterEach, describe, expect, it, vi } from 'vitest';
import { captureOutput } from './capture.test-helpers.js';
import { Progress } from './progress.js';

const tty = (value: boolean) => {
  Object.defineProperty(process.stderr, 'isTTY', { value, configurable: true });
};
const wasTty = process.stderr.isTTY;

afterEach(() => {
  tty(wasTty);
  vi.useRealTimers();
  vi.restoreAllMocks();
});

describe('Progress', () => {
  it('draws on a terminal only once the work has taken a second, and clears its line', () => {
    tty(true);
    vi.useFakeTimers();
    const output = captureOutput();
    const progress = new Progress('evaluating', 100);
    progress.update(10);
    expect(output.err()).toBe('');
    vi.advanceTimersByTime(1_500);
    progress.update(50);
    expect(output.err()).toMatch(/^\revaluating \[#{15}\.{15}\] 50%$/);
    progress.done();
    expect(output.err()).toMatch(/\r\x1b\[K$/);
  });

  it('draws nothing when standard error is not a terminal', () => {
    tty(false);
    vi.useFakeTimers();
    const output = captureOutput();
    const progress = new Progress('evaluating', 100);
    vi.advanceTimersByTime(5_000);
    progress.update(50);
    progress.done();
    expect(output.err()).toBe('');
  });
});
