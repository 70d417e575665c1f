import { dirname, resolve } from 'node:path';
import type { Command } from 'commander';
import type { TierOptionsInput } from '../tier/options.js';
import { type TierWeights, tierWeights } from '../tier/weights.js';
import { addConfigsOption } from './eval-runner.js';
import { InputError, readConfigFile } from './io.js';

/** The flags that describe a tier router: options file and trained weights. */
export interface TierConfigFlags {
  /** Tier router options (JSON or YAML). */
  readonly config?: string;
  /** Trained weights (`triage train --out`); replace any named in the options. */
  readonly weights?: string;
}

/**
 * Adds `--config <file>` and `--weights <file>` to a command; with `compare`, `--config` may be
 * given twice (an evaluation then compares the two).
 */
export function addTierConfigOptions(command: Command, compare = false): Command {
  return (
    compare
      ? addConfigsOption(command, 'tier router options')
      : command.option('--config <file>', 'tier router options (JSON or YAML)')
  ).option('--weights <file>', 'trained weights (from `triage train --out`)');
}

/** The router options the flags describe, with trained weights read from their file. */
export function tierOptionsFromFlags(flags: TierConfigFlags): TierOptionsInput {
  let options: unknown = {};
  if (flags.config !== undefined) {
    options = withWeightsFile(readConfigFile(flags.config) ?? {}, dirname(flags.config));
  }
  if (flags.weights !== undefined) {
    if (options === null || typeof options !== 'object' || Array.isArray(options)) {
      throw new InputError(`${flags.config} must hold an object of tier router options`);
    }
    options = { ...options, weights: readTierWeights(flags.weights) };
  }
  return options as TierOptionsInput;
}

/** Reads and validates a weights file; a bad one is a `ConfigError` naming the file. */
export function readTierWeights(path: string): TierWeights {
  return tierWeights(readConfigFile(path), path);
}

/**
 * Tier options (or a server configuration's `tier` section) whose `weights` names a file: the
 * file read and validated, a relative path taken from `baseDir` (the configuration file's
 * folder). Anything else is returned as it is, for the options' own validation to judge.
 */
export function withWeightsFile(section: unknown, baseDir: string): unknown {
  if (section === null || typeof section !== 'object' || Array.isArray(section)) return section;
  const weights = (section as { weights?: unknown }).weights;
  if (typeof weights !== 'string') return section;
  return { ...section, weights: readTierWeights(resolve(baseDir, weights)) };
}
