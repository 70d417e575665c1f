import fc from 'fast-check';
import { describe, expect, it } from 'vitest';

// What the README promises of a failed property test: its output names the seed, and that seed
// (FC_SEED, read by test/setup.ts) replays the same runs.
describe('fast-check failures', () => {
  const failing = fc.property(fc.integer(), (n) => {
    expect(n % 97).not.toBe(13);
  });
  const failureOf = (seed?: number) => {
    try {
      fc.assert(failing, seed === undefined ? {} : { seed });
    } catch (error) {
      return (error as Error).message;
    }
    throw new Error('the property did not fail');
  };

  it('name their seed, which replays the same counterexample', () => {
    const message = failureOf();
    const seed = Number(/\{ seed: (-?\d+),/.exec(message)?.[1]);
    expect(Number.isInteger(seed)).toBe(true);
    const counterexample = /Counterexample: (.*)/.exec(message)?.[1];
    expect(counterexample).toBeDefined();
    expect(failureOf(seed)).toContain(`Counterexample: ${counterexample}`);
  });

  it('run with the global configuration of the setup file', () => {
    const seed = process.env.FC_SEED;
    expect(fc.readConfigureGlobal().seed).toBe(seed ? Number(seed) : undefined);
  });
});
