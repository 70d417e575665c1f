import type { Static, TObject } from 'typebox';
import { compileConfig } from '../../core/validate.js';

/**
 * Compiles the options validator of a classifier: defaults filled, unknown keys rejected, and a
 * `ConfigError` naming the classifier and the field (`invalid doom_loop options: /minRepetitions
 * must be >= 2`).
 */
export function classifierOptions<T extends TObject>(
  name: string,
  schema: T,
): (input: Partial<Static<T>> | undefined) => Static<T> {
  const validate = compileConfig(schema, `${name} options`);
  return (input) => validate({ ...input });
}
