import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';

/** The project's root folder. */
export const ROOT = fileURLToPath(new URL('..', import.meta.url));

/** What a fresh process loaded: its modules' URLs, and the packages among them. */
export interface Loaded {
  readonly urls: readonly string[];
  readonly packages: ReadonlySet<string>;
  readonly stdout: string;
}

/**
 * Runs `code` (an ES module, run from the project root with tsx, so `src/` runs as it is) in a
 * fresh Node process, and reports every module it loaded: imported or required, triage's own and
 * its packages'. Module hooks see each resolution, so nothing loaded escapes the list.
 */
export function loadedModules(code: string, args: readonly string[] = []): Promise<Loaded> {
  const probe = `
    import { registerHooks } from 'node:module';
    const urls = new Set();
    registerHooks({ resolve(specifier, context, next) {
      const resolved = next(specifier, context);
      urls.add(resolved.url);
      return resolved;
    } });
    process.on('exit', () => process.stderr.write('\\n@@loaded ' + JSON.stringify([...urls]) + '\\n'));
  `;
  const child = spawn(
    process.execPath,
    [
      '--import',
      'tsx',
      '--import',
      `data:text/javascript,${encodeURIComponent(probe)}`,
      '--input-type=module',
      '-e',
      code,
      ...args,
    ],
    { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] },
  );
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk) => {
    stdout += chunk;
  });
  child.stderr.on('data', (chunk) => {
    stderr += chunk;
  });
  return new Promise((resolve, reject) => {
    child.on('error', reject);
    child.on('close', (status) => {
      const line = stderr.split('\n').find((l) => l.startsWith('@@loaded '));
      if (status !== 0 || !line) {
        reject(new Error(`the probe failed (exit ${status}): ${stderr.trim()}`));
        return;
      }
      const urls = JSON.parse(line.slice('@@loaded '.length)) as string[];
      const packages = new Set(
        urls.flatMap((url) => {
          const match = /\/node_modules\/((?:@[^/]+\/)?[^/]+)\//.exec(url);
          return match ? [match[1]!] : [];
        }),
      );
      resolve({ urls, packages, stdout });
    });
  });
}

/** The packages of the routing server, which nothing but `triage/server` (and `serve`) loads. */
export const SERVER_STACK = ['fastify', 'pino', 'prom-client', 'undici'] as const;
