import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { deserialize } from 'node:v8';

/**
 * Values built at build time instead of on first use: tables that take a process tens of
 * milliseconds to compute (the character tables, the default keyword lexicons) and never change
 * for a given input.
 *
 * A module declares such a value with {@link prebuildable}, at load time, naming it and saying how
 * to compute it; that costs nothing when the build is not running. The build (`npm run build`)
 * imports every module, computes each declared value and stores it with `v8.serialize` in
 * `prebuilt/` beside this module, together with the input it was computed for. At run time
 * {@link prebuilt} returns the stored value only when it was computed for the same input (and the
 * same Unicode version: the tables fold and classify characters as the running Node does), and
 * `undefined` otherwise: the caller then computes the value itself, as it does when run from source
 * (tests, tsx), where there is no `prebuilt/` folder. Either way the value is the same.
 */

/** How the build computes a value: the input it is for, and the value. */
export interface Prebuildable {
  readonly name: string;
  readonly compute: () => { readonly input: string; readonly value: unknown };
}

/** The file the build writes for each value, and the run time reads. */
export interface PrebuiltFile {
  readonly unicode: string;
  readonly input: string;
  readonly value: unknown;
}

/**
 * @internal Where the build's values are read from: `prebuilt/` beside this module's code
 * (dist/prebuilt/, beside the bundle; there is none in src/). Tests point it elsewhere.
 */
export const prebuiltStore = { dir: new URL('./prebuilt/', import.meta.url) };

/**
 * The build's list of values to compute: set (to an array) while the build imports the modules;
 * {@link prebuildable} adds to it.
 */
export const PREBUILD_RECORDER = Symbol.for('triage.prebuildables');

/** Declares a value the build computes ahead. Call at module load. */
export function prebuildable(name: string, compute: Prebuildable['compute']): void {
  const recorder = (globalThis as { [PREBUILD_RECORDER]?: Prebuildable[] })[PREBUILD_RECORDER];
  recorder?.push({ name, compute });
}

/** The value the build computed for `name` and `input`, if it did. Reads the file each call. */
export function prebuilt<T>(name: string, input: string): T | undefined {
  const file = new URL(`${name}.bin`, prebuiltStore.dir);
  if (!existsSync(file)) return undefined;
  const stored = deserialize(readFileSync(fileURLToPath(file))) as PrebuiltFile;
  if (stored.unicode !== (process.versions.unicode ?? '') || stored.input !== input)
    return undefined;
  return stored.value as T;
}
