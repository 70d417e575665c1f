import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * `triage serve` started as a user would, for the tests of its workers: the same shape as the
 * slow suite's built-CLI helpers (`spawnCli`, `exited`), run through tsx here.
 */

const MAIN = fileURLToPath(new URL('../main.ts', import.meta.url));
/** tsx, resolved here: the command runs in a directory of its own. */
const TSX = import.meta.resolve('tsx');

/** Starts `triage <args>` in a fresh directory, with standard output and error piped. */
export function spawnCli(
  args: readonly string[],
  options: { readonly env?: Readonly<Record<string, string>> } = {},
): ChildProcess {
  const cwd = mkdtempSync(join(tmpdir(), 'triage-cli-'));
  const { TRIAGE_CONFIG: _ignored, ...inherited } = process.env;
  return spawn(process.execPath, ['--import', TSX, MAIN, ...args], {
    cwd,
    env: { ...inherited, ...options.env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
}

/** Collects a child's output until it exits. Call it before the child can have exited. */
export function exited(
  child: ChildProcess,
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  let stdout = '';
  let stderr = '';
  child.stdout?.on('data', (chunk: Buffer) => {
    stdout += chunk.toString();
  });
  child.stderr?.on('data', (chunk: Buffer) => {
    stderr += chunk.toString();
  });
  return new Promise((resolve) => child.once('close', (code) => resolve({ code, stdout, stderr })));
}

/** Resolves with the base URL once `triage serve` says it listens (on standard error). */
export function listening(child: ChildProcess): Promise<string> {
  return new Promise((resolve, reject) => {
    let err = '';
    child.stderr?.on('data', (chunk: Buffer) => {
      err += chunk.toString();
      const url = /triage listening on (http:\/\/\S+)/.exec(err)?.[1];
      if (url) resolve(url);
    });
    child.once('exit', (code) => reject(new Error(`exited with ${code}: ${err}`)));
  });
}
