import { describe, expect, it } from 'vitest';
import { blockFor, settlesWithin } from './timing.js';

describe('settlesWithin', () => {
  it('lets a deadline armed first win, even when the loop is stalled past both timers', async () => {
    const deadline = new Promise((_, reject) => setTimeout(reject, 20, new Error('deadline')));
    // Through layers of async functions, as a deadline reaches a caller in the code under test.
    const layer = async (inner: Promise<unknown>) => {
      try {
        return await inner;
      } finally {
        await Promise.resolve();
      }
    };
    const within = settlesWithin(layer(layer(deadline)), 30);
    blockFor(120); // both timers are overdue when the loop runs again
    expect(await within).toBe(true);
  });

  it('reports a deadline longer than the reference as late', async () => {
    const call = new Promise((resolve) => setTimeout(resolve, 60));
    const within = settlesWithin(call, 30);
    blockFor(120);
    expect(await within).toBe(false);
  });

  it('reports a promise that never settles as late', async () => {
    expect(await settlesWithin(new Promise(() => {}), 10)).toBe(false);
  });
});
