import type { Outcome } from '../eval/routing.js';
import type { TierRequest } from '../tier/extract.js';
import { isTier, TIERS, type Tier } from '../tier/tiers.js';
import type { TrainingRow } from '../tier/train.js';
import { type EvalInputFlags, readEvalRecords } from './eval-input.js';
import { InputError } from './io.js';

/**
 * Rows of the routing commands (`triage eval routing`, `triage calibrate`, `triage train`): a
 * prompt, and what is known about it.
 *
 * - The prompt: `prompt` (text), `messages` (an OpenAI chat request's messages) or `input` (text,
 *   or an object with `messages`, as in `triage eval tier` files).
 * - Outcomes: `weak_correct` and `strong_correct` (true/false or 1/0), or `weak_score` and
 *   `strong_score` (any numbers on one scale, e.g. a judge's 1–10).
 * - Tier labels: `expected`, a tier or a list of acceptable tiers.
 */

/** One parsed row. */
export interface RoutingRow extends TrainingRow {
  /** The 1-based line of the file. */
  readonly line: number;
}

/** What the command needs of each row. */
export type RowNeeds = 'prompt' | 'outcome' | 'label';

/**
 * Reads every row of `file` (JSONL, a JSON array or CSV by extension; `-` for standard input),
 * as `input` asks (layout, field names, `--limit`, `--sample`); a bad row is an `InputError`
 * naming the file and line.
 */
export async function readRoutingRows(
  file: string,
  needs: RowNeeds,
  groupBy?: string,
  input: EvalInputFlags = {},
): Promise<RoutingRow[]> {
  const rows: RoutingRow[] = [];
  for (const { where, line, value } of await readEvalRecords(file, input)) {
    try {
      rows.push({ ...parseRoutingRow(value, needs, groupBy), line });
    } catch (error) {
      throw new InputError(`${where}: ${(error as Error).message}`);
    }
  }
  return rows;
}

/** Parses one row (throws an `Error` saying what is wrong with it). */
export function parseRoutingRow(value: unknown, needs: RowNeeds, groupBy?: string): TrainingRow {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    throw new Error('each row must be an object');
  }
  const row = value as Record<string, unknown>;
  const input = promptOf(row);
  const outcome = outcomeOf(row);
  const tiers = tiersOf(row);
  if (needs === 'outcome' && !outcome) {
    throw new Error(
      'needs "weak_correct" and "strong_correct" (true/false), or "weak_score" and "strong_score"',
    );
  }
  if (needs === 'label' && !outcome && !tiers) {
    throw new Error(
      'needs tier labels ("expected") or outcomes ("weak_correct", "strong_correct")',
    );
  }
  const group = groupBy === undefined ? undefined : row[groupBy];
  return {
    input,
    ...(outcome ? { outcome } : {}),
    ...(tiers && needs !== 'outcome' ? { tiers } : {}),
    ...(group === undefined || group === null ? {} : { group: String(group) }),
  };
}

function promptOf(row: Record<string, unknown>): TierRequest | string {
  if (typeof row.prompt === 'string') return row.prompt;
  if (Array.isArray(row.messages)) return { messages: row.messages } as TierRequest;
  const input = row.input;
  if (typeof input === 'string') return input;
  if (
    input !== null &&
    typeof input === 'object' &&
    Array.isArray((input as { messages?: unknown }).messages)
  ) {
    return input as TierRequest;
  }
  throw new Error('needs "prompt" (text), "messages" (chat messages) or "input"');
}

function outcomeOf(row: Record<string, unknown>): Outcome | undefined {
  if ('weak_correct' in row || 'strong_correct' in row) {
    return { weak: correctness(row, 'weak_correct'), strong: correctness(row, 'strong_correct') };
  }
  if ('weak_score' in row || 'strong_score' in row) {
    return { weak: finite(row, 'weak_score'), strong: finite(row, 'strong_score') };
  }
  return undefined;
}

function correctness(row: Record<string, unknown>, key: string): number {
  // CSV gives every value as text.
  const value = typeof row[key] === 'string' ? textValue(row[key]) : row[key];
  if (typeof value === 'boolean') return value ? 1 : 0;
  if (value === 0 || value === 1) return value;
  throw new Error(`"${key}" must be true/false or 1/0`);
}

function finite(row: Record<string, unknown>, key: string): number {
  const value = typeof row[key] === 'string' ? textValue(row[key]) : row[key];
  if (typeof value === 'number' && Number.isFinite(value)) return value;
  throw new Error(`"${key}" must be a number`);
}

function tiersOf(row: Record<string, unknown>): Tier[] | undefined {
  if (!('expected' in row)) return undefined;
  const expected = row.expected;
  const list = Array.isArray(expected) ? expected : [expected];
  if (list.length === 0 || !list.every(isTier)) {
    throw new Error(`"expected" must be one of ${TIERS.join(', ')}, or a non-empty list of them`);
  }
  return list;
}

/** A CSV cell as the JSON value it spells (`1`, `true`), or the text itself. */
function textValue(text: string): unknown {
  const trimmed = text.trim();
  if (trimmed === 'true' || trimmed === 'false') return trimmed === 'true';
  return trimmed !== '' && Number.isFinite(Number(trimmed)) ? Number(trimmed) : text;
}
