import Type, { type Static } from 'typebox';
import { ConfigError, type ConfigIssue } from '../core/errors.js';
import { compileConfig } from '../core/validate.js';
import { isReservedField, RESERVED_FIELDS } from './reserved-fields.js';

/**
 * The manifest of a pipeline classifier (`manifest.json` in the classifier's folder, beside its
 * `prompt.md`). Field names are snake_case, as in the original design, since they mirror the output
 * fields the model writes.
 */

/** Classifier names, field names and tool ids: lower snake_case. */
export const IDENTIFIER_PATTERN = '^[a-z][a-z0-9_]{0,63}$';
const Identifier = Type.String({ pattern: IDENTIFIER_PATTERN });

/** The roles a classifier may apply to: the role of the message being classified. */
export const TARGET_ROLES = ['user', 'assistant'] as const;

/** `user` for `classify` (a final user message), `assistant` for `inspect`. */
export type TargetRole = (typeof TARGET_ROLES)[number];

/** Field names a custom output must not use: the envelope's own. */
const RESERVED_NAMES: ReadonlySet<string> = new Set(['reason', 'certainty', ...RESERVED_FIELDS]);

/** The JSON shape of `manifest.json`. */
export const ManifestSchema = Type.Object(
  {
    /** Must equal the folder's name. */
    name: Identifier,
    /** The classifier's version (semantic versioning), recorded in the audit. */
    version: Type.String({ pattern: '^\\d+\\.\\d+\\.\\d+([-+][0-9A-Za-z.-]+)?$' }),
    /** One sentence: what the classifier decides. Shown to the model. */
    purpose: Type.String({ minLength: 1, maxLength: 500 }),
    /**
     * Start order in the worker pool (lower first) and tie-break of reserved-field merging (lower
     * wins). Classifiers without one start last and lose ties.
     */
    dispatch_order: Type.Optional(Type.Integer({ minimum: 0, maximum: 1_000_000 })),
    /** Which final messages the classifier runs on. Default `["user"]`. */
    applies_to: Type.Array(Type.Enum([...TARGET_ROLES]), {
      minItems: 1,
      uniqueItems: true,
      default: ['user'],
    }),
    /** The reserved fields the classifier may emit. */
    reserved_fields: Type.Array(Type.Enum([...RESERVED_FIELDS]), {
      uniqueItems: true,
      default: [],
    }),
    /** The tool ids `tools` may contain; required exactly when `tools` is a reserved field. */
    allowed_tools: Type.Optional(Type.Array(Identifier, { minItems: 1, uniqueItems: true })),
    /** The classifier's own output fields, as a JSON Schema object. */
    output_schema: Type.Optional(
      Type.Object(
        {
          type: Type.Literal('object'),
          properties: Type.Record(Identifier, Type.Object({}, { additionalProperties: true }), {
            additionalProperties: false,
          }),
          required: Type.Optional(Type.Array(Identifier, { uniqueItems: true })),
          description: Type.Optional(Type.String()),
        },
        { additionalProperties: false },
      ),
    ),
    /**
     * The output used when the classifier fails (timeout, error, invalid output): a reason, the
     * certainty `no_signal`, and any required custom fields. It must validate against the
     * classifier's own output schema.
     */
    fallback: Type.Object(
      {
        reason: Type.String({ minLength: 1, maxLength: 120 }),
        certainty: Type.Literal('no_signal', { default: 'no_signal' }),
      },
      { additionalProperties: true },
    ),
    /** The model to ask, overriding the provider's default (the configuration overrides this). */
    model: Type.Optional(Type.String({ minLength: 1 })),
    /** Most tokens the model may generate for this classifier. */
    max_tokens: Type.Optional(Type.Integer({ minimum: 16, maximum: 32_768 })),
  },
  { additionalProperties: false },
);

/** A validated manifest, defaults filled in. */
export type Manifest = Static<typeof ManifestSchema>;

const validateManifestShape = compileConfig(ManifestSchema, 'classifier manifest');

/**
 * Validates a parsed `manifest.json`: its shape, and the rules the schema cannot say (the name
 * matches the folder; `allowed_tools` exactly with `tools`; custom fields do not reuse reserved
 * names; required custom fields exist; the fallback sets no reserved field). Throws a
 * {@link ConfigError} naming `source` and every bad field. The output schema and the fallback's
 * custom fields are checked when the classifier is compiled.
 */
export function parseManifest(value: unknown, folderName: string, source: string): Manifest {
  const manifest = validateManifestShape(value, source);
  const issues: ConfigIssue[] = [];
  if (manifest.name !== folderName) {
    issues.push({ path: '/name', message: `must equal the folder name '${folderName}'` });
  }
  const declaresTools = manifest.reserved_fields.includes('tools');
  if (declaresTools && manifest.allowed_tools === undefined) {
    issues.push({ path: '/allowed_tools', message: 'is required when reserved_fields has tools' });
  }
  if (!declaresTools && manifest.allowed_tools !== undefined) {
    issues.push({ path: '/allowed_tools', message: 'applies only when reserved_fields has tools' });
  }
  const properties = manifest.output_schema?.properties ?? {};
  for (const field of Object.keys(properties)) {
    if (RESERVED_NAMES.has(field)) {
      issues.push({
        path: `/output_schema/properties/${field}`,
        message: isReservedField(field)
          ? 'is a reserved field: list it in reserved_fields instead'
          : 'is part of every output and cannot be redefined',
      });
    }
  }
  for (const field of manifest.output_schema?.required ?? []) {
    if (!Object.hasOwn(properties, field)) {
      issues.push({ path: '/output_schema/required', message: `names unknown field '${field}'` });
    }
  }
  for (const field of Object.keys(manifest.fallback)) {
    if (isReservedField(field)) {
      issues.push({
        path: `/fallback/${field}`,
        message: 'a fallback cannot set a reserved field (at no_signal it would never be used)',
      });
    }
  }
  if (issues.length > 0) throw new ConfigError(source, issues);
  return manifest;
}
