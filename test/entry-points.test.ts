import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import ts from 'typescript';
import { beforeAll, describe, expect, it } from 'vitest';
import { loadedModules, ROOT, SERVER_STACK } from './loaded-modules.js';

/**
 * The package's entry points (package.json `exports`): each documented subpath exists, maps to
 * its source, and loads no more than it should. That the built package resolves them is checked
 * on a packed and installed copy by `npm run test:package` (it needs a build).
 */

interface Target {
  readonly types: string;
  readonly import: string;
}

const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as {
  name: string;
  exports: Record<string, Target | string>;
  files: string[];
  peerDependencies?: Record<string, string>;
  peerDependenciesMeta?: Record<string, { optional?: boolean }>;
};

const DOCUMENTED = [
  '.',
  './tier',
  './injection',
  './context',
  './capabilities',
  './guidance',
  './pipeline',
  './llm',
  './server',
  './testing',
  './ai-sdk',
  './openai-agents',
  './langchain',
];

/** The framework adapters: built from src/adapters/<name>/, loading their optional peers. */
const ADAPTERS = new Set(['./ai-sdk', './openai-agents', './langchain']);

/**
 * Each code entry point with the source module it is built from: `./x` is bundled from
 * src/x/index.ts into dist/x.js, its types are dist/x/index.d.ts (the root: src/index.ts).
 */
const entries = Object.entries(pkg.exports)
  .filter((entry): entry is [string, Target] => typeof entry[1] === 'object')
  .map(([subpath, target]) => {
    const folder =
      subpath === '.'
        ? ''
        : ADAPTERS.has(subpath)
          ? `adapters/${subpath.slice(2)}/`
          : `${subpath.slice(2)}/`;
    return {
      subpath,
      specifier: subpath === '.' ? pkg.name : `${pkg.name}/${subpath.slice(2)}`,
      target,
      source: `src/${folder}index.ts`,
      types: `./dist/${folder}index.d.ts`,
      code: subpath === '.' ? './dist/index.js' : `./dist/${subpath.slice(2)}.js`,
    };
  });

describe('entry points', () => {
  // One TypeScript program over the whole tree: seconds of CPU on a quiet machine, half a minute
  // and more on a loaded one. Built once, up front, under a limit sized for a busy machine.
  beforeAll(() => {
    exportsOfEntries();
  }, 180_000);

  it('are the documented subpaths, each with types and an ES module', () => {
    expect(entries.map((entry) => entry.subpath).sort()).toEqual([...DOCUMENTED].sort());
    for (const { target, source, types, code } of entries) {
      expect(Object.keys(target)).toEqual(['types', 'import']); // types first, as TypeScript wants
      expect(target).toEqual({ types, import: code });
      expect(existsSync(join(ROOT, source))).toBe(true);
    }
    expect(pkg.files).toContain('dist');
  });

  it.each(entries.filter((entry) => entry.subpath !== './server'))(
    '$specifier loads none of the server stack (nor a framework, unless an adapter)',
    async ({ subpath, source }) => {
      const { packages } = await loadedModules(`await import('./${source}');`);
      for (const name of SERVER_STACK) expect(packages.has(name), name).toBe(false);
      if (ADAPTERS.has(subpath)) return;
      for (const name of Object.keys(pkg.peerDependencies ?? {})) {
        expect(packages.has(name), name).toBe(false);
      }
    },
  );

  it('the frameworks are optional peer dependencies', () => {
    const peers = Object.keys(pkg.peerDependencies ?? {});
    expect(peers.length).toBeGreaterThan(0);
    for (const name of peers) expect(pkg.peerDependenciesMeta?.[name]).toEqual({ optional: true });
  });

  it('triage/server is the way to the server stack (the probe sees it)', async () => {
    const server = entries.find((entry) => entry.subpath === './server')!;
    const { packages } = await loadedModules(`await import('./${server.source}');`);
    expect(packages.has('fastify')).toBe(true);
  });

  it('export every name the README and docs import from them', () => {
    const names = exportsOfEntries();
    const imports = documentedImports();
    expect(imports.length).toBeGreaterThan(10);
    for (const { specifier, name, file } of imports) {
      const entry = entries.find((e) => e.specifier === specifier);
      expect(entry, `${file} imports from ${specifier}`).toBeDefined();
      expect(
        names.get(join(ROOT, entry!.source))?.has(name),
        `${file}: ${name} from ${specifier}`,
      ).toBe(true);
    }
  }, 60_000); // one TypeScript program over every entry, the frameworks' types included

  it('the root leaves internals to the subsystems', () => {
    const root = exportsOfEntries().get(join(ROOT, 'src/index.ts'))!;
    for (const internal of ['SPACE', 'WORD', 'SKIP', 'compileConfig', 'createTriageServer']) {
      expect(root.has(internal), internal).toBe(false);
    }
    expect(root.has('createTierRouter')).toBe(true);
  });
});

let entryExports: Map<string, Set<string>> | undefined;

/** The names each entry point's source exports (one TypeScript program for all: it is slow). */
function exportsOfEntries(): Map<string, Set<string>> {
  entryExports ??= exportedNames(entries.map((entry) => join(ROOT, entry.source)));
  return entryExports;
}

/** The names (values and types) each module exports, as TypeScript sees them. */
function exportedNames(files: readonly string[]): Map<string, Set<string>> {
  const program = ts.createProgram([...files], {
    module: ts.ModuleKind.NodeNext,
    moduleResolution: ts.ModuleResolutionKind.NodeNext,
    target: ts.ScriptTarget.ES2023,
    noEmit: true,
    skipLibCheck: true,
  });
  const checker = program.getTypeChecker();
  const names = new Map<string, Set<string>>();
  for (const file of files) {
    const symbol = checker.getSymbolAtLocation(program.getSourceFile(file)!)!;
    names.set(file, new Set(checker.getExportsOfModule(symbol).map((s) => s.name)));
  }
  return names;
}

/** Each name a TypeScript example in the README or docs/ imports from the package. */
function documentedImports(): { specifier: string; name: string; file: string }[] {
  const files = ['README.md', ...readdirSync(join(ROOT, 'docs')).map((f) => `docs/${f}`)];
  const found: { specifier: string; name: string; file: string }[] = [];
  const statement = /import\s*(?:type\s*)?\{([^}]*)\}\s*from\s*'(triage(?:\/[a-z]+)?)'/g;
  for (const file of files.filter((f) => f.endsWith('.md'))) {
    const text = readFileSync(join(ROOT, file), 'utf8');
    for (const [, list, specifier] of text.matchAll(statement)) {
      for (const part of list!.split(',')) {
        const name = part
          .trim()
          .replace(/^type\s+/, '')
          .split(/\s+as\s+/)[0]!;
        if (name) found.push({ specifier: specifier!, name, file });
      }
    }
  }
  return found;
}
