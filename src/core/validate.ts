import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import type { ErrorObject, Options, ValidateFunction } from 'ajv';
import type { Static, TSchema } from 'typebox';
import { lazyAjv } from './ajv.js';
import { ConfigError, type ConfigIssue } from './errors.js';

/**
 * One mechanism for every configuration in triage: a TypeBox schema (JSON Schema with a static
 * type), validated by ajv. Validation fills in schema defaults, rejects unknown keys (schemas set
 * `additionalProperties: false`), and throws a {@link ConfigError} whose issues name each bad
 * field by path.
 *
 * Compiling a schema costs milliseconds (the tier router's options, ~200 ms), so nothing is
 * compiled when a module is imported: a validator is compiled on its first call. And the build
 * compiles triage's own schemas ahead of time (ajv's standalone code, one file per schema in
 * `validators/` beside this module, named by {@link schemaId}); a validator whose schema has such
 * a file loads it instead of compiling. The file is the code ajv would compile at run time, with
 * the same options, so validation is the same either way; a schema the build did not see (a
 * user's, or one changed since the build) is compiled at run time.
 */
export const CONFIG_AJV_OPTIONS = {
  allErrors: true,
  strict: true,
  useDefaults: true,
  coerceTypes: false,
} as const satisfies Options;

const configAjv = lazyAjv(CONFIG_AJV_OPTIONS);
const require = createRequire(import.meta.url);

/**
 * @internal Where the build's validators are read from: `validators/` beside this module's code
 * (dist/validators/, beside the bundle; there is none in src/). Tests point it elsewhere.
 */
export const precompiled = { dir: new URL('./validators/', import.meta.url) };

/** A compiled configuration validator. */
export type ConfigValidator<T extends TSchema> = (value: unknown, source?: string) => Static<T>;

/**
 * Returns a function that validates (and fills defaults into) a value, returning it typed, or
 * throws a {@link ConfigError} naming `source` and every bad field. The schema is compiled (or its
 * precompiled validator loaded) on the first call.
 *
 * Until then, an empty object (`createTierRouter()`, a CLI command without `--config`) is filled
 * from the build's record of what validating `{}` gives ({@link EMPTY_SUFFIX}): the same defaults,
 * in the same order, without loading a validator (the tier router's is ~350 KB of code).
 */
export function compileConfig<T extends TSchema>(schema: T, source: string): ConfigValidator<T> {
  schemaRecorder()?.push(schema);
  let id: string | undefined;
  let validate: ValidateFunction<Static<T>> | undefined;
  let filled: string | null | undefined;
  return (value: unknown, where = source) => {
    if (!validate) {
      id ??= schemaId(schema);
      if (isEmptyObject(value)) {
        filled ??= readIfExists(new URL(`${id}${EMPTY_SUFFIX}`, precompiled.dir));
        if (filled !== null) return Object.assign(value, JSON.parse(filled)) as Static<T>;
      }
      validate = configValidator(id, schema);
    }
    if (validate(value)) return value;
    throw new ConfigError(where, describeAjvErrors(validate.errors ?? []));
  };
}

/** The file name (without extension) of a schema's precompiled validator: a hash of its JSON. */
export function schemaId(schema: TSchema): string {
  // node:crypto loaded here, not at import: a process that validates nothing never loads it.
  const { createHash } = process.getBuiltinModule('node:crypto');
  return createHash('sha256').update(JSON.stringify(schema)).digest('hex').slice(0, 16);
}

/** The suffix of the file holding, as JSON, what validating `{}` turns it into. */
export const EMPTY_SUFFIX = '.empty.json';

function configValidator<T>(id: string, schema: TSchema): ValidateFunction<T> {
  const file = new URL(`${id}.cjs`, precompiled.dir);
  if (existsSync(file)) return require(fileURLToPath(file)) as ValidateFunction<T>;
  return configAjv().compile(schema) as ValidateFunction<T>;
}

/** An object ajv would see no property in: `{}`, or `Object.create(null)`. */
function isEmptyObject(value: unknown): value is object {
  if (typeof value !== 'object' || value === null) return false;
  const prototype = Object.getPrototypeOf(value);
  if (prototype !== Object.prototype && prototype !== null) return false;
  for (const _ in value) return false;
  return true;
}

function readIfExists(file: URL): string | null {
  return existsSync(file) ? readFileSync(fileURLToPath(file), 'utf8') : null;
}

/**
 * The build's list of schemas: while the build imports triage's modules to precompile their
 * validators, it sets this global, and {@link compileConfig} adds each schema to it.
 */
export const SCHEMA_RECORDER = Symbol.for('triage.configSchemas');

function schemaRecorder(): TSchema[] | undefined {
  return (globalThis as { [SCHEMA_RECORDER]?: TSchema[] })[SCHEMA_RECORDER];
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
