import fc from 'fast-check';

/**
 * Runs before every test file of both suites.
 *
 * fast-check: every failed property prints its seed and shrink path (`{ seed: …, path: … }`).
 * `FC_SEED=<seed> npx vitest run <file> -t '<test>'` replays the runs of that seed for every
 * property that does not fix its own (a property that has failed once fixes its seed in place).
 */
const seed = process.env.FC_SEED;
if (seed !== undefined && seed !== '') {
  if (!/^-?\d+$/.test(seed))
    throw new Error(`FC_SEED must be an integer, not ${JSON.stringify(seed)}`);
  fc.configureGlobal({ ...fc.readConfigureGlobal(), seed: Number(seed) });
}
