import { type Certainty, certaintyScore } from '../core/certainty.js';
import { sortByDispatchOrder } from './order.js';
import { RESERVED_FIELDS, type ReservedField } from './reserved-fields.js';
import type { ClassifierStatus } from './status.js';
import type { ClassifierOutput } from './types.js';

/**
 * The aggregator (the original design, corrected): merges the outputs of one run.
 *
 * - Each output's certainty tag maps to a score; a reserved-field value counts only at or above
 *   the certainty threshold (default 0.65).
 * - When several classifiers emit the same reserved field, the highest score wins; ties go to the
 *   lower `dispatch_order`, classifiers without one last, then registry order.
 * - `final_reply` and `ack_reply` exclude each other across classifiers too: if both survive, the
 *   one with the higher score stays, and on a tie the `ack_reply` (the work continues, which is
 *   the safe reading).
 * - Custom fields are not merged: every output is surfaced whatever its certainty.
 * - The whole-run summary is the minimum and mean score over every classifier that ran,
 *   fallbacks included (they score 0).
 */

/** One classifier's contribution to the run. */
export interface ClassifierRun {
  readonly name: string;
  readonly version: string;
  readonly dispatchOrder: number | undefined;
  readonly output: ClassifierOutput;
  readonly status: ClassifierStatus;
}

/** One classifier's value for a reserved field. */
export interface FieldCandidate {
  readonly classifier: string;
  readonly value: unknown;
  readonly certainty: Certainty;
  readonly score: number;
  /** Whether the score reached the threshold. */
  readonly eligible: boolean;
}

/** How a reserved field was merged. */
export interface FieldMerge {
  /** The classifier whose value won; absent when no value reached the threshold. */
  readonly winner?: string;
  readonly value?: unknown;
  readonly certainty?: Certainty;
  readonly score?: number;
  /** Every classifier that emitted the field, in registry order. */
  readonly candidates: readonly FieldCandidate[];
  /** Set when the winner was set aside for the other reply field (see above). */
  readonly excluded_by?: 'final_reply' | 'ack_reply';
}

/** The merged run. */
export interface Aggregate {
  /** The reserved fields some classifier emitted. */
  readonly fields: Readonly<Partial<Record<ReservedField, FieldMerge>>>;
  /** Lowest and mean score over all classifiers of the run (0 and 0 when none ran). */
  readonly certainty: { readonly min: number; readonly avg: number };
}

/** Merges `runs` (in registry order) at `threshold`. */
export function aggregate(runs: readonly ClassifierRun[], threshold: number): Aggregate {
  const ordered = sortByDispatchOrder(runs);
  const fields: Partial<Record<ReservedField, FieldMerge>> = {};
  for (const field of RESERVED_FIELDS) {
    const candidates: FieldCandidate[] = [];
    let best: FieldCandidate | undefined;
    for (const run of ordered) {
      const value = run.output[field];
      if (value === undefined) continue;
      const score = certaintyScore(run.output.certainty);
      const candidate: FieldCandidate = {
        classifier: run.name,
        value,
        certainty: run.output.certainty,
        score,
        eligible: score >= threshold,
      };
      candidates.push(candidate);
      if (candidate.eligible && (best === undefined || score > best.score)) best = candidate;
    }
    if (candidates.length === 0) continue;
    fields[field] = best
      ? {
          winner: best.classifier,
          value: best.value,
          certainty: best.certainty,
          score: best.score,
          candidates,
        }
      : { candidates };
  }
  excludeReplies(fields);
  return { fields, certainty: summarise(runs) };
}

function excludeReplies(fields: Partial<Record<ReservedField, FieldMerge>>): void {
  const final = fields.final_reply;
  const ack = fields.ack_reply;
  if (final?.score === undefined || ack?.score === undefined) return;
  if (final.score > ack.score)
    fields.ack_reply = { candidates: ack.candidates, excluded_by: 'final_reply' };
  else fields.final_reply = { candidates: final.candidates, excluded_by: 'ack_reply' };
}

function summarise(runs: readonly ClassifierRun[]): Aggregate['certainty'] {
  if (runs.length === 0) return { min: 0, avg: 0 };
  let min = Number.POSITIVE_INFINITY;
  let sum = 0;
  for (const run of runs) {
    const score = certaintyScore(run.output.certainty);
    if (score < min) min = score;
    sum += score;
  }
  return { min, avg: Math.round((sum / runs.length) * 1e4) / 1e4 };
}
