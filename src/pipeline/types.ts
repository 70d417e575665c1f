import type { Certainty } from '../core/certainty.js';

/**
 * What every classifier answers (the original design): a short `reason`, a `certainty` tag, and its
 * payload: the reserved fields it declares and its own custom fields, at the top level.
 */
export interface ClassifierOutput {
  readonly reason: string;
  readonly certainty: Certainty;
  readonly [field: string]: unknown;
}
