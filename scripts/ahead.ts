import { readdirSync } from 'node:fs';
import { join, relative } from 'node:path';
import { pathToFileURL } from 'node:url';
import { serialize } from 'node:v8';
import { Ajv } from 'ajv';
import standaloneModule from 'ajv/dist/standalone/index.js';
import type { TSchema } from 'typebox';
import { PREBUILD_RECORDER, type Prebuildable, type PrebuiltFile } from '../src/core/prebuilt.js';
import {
  CONFIG_AJV_OPTIONS,
  EMPTY_SUFFIX,
  SCHEMA_RECORDER,
  schemaId,
} from '../src/core/validate.js';

/**
 * What the build computes ahead of run time (see `src/core/validate.ts` and
 * `src/core/prebuilt.ts`): every module of the library is imported while `compileConfig` and
 * `prebuildable` record what they declare; then each configuration schema becomes ajv's
 * standalone code (one CommonJS file per schema, named by its hash) and each declared value a
 * `v8.serialize`d file.
 */

/** Modules never imported: the CLI's entry runs the CLI when imported. */
const SKIPPED = new Set(['cli/main.ts']);
/** Folders never imported: the console page's scripts run in a browser (they need a DOM). */
const SKIPPED_DIRS = ['console/ui/'];

/** What the library's modules declared while they were imported. */
export interface Declared {
  readonly schemas: TSchema[];
  readonly prebuildables: Prebuildable[];
}

/** Imports every module under `srcDir` (tests aside) and returns what they declared. */
export async function recordModules(srcDir: string): Promise<Declared> {
  const declared: Declared = { schemas: [], prebuildables: [] };
  const scope = globalThis as {
    [SCHEMA_RECORDER]?: TSchema[];
    [PREBUILD_RECORDER]?: Prebuildable[];
  };
  scope[SCHEMA_RECORDER] = declared.schemas;
  scope[PREBUILD_RECORDER] = declared.prebuildables;
  try {
    for (const file of modules(srcDir)) {
      const path = relative(srcDir, file);
      if (SKIPPED.has(path) || SKIPPED_DIRS.some((dir) => path.startsWith(dir))) continue;
      await import(pathToFileURL(file).href);
    }
  } finally {
    delete scope[SCHEMA_RECORDER];
    delete scope[PREBUILD_RECORDER];
  }
  return declared;
}

function modules(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true })
    .sort((a, b) => a.name.localeCompare(b.name))
    .flatMap((entry) => {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) return modules(path);
      const library = entry.name.endsWith('.ts') && !entry.name.endsWith('.d.ts');
      return library && !/\.(test|test-helpers|conformance)\.ts$/.test(entry.name) ? [path] : [];
    });
}

/**
 * The files of each distinct schema's validator, by name: ajv's standalone code (`<id>.cjs`,
 * compiled with the options `compileConfig` uses at run time, so it is the code ajv would compile
 * then) and, where `{}` is valid, what validating `{}` makes of it (`<id>.empty.json`).
 */
export function standaloneValidators(schemas: readonly TSchema[]): Map<string, string> {
  const ajv = new Ajv({ ...CONFIG_AJV_OPTIONS, code: { source: true } });
  const files = new Map<string, string>();
  for (const schema of schemas) {
    const id = schemaId(schema);
    if (files.has(`${id}.cjs`)) continue;
    const validate = ajv.compile(schema);
    files.set(`${id}.cjs`, standaloneCode(ajv, validate));
    const empty = {};
    if (validate(empty)) files.set(`${id}${EMPTY_SUFFIX}`, JSON.stringify(empty));
  }
  return files;
}

// ajv's standalone module is CommonJS: its function is the module's `default` property.
const standaloneCode = (standaloneModule as unknown as { default: typeof standaloneModule.default })
  .default;

/** Each declared value, computed and serialised, by name. Two declarations of a name fail. */
export function prebuiltFiles(prebuildables: readonly Prebuildable[]): Map<string, Buffer> {
  const files = new Map<string, Buffer>();
  for (const { name, compute } of prebuildables) {
    if (files.has(name)) throw new Error(`two prebuilt values are named ${name}`);
    const { input, value } = compute();
    const file: PrebuiltFile = { unicode: process.versions.unicode ?? '', input, value };
    files.set(`${name}.bin`, serialize(file));
  }
  return files;
}
