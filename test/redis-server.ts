import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createServer } from 'node:net';
import type { TestContext } from 'vitest';

/**
 * A real `redis-server` of a test's own, on a free loopback port, keeping nothing on disk: the
 * Redis state tests start, stop and restart it (a test that kills Redis cannot share the
 * machine's). Debian's `redis-server` package provides it (`.ci/run` installs it when missing), or
 * the binary a `REDIS_SERVER_PATH` variable names; a test that needs it skips, saying why, when
 * none is found.
 */

const CANDIDATES = [
  '/usr/bin/redis-server',
  '/usr/local/bin/redis-server',
  '/usr/bin/valkey-server',
];

/** The server binary to use, or `undefined` when none is installed. */
export function redisServerPath(): string | undefined {
  const named = process.env.REDIS_SERVER_PATH;
  if (named) return existsSync(named) ? named : undefined;
  return CANDIDATES.find((path) => existsSync(path));
}

/** A running test Redis. */
export interface TestRedis {
  /** `redis://127.0.0.1:<port>`. */
  readonly url: string;
  readonly port: number;
  /** The running server's process id (for a benchmark that pins it to a CPU). */
  readonly pid: number | undefined;
  /** Stops it (SIGKILL when `kill`, as a crash); resolves once the process has exited. */
  stop(options?: { kill?: boolean }): Promise<void>;
  /** Starts it again on the same port (empty: it keeps nothing on disk). */
  restart(): Promise<void>;
}

/** A free TCP port on 127.0.0.1. */
export async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/** Longest wait for a started server to accept connections. */
const START_LIMIT_MS = 30_000;

/**
 * Starts a Redis for a test, or skips the test with the reason (no binary found, or one that does
 * not start).
 */
export async function needRedis(context: TestContext): Promise<TestRedis> {
  const binary = redisServerPath();
  if (binary === undefined) {
    context.skip(
      `no redis-server found (looked for REDIS_SERVER_PATH, ${CANDIDATES.join(', ')}): ` +
        'install it with `apt-get install -y redis-server` (.ci/run does)',
    );
  }
  try {
    return await startRedis(binary);
  } catch (error) {
    context.skip(`redis-server at ${binary} did not start: ${(error as Error).message}`);
  }
}

/**
 * Starts `binary` (a redis-server or valkey-server) on a free loopback port, keeping nothing on
 * disk; rejects when it does not start. For tests, {@link needRedis}; benchmarks call it directly.
 */
export async function startRedis(binary: string): Promise<TestRedis> {
  const port = await freePort();
  let child: ChildProcess | undefined;
  const start = async () => {
    child = spawn(
      binary,
      ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'],
      { stdio: ['ignore', 'pipe', 'pipe'] },
    );
    // A test that ends without stopping it (a failure) leaves no server behind.
    const started = child;
    process.once('exit', () => started.kill('SIGKILL'));
    await ready(child);
  };
  await start();
  return {
    url: `redis://127.0.0.1:${port}`,
    port,
    get pid() {
      return child?.pid;
    },
    async stop({ kill = false } = {}) {
      const running = child;
      // Stopped already (a killed process has a signal, not an exit code): nothing to wait for.
      if (running === undefined || running.exitCode !== null || running.signalCode !== null) {
        return;
      }
      const exited = new Promise((resolve) => running.once('exit', resolve));
      running.kill(kill ? 'SIGKILL' : 'SIGTERM');
      await exited;
    },
    restart: start,
  };
}

/** Resolves when the server logs that it accepts connections; rejects when it exits first. */
function ready(child: ChildProcess): Promise<void> {
  return new Promise((resolve, reject) => {
    let output = '';
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`not ready within ${START_LIMIT_MS} ms: ${output.slice(-500)}`));
    }, START_LIMIT_MS);
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      if (output.includes('Ready to accept connections')) {
        clearTimeout(timer);
        child.stdout?.off('data', onData);
        child.stdout?.resume();
        resolve();
      }
    };
    child.stdout?.on('data', onData);
    child.stderr?.on('data', (chunk: Buffer) => {
      output += chunk.toString();
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`exited with code ${code}: ${output.slice(-500)}`));
    });
  });
}
