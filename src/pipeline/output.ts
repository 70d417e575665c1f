import type { ValidateFunction } from 'ajv';
import { describeOutputErrors, MAX_REASON_CHARS } from './output-schema.js';
import { normaliseTools } from './reserved-fields.js';
import type { ClassifierOutput } from './types.js';

/**
 * Checking a model's output before it is used: repairs that lose nothing of substance first
 * (departing from the original design: an over-long `reason` is truncated *before* validation, so it does not fail the
 * whole output; tool aliases become canonical ids; fields the classifier does not define are set
 * aside and named), then strict validation against the composed schema.
 */

/** What the checker needs of a classifier. */
export interface OutputChecker {
  readonly allowedTools: readonly string[];
  /** The fields an output may have (reason, certainty, reserved and custom). */
  readonly knownFields: ReadonlySet<string>;
  readonly validate: ValidateFunction;
}

/** The outcome of checking one output. */
export type CheckedOutput =
  | {
      readonly ok: true;
      readonly output: ClassifierOutput;
      /** Unknown top-level fields that were removed (names only). */
      readonly ignored: readonly string[];
    }
  | { readonly ok: false; readonly error: string };

/** Normalises and validates `value`; never throws. */
export function checkOutput(checker: OutputChecker, value: unknown): CheckedOutput {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    return { ok: false, error: `output must be a JSON object, got ${describeKind(value)}` };
  }
  const output: Record<string, unknown> = {};
  const ignored: string[] = [];
  for (const [field, fieldValue] of Object.entries(value)) {
    if (checker.knownFields.has(field)) output[field] = fieldValue;
    else ignored.push(field);
  }
  if (typeof output.reason === 'string' && output.reason.length > MAX_REASON_CHARS) {
    output.reason = truncate(output.reason, MAX_REASON_CHARS);
  }
  if (typeof output.certainty === 'string')
    output.certainty = output.certainty.trim().toLowerCase();
  if (output.tools !== undefined) output.tools = normaliseTools(output.tools, checker.allowedTools);
  if (!checker.validate(output)) {
    return {
      ok: false,
      error: `output does not match the schema: ${describeOutputErrors(checker.validate.errors)}`,
    };
  }
  return { ok: true, output: output as ClassifierOutput, ignored };
}

/** Cuts `text` to at most `max` UTF-16 units, never inside a surrogate pair, ending with `…`. */
export function truncate(text: string, max: number): string {
  if (text.length <= max) return text;
  let end = max - 1;
  const code = text.charCodeAt(end - 1);
  if (code >= 0xd800 && code <= 0xdbff) end--;
  return `${text.slice(0, end)}…`;
}

function describeKind(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  return `a ${typeof value}`;
}
