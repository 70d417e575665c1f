import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';

/**
 * The console's files: the page and its script (which carries the style sheet). The build bundles them into
 * `dist/console/` (scripts/bundle.mjs); run from the sources (tests, tsx), they are bundled on
 * first use with esbuild, a development dependency, so that the sources alone serve the console.
 */

/** A file of the console. */
export interface ConsoleAsset {
  readonly body: Buffer;
  readonly contentType: string;
}

/** The files, by name (`index.html`, `console.js`). */
export type ConsoleAssets = ReadonlyMap<string, ConsoleAsset>;

/** The names of the console's files. */
export const CONSOLE_FILES = ['index.html', 'console.js'] as const;

const TYPES: Record<string, string> = {
  html: 'text/html; charset=utf-8',
  js: 'text/javascript; charset=utf-8',
};

const BUILT = new URL('./console/', import.meta.url);
const SOURCES = new URL('../console/ui/', import.meta.url);

let loading: Promise<ConsoleAssets> | undefined;

/** Loads the console's files once (every server of the process shares them). */
export function consoleAssets(): Promise<ConsoleAssets> {
  loading ??= load().catch((error: unknown) => {
    loading = undefined;
    throw error;
  });
  return loading;
}

async function load(): Promise<ConsoleAssets> {
  const files = existsSync(new URL('console.js', BUILT))
    ? await Promise.all(CONSOLE_FILES.map((name) => readFile(new URL(name, BUILT))))
    : await fromSources();
  return new Map(
    CONSOLE_FILES.map((name, i) => [
      name,
      { body: files[i]!, contentType: TYPES[name.split('.').pop()!]! },
    ]),
  );
}

/** Bundles the page's script from the sources, as the build does. */
async function fromSources(): Promise<Buffer[]> {
  const { bundleConsole } = (await import(
    new URL('../../scripts/console-bundle.mjs', import.meta.url).href
  )) as { bundleConsole: (options: { write: false }) => Promise<{ js: string }> };
  const { js } = await bundleConsole({ write: false });
  const dir = fileURLToPath(SOURCES);
  return [await readFile(`${dir}index.html`), Buffer.from(js)];
}
