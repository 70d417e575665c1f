import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

/**
 * Global setup of the slow suite: its child-process tests run the built CLI (`dist/`), so the
 * build runs first, every time, from nothing (`npm run build` empties `dist/`): a stale `dist/`
 * can never make a test pass or fail.
 */
export default function buildDist(): void {
  const root = fileURLToPath(new URL('..', import.meta.url));
  const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
  const started = performance.now();
  const result = spawnSync(npm, ['run', '--silent', 'build'], { cwd: root, encoding: 'utf8' });
  if (result.error) throw result.error;
  if (result.status !== 0) {
    throw new Error(`the build failed (exit ${result.status}):\n${result.stdout}${result.stderr}`);
  }
  const seconds = ((performance.now() - started) / 1000).toFixed(1);
  process.stdout.write(`slow suite: dist/ rebuilt from src/ in ${seconds} s\n`);
}
