// The web console's page (docs/console.md): its script bundled by esbuild for browsers, beside
// its page (the style sheet is in the script), into dist/console/ (called by bundle.mjs). The server bundles it the
// same way, in memory, when it runs from the sources (src/server/console-assets.ts).
import { copyFileSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const root = fileURLToPath(new URL('..', import.meta.url));
const ui = join(root, 'src/console/ui');

/** Bundles the console's script; with `write`, into dist/console/ with the page. */
export async function bundleConsole({ write }) {
  const out = join(root, 'dist/console');
  const result = await build({
    absWorkingDir: root,
    entryPoints: [join(ui, 'main.ts')],
    bundle: true,
    minify: true,
    format: 'esm',
    platform: 'browser',
    target: 'es2022',
    write,
    ...(write ? { outfile: join(out, 'console.js') } : { outfile: 'console.js' }),
    logLevel: 'warning',
  });
  if (write) {
    mkdirSync(out, { recursive: true });
    copyFileSync(join(ui, 'index.html'), join(out, 'index.html'));
    return { js: '' };
  }
  return { js: result.outputFiles[0].text };
}
