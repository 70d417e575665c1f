import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { Ajv } from 'ajv';
import fc from 'fast-check';
import type { TSchema } from 'typebox';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { contextRouterConfig } from '../src/context/config.js';
import { SignalMatcher } from '../src/context/signal-matcher.js';
import { DEFAULT_SIGNALS } from '../src/context/signals.js';
import { prebuilt, prebuiltStore } from '../src/core/prebuilt.js';
import {
  CONFIG_AJV_OPTIONS,
  compileConfig,
  describeAjvErrors,
  EMPTY_SUFFIX,
  precompiled,
  schemaId,
} from '../src/core/validate.js';
import { compileBuiltIn } from '../src/injection/lexicon.js';
import { loadPolicyLexicon } from '../src/injection/policy-lexicon.js';
import { charTables } from '../src/text/chars.js';
import type { Lexicon } from '../src/text/lexicon.js';
import type { LexiconScan } from '../src/text/lexicon-scan.js';
import { buildTierLexicon } from '../src/tier/lexicon.js';
import { TierOptionsSchema, tierOptions } from '../src/tier/options.js';

/**
 * What the build computes ahead (scripts/ahead.ts) must behave exactly as what the library
 * computes at run time: these tests build it into a folder of their own, as `npm run build`
 * does into dist/, and compare. They never read dist/, which may be stale or missing.
 */

const require = createRequire(import.meta.url);
const root = fileURLToPath(new URL('..', import.meta.url));
let dir: string;
let schemas: TSchema[];
let files: (folder: string) => string[];

beforeAll(() => {
  // Inside the project, so that the validators' `require('ajv/…')` finds the project's ajv.
  mkdirSync(join(root, 'node_modules/.cache'), { recursive: true });
  dir = mkdtempSync(join(root, 'node_modules/.cache/triage-ahead-'));
  const build = spawnSync(
    process.execPath,
    ['--import', 'tsx', 'scripts/build-ahead.ts', dir, '--schemas'],
    { cwd: root, encoding: 'utf8' },
  );
  if (build.status !== 0) throw new Error(`build-ahead failed: ${build.stderr}`);
  schemas = Object.values(JSON.parse(readFileSync(join(dir, 'schemas.json'), 'utf8')));
  files = (folder) => readdirSync(join(dir, folder));
}, 120_000);

afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** The result of validating a copy of `value`: whether it passed, the copy, the issues. */
function outcome(validate: (value: unknown) => boolean, errors: () => unknown, value: unknown) {
  const copy = structuredClone(value);
  const ok = validate(copy);
  const issues = ok
    ? []
    : describeAjvErrors((errors() as Parameters<typeof describeAjvErrors>[0]) ?? []);
  return { ok, copy, issues };
}

describe('precompiled configuration validators', () => {
  it('finds the schemas of the library, the tier router options among them', () => {
    expect(schemas.length).toBeGreaterThan(30);
    expect(schemas.map(schemaId)).toContain(schemaId(tierSchema()));
  });

  it('validate every input as ajv compiling the schema at run time does', () => {
    const runtime = new Ajv(CONFIG_AJV_OPTIONS);
    const pairs = schemas.map((schema) => {
      const id = schemaId(schema);
      const standalone = require(join(dir, 'validators', `${id}.cjs`)) as {
        (value: unknown): boolean;
        errors?: unknown;
      };
      const compiled = runtime.compile(schema);
      const filled = {};
      compiled(filled);
      return { schema, standalone, compiled, filled };
    });
    // Inputs near valid ones (a default config with one field replaced) and arbitrary JSON.
    const input = fc.oneof(
      fc.jsonValue(),
      fc.record({ path: fc.array(fc.nat(), { maxLength: 4 }), value: fc.jsonValue() }),
    );
    fc.assert(
      fc.property(fc.nat({ max: pairs.length - 1 }), input, (index, raw) => {
        const { standalone, compiled, filled } = pairs[index]!;
        const value = isEdit(raw) ? edit(filled, raw.path, raw.value) : raw;
        const ahead = outcome(standalone, () => standalone.errors, value);
        const atRunTime = outcome(compiled, () => compiled.errors, value);
        expect(ahead).toEqual(atRunTime);
      }),
      { numRuns: 2000 },
    );
  });

  it('record what validating {} gives, wherever {} is valid', () => {
    const runtime = new Ajv(CONFIG_AJV_OPTIONS);
    for (const schema of schemas) {
      const empty = {};
      const valid = runtime.compile(schema)(empty);
      const file = `${schemaId(schema)}${EMPTY_SUFFIX}`;
      expect(files('validators').includes(file)).toBe(valid);
      if (valid) {
        const recorded = readFileSync(join(dir, 'validators', file), 'utf8');
        expect(recorded).toBe(JSON.stringify(empty));
      }
    }
  });

  it('are what compileConfig uses, and give the same results as compiling', () => {
    const schema = tierSchema();
    const file = join(dir, 'validators', `${schemaId(schema)}.cjs`);
    const atRunTime = compileConfig(schema, 'tier router options');
    const saved = precompiled.dir;
    precompiled.dir = pathToFileURL(join(dir, 'validators/'));
    try {
      delete require.cache[file];
      const ahead = compileConfig(schema, 'tier router options');
      // {} is filled from the recorded defaults, without loading the validator's code.
      expect(ahead({})).toEqual(atRunTime({}));
      expect(Object.keys(ahead({}) as object)).toEqual(Object.keys(atRunTime({}) as object));
      expect(require.cache[file]).toBeUndefined();
      const input = { boundaries: { MEDIUM: 0.1 }, languages: ['en'] };
      expect(ahead(structuredClone(input))).toEqual(atRunTime(structuredClone(input)));
      expect(require.cache[file]).toBeDefined();
      const bad = { boundaries: { MEDIUM: 'high' }, colour: 'red' };
      expect(() => ahead(bad)).toThrow(/invalid tier router options: .*\/boundaries\/MEDIUM/);
      expect(errorOf(() => ahead(bad))).toEqual(errorOf(() => atRunTime(bad)));
    } finally {
      precompiled.dir = saved;
    }
  });

  it('are not used for a schema that differs from the one they were built for', () => {
    const schema = tierSchema();
    const changed = { ...schema, description: 'changed since the build' } as TSchema;
    expect(schemaId(changed)).not.toBe(schemaId(schema));
    expect(files('validators')).toContain(`${schemaId(schema)}.cjs`);
    expect(files('validators')).not.toContain(`${schemaId(changed)}.cjs`);
  });
});

describe('values built ahead', () => {
  it('are the character tables the run time builds', () => {
    withStore(() => {
      const stored = prebuilt<ReturnType<typeof charTables>>('char-tables', '');
      expect(stored).toBeDefined();
      const tables = charTables();
      expect(bytesOf(stored!.fold).equals(bytesOf(tables.fold))).toBe(true);
      expect(bytesOf(stored!.classOf).equals(bytesOf(tables.classOf))).toBe(true);
    });
  });

  it('are used only for the input they were computed for', () => {
    withStore(() => {
      expect(prebuilt('char-tables', 'another input')).toBeUndefined();
      expect(prebuilt('no-such-value', '')).toBeUndefined();
    });
  });

  it('give a tier lexicon that finds exactly what the compiled one finds', () => {
    const options = tierOptions();
    const compiled = buildTierLexicon(options).lexicon;
    const restored = withStore(() => buildTierLexicon(options).lexicon);
    expect(restored).not.toBe(compiled);
    expect(restored.entries).toEqual(compiled.entries);
    const words = compiled.entries.slice(0, 400).map((entry) => entry.phrase.replace(/\*/g, ''));
    const text = fc
      .array(
        fc.oneof(fc.constantFrom(...words), fc.string(), fc.constantFrom(' ', '\n', '-', '. ')),
        {
          maxLength: 30,
        },
      )
      .map((parts) => parts.join(' '));
    fc.assert(
      fc.property(text, (t) => {
        expect(found(restored.scan(t))).toEqual(found(compiled.scan(t)));
      }),
      { numRuns: 500 },
    );
  });

  it.each([
    ['plain', false, false],
    ['guarded', false, true],
    ['context', true, true],
  ])(
    'give the %s injection lexicon and its per-entry tables as compiled',
    (_, context, guarded) => {
      const compiled = compileBuiltIn(context, guarded);
      const restored = withStore(() => compileBuiltIn(context, guarded));
      expect(restored.lexicon).not.toBe(compiled.lexicon);
      const { lexicon: a, ...tablesA } = compiled;
      const { lexicon: b, ...tablesB } = restored;
      expect(tablesB).toEqual(tablesA);
      expectSameMatches(b, a);
    },
  );

  it('give the policy lexicon of system prompts as compiled', () => {
    const compiled = loadPolicyLexicon();
    const restored = withStore(() => loadPolicyLexicon());
    expect(restored.lexicon).not.toBe(compiled.lexicon);
    const { lexicon: a, ...tablesA } = compiled;
    const { lexicon: b, ...tablesB } = restored;
    expect(tablesB).toEqual(tablesA);
    expectSameMatches(b, a);
  });

  it('give a context signal matcher that finds exactly what the compiled one finds', () => {
    const compiled = new SignalMatcher(DEFAULT_SIGNALS);
    const restored = withStore(() => new SignalMatcher(DEFAULT_SIGNALS));
    const phrases = Object.values(DEFAULT_SIGNALS).flatMap((signal) => signal.phrases);
    const flagsOf = (matcher: SignalMatcher, text: string) => {
      const flags = new Uint8Array(matcher.names.length);
      matcher.match(text, text.length, flags);
      return [...flags];
    };
    fc.assert(
      fc.property(textOf(phrases.map((phrase) => phrase.replace(/[()|*\\]/g, ' '))), (t) => {
        expect(flagsOf(restored, t)).toEqual(flagsOf(compiled, t));
      }),
      { numRuns: 300 },
    );
  });

  it('give the default context router configuration as validating it gives, a fresh copy each time', () => {
    const restored = withStore(() => contextRouterConfig({}));
    expect(restored).toEqual(contextRouterConfig({}));
    const again = withStore(() => contextRouterConfig({}));
    expect(again).not.toBe(restored);
    // Still a configuration of this module: modified and passed back, it is checked as it is.
    delete (restored.signals as Record<string, unknown>).definition;
    expect(() => contextRouterConfig(restored)).toThrow(/definition/);
  });

  it('are not used when the keywords differ from the defaults', () => {
    const options = tierOptions({ languages: ['en'] });
    const restored = withStore(() => buildTierLexicon(options).lexicon);
    expect(restored.entries).toEqual(buildTierLexicon(options).lexicon.entries);
    expect(restored.entries.length).toBeLessThan(
      buildTierLexicon(tierOptions()).lexicon.entries.length,
    );
  });
});

function tierSchema(): TSchema {
  return TierOptionsSchema;
}

function isEdit(value: unknown): value is { path: number[]; value: unknown } {
  return typeof value === 'object' && value !== null && 'path' in value && 'value' in value;
}

/** `base` with the value at a path (each step picks a key or an index by number) replaced. */
function edit(base: unknown, path: readonly number[], value: unknown): unknown {
  const copy = structuredClone(base);
  if (path.length === 0 || typeof copy !== 'object' || copy === null) return value;
  let node = copy as Record<string, unknown>;
  for (let i = 0; i < path.length; i++) {
    const keys = Object.keys(node);
    if (keys.length === 0) break;
    const key = keys[path[i]! % keys.length]!;
    const next = node[key];
    if (i === path.length - 1 || typeof next !== 'object' || next === null) {
      node[key] = value;
      break;
    }
    node = next as Record<string, unknown>;
  }
  return copy;
}

function errorOf(run: () => unknown): unknown {
  try {
    run();
  } catch (error) {
    return { message: (error as Error).message, issues: (error as { issues?: unknown }).issues };
  }
  return undefined;
}

/** The bytes of a typed array (not of the whole buffer it may share with others). */
function bytesOf(array: ArrayBufferView): Buffer {
  return Buffer.from(array.buffer, array.byteOffset, array.byteLength);
}

/** Texts of phrases from `words`, arbitrary strings and separators. */
function textOf(words: readonly string[]) {
  return fc
    .array(
      fc.oneof(fc.constantFrom(...words), fc.string(), fc.constantFrom(' ', '\n', '-', '. ')),
      { maxLength: 30 },
    )
    .map((parts) => parts.join(' '));
}

/** Checks that two lexicons have the same entries and find the same in random texts. */
function expectSameMatches(restored: Lexicon, compiled: Lexicon): void {
  expect(restored.entries).toEqual(compiled.entries);
  const words = compiled.entries.map((entry) => entry.phrase.replace(/\*/g, ''));
  fc.assert(
    fc.property(textOf(words), (t) => {
      expect(found(restored.scan(t))).toEqual(found(compiled.scan(t)));
    }),
    { numRuns: 300 },
  );
}

function withStore<T>(run: () => T): T {
  const saved = prebuiltStore.dir;
  prebuiltStore.dir = pathToFileURL(join(dir, 'prebuilt/'));
  try {
    return run();
  } finally {
    prebuiltStore.dir = saved;
  }
}

function found(scan: LexiconScan) {
  const hits = [];
  for (let k = 0; k < scan.hitCount; k++) {
    hits.push([scan.hitEntry(k).id, scan.hitOccurrences(k), scan.hitIndex(k)]);
  }
  return { hits, stats: { ...scan.stats } };
}
