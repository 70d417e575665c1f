import fc from 'fast-check';
import { describe, expect, it } from 'vitest';

// What the README promises of a failed property test: its output names the seed, and that seed
// (FC_SEED, read by test/setup.ts) replays the same runs.
describe('fast-check failures', () => {
  // Fails for about half of all integers: a run of 100 never misses it (odds 2^-100).
  const failing = fc.property(fc.integer(), (n) => {
    expect(n).toBeLessThan(1000);
  });
  const failureOf = (seed?: number) => {
    try {
      fc.assert(failing, seed === undefined ? {} : { seed });
    } catch (error) {
      return (error as Error).message;
    }
    throw new Error('the property did not fail');
  };

  it('name their seed, which replays the same runs', () => {
    const message = failureOf();
    const seed = Number(/\{ seed: (-?\d+),/.exec(message)?.[1]);
    expect(Number.isInteger(seed)).toBe(true);
    // The path of the failure (which runs and shrinks led to it) is the same on replay.
    const path = /path: "([\d:]+)"/.exec(message)?.[1];
    expect(path).toBeDefined();
    expect(failureOf(seed)).toContain(`path: "${path}"`);
  });

  it('run with the global configuration of the setup file', () => {
    const seed = process.env.FC_SEED;
    expect(fc.readConfigureGlobal().seed).toBe(seed ? Number(seed) : undefined);
  });
});
