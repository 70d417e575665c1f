import { Ajv, type ErrorObject, type ValidateFunction } from 'ajv';
import type { Static, TSchema } from 'typebox';
import { ConfigError, type ConfigIssue } from './errors.js';

/**
 * One mechanism for every configuration in triage: a TypeBox schema (JSON Schema with a static
 * type), compiled once by ajv. Validation fills in schema defaults, rejects unknown keys (schemas
 * set `additionalProperties: false`), and throws a {@link ConfigError} whose issues name each bad
 * field by path.
 */
const ajv = new Ajv({ allErrors: true, strict: true, useDefaults: true, coerceTypes: false });

/** A compiled configuration validator. */
export type ConfigValidator<T extends TSchema> = (value: unknown, source?: string) => Static<T>;

/**
 * Compiles `schema` once and returns a function that validates (and fills defaults into) a value,
 * returning it typed, or throws a {@link ConfigError} naming `source` and every bad field.
 */
export function compileConfig<T extends TSchema>(schema: T, source: string): ConfigValidator<T> {
  const validate = ajv.compile(schema) as ValidateFunction<Static<T>>;
  return (value: unknown, where = source) => {
    if (validate(value)) return value;
    throw new ConfigError(where, describeAjvErrors(validate.errors ?? []));
  };
}

/**
 * Turns ajv's errors into one issue per bad field, in words a user can act on: unknown keys are
 * named by their own path, and the branch-by-branch noise of a failed union collapses into
 * "must be one of …".
 */
export function describeAjvErrors(errors: readonly ErrorObject[]): ConfigIssue[] {
  const unionPaths = new Set<string>();
  for (const error of errors) {
    if (error.keyword === 'anyOf' || error.keyword === 'oneOf') unionPaths.add(error.schemaPath);
  }
  const issues: ConfigIssue[] = [];
  const seen = new Set<string>();
  const push = (path: string, message: string) => {
    const key = `${path}\u0000${message}`;
    if (seen.has(key)) return;
    seen.add(key);
    issues.push({ path, message });
  };
  for (const error of errors) {
    if (isInsideUnion(error.schemaPath, unionPaths)) continue;
    switch (error.keyword) {
      case 'additionalProperties':
        push(
          `${error.instancePath}/${String(error.params.additionalProperty)}`,
          'is not a known field',
        );
        break;
      case 'required':
        push(`${error.instancePath}/${String(error.params.missingProperty)}`, 'is required');
        break;
      case 'anyOf':
      case 'oneOf': {
        const allowed = unionConstants(errors, error.schemaPath);
        push(
          error.instancePath,
          allowed ? `must be one of: ${allowed}` : 'does not match any allowed form',
        );
        break;
      }
      case 'enum':
        push(
          error.instancePath,
          `must be one of: ${(error.params.allowedValues as unknown[]).map(show).join(', ')}`,
        );
        break;
      default:
        push(error.instancePath, error.message ?? `fails ${error.keyword}`);
    }
  }
  return issues;
}

function isInsideUnion(schemaPath: string, unionPaths: ReadonlySet<string>): boolean {
  for (const union of unionPaths) {
    if (schemaPath !== union && schemaPath.startsWith(`${union}/`)) return true;
  }
  return false;
}

function unionConstants(errors: readonly ErrorObject[], unionPath: string): string | undefined {
  const values: string[] = [];
  for (const error of errors) {
    if (!error.schemaPath.startsWith(`${unionPath}/`)) continue;
    if (error.keyword === 'const') values.push(show(error.params.allowedValue));
    else if (error.keyword === 'enum') {
      for (const v of error.params.allowedValues as unknown[]) values.push(show(v));
    } else if (error.keyword !== 'type') return undefined;
  }
  return values.length > 0 ? [...new Set(values)].join(', ') : undefined;
}

function show(value: unknown): string {
  return typeof value === 'string' ? value : JSON.stringify(value);
}
