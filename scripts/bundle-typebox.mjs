// Part of `npm run build`, after tsc: bundles the `typebox` package into one file,
// dist/vendor/typebox.js, and points the built modules' `import … from 'typebox'` at it.
//
// Why: TypeBox builds every configuration schema when triage's modules load, and its package is
// 373 ES modules; Node resolves, reads and compiles each one, which took ~100 ms of every start
// (more than all of triage's own modules). One file of the same code loads in a few milliseconds.
// Types still come from the `typebox` package (the .d.ts files keep importing it), so it stays a
// dependency; the bundle is built from the installed, locked version. Schemas are plain objects,
// so they mix freely with schemas built by a user's own copy of TypeBox.
import { cpSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const root = fileURLToPath(new URL('..', import.meta.url));
const dist = join(root, 'dist');
const vendor = join(dist, 'vendor');
const bundle = join(vendor, 'typebox.js');

await build({
  stdin: { contents: "export { default } from 'typebox';", resolveDir: root, loader: 'js' },
  bundle: true,
  format: 'esm',
  platform: 'node',
  target: 'node22',
  outfile: bundle,
  legalComments: 'eof',
  banner: {
    js: '// TypeBox (MIT licence, see typebox.LICENSE), bundled by scripts/bundle-typebox.mjs',
  },
  logLevel: 'warning',
});
cpSync(join(root, 'node_modules/typebox/license'), join(vendor, 'typebox.LICENSE'));

// tsc keeps each import as written, one per line: `import Type, {} from 'typebox';`.
const IMPORT = /^(import [^;]*? from )'typebox';$/gm;
let rewritten = 0;
for (const file of readdirSync(dist, { recursive: true, encoding: 'utf8' })) {
  if (!file.endsWith('.js') || file.startsWith('vendor')) continue;
  const path = join(dist, file);
  const code = readFileSync(path, 'utf8');
  let target = relative(dirname(path), bundle);
  if (!target.startsWith('.')) target = `./${target}`;
  const next = code.replace(IMPORT, (_, head) => `${head}'${target}';`);
  if (next !== code) {
    writeFileSync(path, next);
    rewritten++;
  }
  if (/['"]typebox['"]/.test(next.replace(/^\/\/.*$/gm, ''))) {
    throw new Error(`${file} loads typebox in a form this script does not rewrite`);
  }
}
console.log(`typebox: bundled, ${rewritten} modules import the bundle`);
