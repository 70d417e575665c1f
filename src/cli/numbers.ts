import { InvalidArgumentError } from 'commander';

/**
 * Parsers of numeric command-line options. A bad value is commander's `InvalidArgumentError`, so
 * the usage error names the option too (`option '--limit <n>' argument 'x' is invalid. …`).
 */

/** An integer ≥ 1. */
export function integer(value: string): number {
  const number = Number(value);
  if (!(Number.isInteger(number) && number >= 1)) {
    throw new InvalidArgumentError(`not a positive integer: ${value}`);
  }
  return number;
}

/** An integer ≥ 0. */
export function count(value: string): number {
  const number = Number(value);
  if (!(Number.isInteger(number) && number >= 0)) {
    throw new InvalidArgumentError(`not an integer ≥ 0: ${value}`);
  }
  return number;
}

/** A number in [0, 1]. */
export function fraction(value: string): number {
  const number = Number(value);
  if (!(number >= 0 && number <= 1))
    throw new InvalidArgumentError(`not a number in [0, 1]: ${value}`);
  return number;
}

/** A number ≥ 0. */
export function nonNegative(value: string): number {
  const number = Number(value);
  if (!(number >= 0 && Number.isFinite(number))) {
    throw new InvalidArgumentError(`not a number ≥ 0: ${value}`);
  }
  return number;
}
