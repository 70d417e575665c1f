import type { ErrorObject, ValidateFunction } from 'ajv';
import { LRUCache } from 'lru-cache';
import { lazyAjv } from '../core/ajv.js';
import { CERTAINTY_TAGS } from '../core/certainty.js';
import { describeAjvErrors } from '../core/validate.js';
import type { JsonSchema } from '../llm/types.js';
import { type ReservedField, reservedFieldSchema } from './reserved-fields.js';

/**
 * The composed output schema of a classifier (the original design): `reason` + `certainty` + the
 * canonical sub-schema of each reserved field it declares + its own custom properties, closed to
 * anything else. Two forms are built from one description:
 *
 * - the **validation** schema, checked by ajv on every output before it is used;
 * - the **backend** schema, sent to the model as the structured output format. It leaves out what
 *   the runtime repairs before validating (an over-long `reason` is truncated, tool aliases are
 *   normalised, departing from the original design) and what constrained decoders reject (`not`), so a backend never fails
 *   a reply the runtime would have accepted.
 */

/** Longest `reason` kept, in characters; longer reasons are truncated before validation. */
export const MAX_REASON_CHARS = 120;

/** What the composition needs to know about a classifier. */
export interface OutputShape {
  readonly reservedFields: readonly ReservedField[];
  readonly allowedTools: readonly string[];
  /** The manifest's custom properties (JSON Schemas by field name). */
  readonly customProperties: Readonly<Record<string, JsonSchema>>;
  /** Custom fields the output must contain. */
  readonly customRequired: readonly string[];
}

/** Builds the validation (`forBackend` false) or backend schema of a classifier's output. */
export function composeOutputSchema(shape: OutputShape, forBackend: boolean): JsonSchema {
  const properties: Record<string, JsonSchema> = {
    reason: forBackend
      ? { type: 'string', description: `At most ${MAX_REASON_CHARS} characters.` }
      : { type: 'string', maxLength: MAX_REASON_CHARS },
    certainty: { type: 'string', enum: [...CERTAINTY_TAGS] },
  };
  for (const field of shape.reservedFields) {
    properties[field] = reservedFieldSchema(field, shape.allowedTools, forBackend);
  }
  Object.assign(properties, shape.customProperties);
  const schema: Record<string, unknown> = {
    type: 'object',
    properties,
    required: ['reason', 'certainty', ...shape.customRequired],
    additionalProperties: false,
  };
  if (
    !forBackend &&
    shape.reservedFields.includes('final_reply') &&
    shape.reservedFields.includes('ack_reply')
  ) {
    schema.not = { required: ['final_reply', 'ack_reply'] };
  }
  return schema;
}

/**
 * The ajv instance for output schemas. Strict, so a typo in a custom `output_schema` (`maxlenght`)
 * is a load-time error naming the manifest instead of a check that silently never runs.
 */
const ajv = lazyAjv({
  allErrors: true,
  strict: true,
  strictTypes: false,
  strictTuples: false,
  strictRequired: false,
  logger: false,
});

/** Compiled validators by schema text: a pipeline rebuilt with the same classifiers compiles nothing. */
const compiled = new LRUCache<string, ValidateFunction>({ max: 256 });

/** Compiles a schema, or returns ajv's complaint about it. */
export function compileOutputSchema(
  schema: JsonSchema,
): { validate: ValidateFunction; error?: undefined } | { validate?: undefined; error: string } {
  const key = JSON.stringify(schema);
  const known = compiled.get(key);
  if (known) return { validate: known };
  try {
    const validate = ajv().compile(schema);
    compiled.set(key, validate);
    return { validate };
  } catch (error) {
    return { error: error instanceof Error ? error.message : String(error) };
  }
}

/** Describes why an output failed validation: field paths and rules, never the output's text. */
export function describeOutputErrors(errors: readonly ErrorObject[] | null | undefined): string {
  const list = errors ?? [];
  const issues = describeAjvErrors(list.filter((error) => error.keyword !== 'not')).map(
    (issue) => `${issue.path || '(root)'} ${issue.message}`,
  );
  if (list.some((error) => error.keyword === 'not' && error.instancePath === '')) {
    issues.unshift('final_reply and ack_reply are mutually exclusive');
  }
  return issues.slice(0, 5).join('; ');
}
