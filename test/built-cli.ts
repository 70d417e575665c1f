import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * The `triage` command as a user runs it: the built `dist/cli.js` in a child process of its
 * own (no TypeScript loader per child). Only the slow suite uses it; its global setup rebuilds
 * `dist/` from `src/` before any test runs (test/build-dist.ts).
 */
export const BUILT_CLI = fileURLToPath(new URL('../dist/cli.js', import.meta.url));

/** Options of {@link spawnCli}. */
export interface SpawnCliOptions {
  /** Variables added to the environment (`TRIAGE_CONFIG` of the test's own is never passed). */
  readonly env?: Readonly<Record<string, string>>;
  /** Working directory. Default: a fresh empty temporary directory, so no config file is found. */
  readonly cwd?: string;
}

/** Starts `triage <args>` with standard output and error piped. */
export function spawnCli(args: readonly string[], options: SpawnCliOptions = {}): ChildProcess {
  const cwd = options.cwd ?? mkdtempSync(join(tmpdir(), 'triage-cli-'));
  const { TRIAGE_CONFIG: _ignored, ...inherited } = process.env;
  return spawn(process.execPath, [BUILT_CLI, ...args], {
    cwd,
    env: { ...inherited, ...options.env },
    stdio: ['pipe', 'pipe', 'pipe'],
  });
}

/** What a finished child process said and how it ended. */
export interface CliResult {
  readonly code: number | null;
  readonly signal: NodeJS.Signals | null;
  readonly stdout: string;
  readonly stderr: string;
}

/** Collects a child's output until it exits. Call it before the child can have exited. */
export function exited(child: ChildProcess): Promise<CliResult> {
  let stdout = '';
  let stderr = '';
  child.stdout?.setEncoding('utf8').on('data', (chunk: string) => {
    stdout += chunk;
  });
  child.stderr?.setEncoding('utf8').on('data', (chunk: string) => {
    stderr += chunk;
  });
  return new Promise((resolve, reject) => {
    child.once('error', reject);
    child.once('close', (code, signal) => resolve({ code, signal, stdout, stderr }));
  });
}

/** Runs `triage <args>` to the end, writing `input` (or nothing) to its standard input. */
export function runCli(
  args: readonly string[],
  options: SpawnCliOptions & { readonly input?: string } = {},
): Promise<CliResult> {
  const child = spawnCli(args, options);
  const result = exited(child);
  child.stdin?.end(options.input ?? '');
  return result;
}

/** Resolves with the base URL once `triage serve` says it listens (on standard error). */
export function listening(child: ChildProcess): Promise<string> {
  return new Promise((resolve, reject) => {
    let err = '';
    child.stderr?.on('data', (chunk: Buffer | string) => {
      err += String(chunk);
      const url = /triage listening on (http:\/\/\S+)/.exec(err)?.[1];
      if (url) resolve(url);
    });
    child.once('exit', (code) => reject(new Error(`exited with ${code}: ${err}`)));
  });
}
