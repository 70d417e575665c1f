import type { ChildProcess } from 'node:child_process';
import { Client } from 'undici';
import { expect } from 'vitest';
import { exited, listening, spawnCli } from '../../../test/built-cli.js';

/**
 * What the slow tests of `triage serve --workers` share: starting the built CLI's primary and
 * its workers, reading their log lines, requests on connections of their own (so that the
 * workers share them), and a clean stop.
 */

/** A JSON log line, with the fields these tests read. */
export interface LogLine {
  readonly msg: string;
  /** Set by the primary on lines about a worker. */
  readonly pid?: number;
  /** Set by a worker on lines about its reloads. */
  readonly worker?: number;
  readonly why?: string;
  readonly level?: number;
  readonly [key: string]: unknown;
}

/** A running `triage serve --workers N`. */
export interface RunningWorkers {
  readonly child: ChildProcess;
  readonly url: string;
  /** The log lines written so far (standard output is written in batches: poll). */
  readonly logs: () => LogLine[];
}

/** How long a condition may take to hold (lines come in batches, processes start slowly). */
export const POLL = { timeout: 60_000, interval: 100 } as const;

/** The JSON lines a child wrote on standard output so far. */
export function logLines(child: ChildProcess): () => LogLine[] {
  let out = '';
  child.stdout?.on('data', (chunk: Buffer) => {
    out += chunk.toString();
  });
  return () =>
    out
      .split('\n')
      .filter((line) => line.startsWith('{'))
      .map((line) => JSON.parse(line) as LogLine);
}

/**
 * Starts `triage serve --port 0 --workers <workers> <args>` (added to `children`, for the test's
 * clean-up); resolves once every worker listens.
 */
export async function startWorkers(
  args: readonly string[],
  children: ChildProcess[],
  workers = 2,
): Promise<RunningWorkers> {
  const child = spawnCli(['serve', ...args, '--port', '0', '--workers', String(workers)]);
  children.push(child);
  const logs = logLines(child);
  const url = await listening(child);
  await expect
    .poll(() => logs().filter((line) => line.msg === 'worker listening').length, POLL)
    .toBe(workers);
  return { child, url, logs };
}

/** Stops the primary with SIGTERM; resolves with its exit code. */
export async function stopWorkers(child: ChildProcess): Promise<number | null> {
  const ended = exited(child);
  child.kill('SIGTERM');
  return (await ended).code;
}

/** Runs `use` with a client on a connection of its own, closed after. */
export async function onNewConnection<T>(
  url: string,
  use: (client: Client) => Promise<T>,
): Promise<T> {
  const client = new Client(url);
  try {
    return await use(client);
  } finally {
    await client.close();
  }
}

/** A chat completion for `model` on a connection of its own: its status and the model it went to. */
export function chatOnNewConnection(
  url: string,
  model = 'auto',
  prompt = 'Hi!',
): Promise<{ status: number; model: string }> {
  return onNewConnection(url, async (client) => {
    const res = await client.request({
      method: 'POST',
      path: '/v1/chat/completions',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ model, messages: [{ role: 'user', content: prompt }] }),
    });
    await res.body.dump();
    return { status: res.statusCode, model: String(res.headers['x-triage-model']) };
  });
}
