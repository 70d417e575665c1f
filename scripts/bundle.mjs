// Part of `npm run build`: bundles the library's JavaScript with esbuild, from src/ into dist/.
//
// One file per entry point (each subpath of package.json `exports`, and the CLI), the modules they
// share in chunks beside them, all in dist/ itself, so that every bundled file finds what the
// build puts beside it (validators/, prebuilt/, classifiers/) at the same relative place. tsc
// writes the type declarations (dist/**/*.d.ts) and checks the types; esbuild only writes code.
//
// Why bundle: loading a module costs Node a resolution, a read and a compilation of its own; the
// root entry was ~170 modules and spent ~60 ms on that alone, the bundle loads in ~40 % of the
// time. TypeBox is bundled too (373 modules of its own); every other package stays a dependency,
// loaded from node_modules as usual. Classes exist once (shared chunks), so `instanceof` holds
// across entry points.
import { cpSync, existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { bundleConsole } from './console-bundle.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));

/** The packages bundled into triage's own files rather than loaded from node_modules. */
const BUNDLED = new Set(['typebox']);

/**
 * dist/<name>.js ← src/<name>/index.ts for each subpath (src/adapters/<name>/index.ts for the
 * framework adapters); the root and the CLI by hand.
 */
function entryPoints() {
  const entries = { index: 'src/index.ts', cli: 'src/cli/main.ts' };
  for (const subpath of Object.keys(pkg.exports)) {
    if (subpath === '.' || subpath === './package.json') continue;
    const name = subpath.slice(2);
    const own = `src/${name}/index.ts`;
    entries[name] = existsSync(join(root, own)) ? own : `src/adapters/${name}/index.ts`;
  }
  return entries;
}

const dist = join(root, 'dist');
await build({
  absWorkingDir: root,
  entryPoints: entryPoints(),
  outdir: dist,
  entryNames: '[name]',
  chunkNames: 'chunk-[hash]',
  bundle: true,
  splitting: true,
  format: 'esm',
  platform: 'node',
  target: 'node22',
  sourcemap: 'linked',
  // Dependencies load from node_modules; the frameworks of the adapters (optional peers) too,
  // so that only their own entry point ever needs them.
  external: [
    ...Object.keys(pkg.dependencies).filter((name) => !BUNDLED.has(name)),
    ...Object.keys(pkg.peerDependencies ?? {}),
  ],
  logLevel: 'warning',
});
cpSync(join(root, 'node_modules/typebox/license'), join(dist, 'typebox.LICENSE'));
// The stock pipeline classifiers (manifests and prompts), read at run time from beside the code.
cpSync(join(root, 'src/pipeline/classifiers'), join(dist, 'classifiers'), { recursive: true });
// The web console's page and script, for browsers (docs/console.md).
await bundleConsole({ write: true });
console.log(`bundle: ${Object.keys(entryPoints()).length} entry points`);
