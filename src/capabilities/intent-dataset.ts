import { readFileSync } from 'node:fs';
import Type from 'typebox';
import { ConfigError } from '../core/errors.js';
import { compileConfig } from '../core/validate.js';
import type { CapabilityInput } from './capability.js';
import type { LabelledTask } from './evaluate.js';
import { hashString, seededRandom, shuffled } from './random.js';

/**
 * Labelled intent data sets (CLINC150's layout: `{ "<split>": [[text, intent], ...], ... }`) turned
 * into a capability registry and labelled tasks, to measure capability selection on public data:
 * each intent becomes a capability whose guide holds a few of its training utterances.
 */

/** One labelled utterance: `[text, intent]`. */
export type IntentPair = readonly [string, string];

/** The splits of a data set by name (`train`, `val`, `test`, `oos_test`, …). */
export type IntentDataset = Readonly<Record<string, readonly IntentPair[]>>;

const DatasetSchema = Type.Record(
  Type.String(),
  Type.Array(Type.Tuple([Type.String(), Type.String()])),
);
const validateDataset = compileConfig(DatasetSchema, 'intent data set');

/** Reads and validates a data set file. Throws a {@link ConfigError} naming what is wrong. */
export function readIntentDataset(path: string): IntentDataset {
  let value: unknown;
  try {
    value = JSON.parse(readFileSync(path, 'utf8'));
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    const message = code
      ? `cannot be read (${code})`
      : `is not valid JSON: ${(error as Error).message}`;
    throw new ConfigError(path, [{ path: '', message }]);
  }
  return validateDataset(value, path);
}

/** Validates a data set already parsed (from standard input, say); `source` names it in errors. */
export function intentDataset(value: unknown, source: string): IntentDataset {
  return validateDataset(value, source);
}

/** Options of {@link capabilitiesFromIntents}. */
export interface IntentRegistryOptions {
  /** Examples per intent, drawn from its utterances. Default 5. */
  readonly examplesPerIntent?: number;
  /** Seed of the draw: the same seed gives the same examples. Default 0. */
  readonly seed?: number;
  /** Intents that are not capabilities (e.g. CLINC150's out-of-scope `oos`). Default `['oos']`. */
  readonly exclude?: readonly string[];
}

/**
 * One capability per intent (sorted by name), each with `examplesPerIntent` of its utterances
 * as positive examples, drawn at random under `seed`. Each intent gets its own stream of the seed,
 * so adding an intent does not change the examples of the others.
 */
export function capabilitiesFromIntents(
  pairs: readonly IntentPair[],
  options: IntentRegistryOptions = {},
): CapabilityInput[] {
  const perIntent = options.examplesPerIntent ?? 5;
  if (!(Number.isInteger(perIntent) && perIntent >= 1)) {
    throw new RangeError(`examplesPerIntent must be a positive integer, got ${perIntent}`);
  }
  const seed = options.seed ?? 0;
  const exclude = new Set(options.exclude ?? ['oos']);
  const byIntent = new Map<string, string[]>();
  for (const [text, intent] of pairs) {
    if (exclude.has(intent)) continue;
    const texts = byIntent.get(intent);
    if (texts) texts.push(text);
    else byIntent.set(intent, [text]);
  }
  return [...byIntent.keys()].sort().map((intent) => {
    const random = seededRandom(hashString(intent, seed));
    const label = intent.replace(/_/g, ' ');
    return {
      name: intent,
      description: `Handles "${label}" requests.`,
      guide: {
        instructions: `Activate when the user's request is about: ${label}.`,
        examples: shuffled(byIntent.get(intent)!, random)
          .slice(0, perIntent)
          .map((query) => ({ query, result: true, reason: `a "${label}" request` })),
      },
    };
  });
}

/** Labelled tasks from pairs: each expects its intent, or nothing for an excluded intent. */
export function labelledTasks(
  pairs: readonly IntentPair[],
  exclude: readonly string[] = ['oos'],
): LabelledTask[] {
  const none = new Set(exclude);
  return pairs.map(([text, intent]) => ({ text, expected: none.has(intent) ? [] : [intent] }));
}
