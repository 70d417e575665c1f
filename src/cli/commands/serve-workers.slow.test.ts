import type { ChildProcess } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { request } from 'undici';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { exited, spawnCli } from '../../../test/built-cli.js';
import { type FakeLlmServer, startFakeLlm } from '../../testing/index.js';
import {
  chatOnNewConnection,
  onNewConnection,
  POLL,
  startWorkers,
  stopWorkers,
} from './serve-workers.test-helpers.js';

/** Each worker is a process of its own (of the built CLI): allow for a busy machine. */
const SLOW = 90_000;

const serve = (args: string[]) => spawnCli(['serve', ...args]);

describe('triage serve --workers', () => {
  let fake: FakeLlmServer;
  let file: string;
  const children: ChildProcess[] = [];
  beforeAll(async () => {
    fake = await startFakeLlm();
    file = join(mkdtempSync(join(tmpdir(), 'triage-workers-')), 'triage.yaml');
    writeFileSync(
      file,
      `server:\n  log: { level: info }\nproviders:\n  local: { baseUrl: "${fake.openAiBaseUrl}" }\n` +
        'tiers:\n  SIMPLE: [local/small]\n  MEDIUM: [local/mid]\n',
    );
  });
  afterAll(() => fake.close());
  afterEach(() => {
    for (const child of children.splice(0)) child.kill('SIGKILL');
  });

  it(
    'serves one port from several processes, with the metrics of all at /metrics',
    async () => {
      const { child, url, logs } = await startWorkers(['--config', file], children);
      const answers = await Promise.all(Array.from({ length: 20 }, () => chatOnNewConnection(url)));
      expect(answers.every((answer) => answer.status === 200)).toBe(true);
      // Every request counted once, whichever worker answered it.
      const metrics = await (await request(`${url}/metrics`)).body.text();
      const counted = [...metrics.matchAll(/^triage_requests_total\{[^}]*\} (\d+)$/gm)].reduce(
        (sum, match) => sum + Number(match[1]),
        0,
      );
      expect(counted).toBe(20);
      expect(await stopWorkers(child)).toBe(0);
      // Standard output is written in batches: a line may come up to a second late.
      await expect
        .poll(() => logs().filter((line) => line.msg === 'worker stopped').length, POLL)
        .toBe(2);
    },
    SLOW,
  );

  it(
    'switches the classifier model on every worker, whichever one was asked',
    async () => {
      const withLlm = join(mkdtempSync(join(tmpdir(), 'triage-workers-')), 'triage.yaml');
      writeFileSync(
        withLlm,
        `server:\n  log: { level: info }\nproviders:\n  local: { baseUrl: "${fake.openAiBaseUrl}" }\n` +
          'tiers:\n  SIMPLE: [local/small]\n' +
          `llm: { id: checker, kind: openai, model: checker-model, baseUrl: "${fake.openAiBaseUrl}" }\n`,
      );
      const { child, url } = await startWorkers(['--config', withLlm], children);
      /** The model each of ten requests, on connections of their own, was told. */
      const models = () =>
        Promise.all(
          Array.from({ length: 10 }, () =>
            onNewConnection(url, async (client) => {
              const res = await client.request({ method: 'GET', path: '/admin/classifier' });
              return ((await res.body.json()) as { model: string }).model;
            }),
          ),
        );
      const switched = await request(`${url}/admin/classifier`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ model: 'switched-model' }),
      });
      expect(switched.statusCode).toBe(200);
      await switched.body.dump();
      // The other worker hears of it through the primary, a moment later.
      await expect
        .poll(async () => new Set(await models()), { timeout: SLOW / 2 })
        .toEqual(new Set(['switched-model']));
      expect(await stopWorkers(child)).toBe(0);
    },
    SLOW,
  );

  it(
    'replaces a worker that dies, and says so',
    async () => {
      const { child, url, logs } = await startWorkers(['--config', file], children);
      const victim = logs().find((line) => line.msg === 'worker listening')?.pid as number;
      process.kill(victim, 'SIGKILL');
      await expect
        .poll(() => logs().filter((line) => line.msg === 'worker listening').length, {
          timeout: SLOW / 2,
        })
        .toBe(3);
      const died = logs().find((line) => line.msg === 'worker died: starting another');
      expect(died).toMatchObject({ pid: victim, signal: 'SIGKILL', level: 50 });
      expect((await chatOnNewConnection(url)).status).toBe(200);
      expect(await stopWorkers(child)).toBe(0);
    },
    SLOW,
  );

  it(
    'stops, naming the cause, when the workers cannot listen',
    async () => {
      const taken = createServer();
      await new Promise<void>((resolve) => taken.listen(0, '127.0.0.1', resolve));
      const { port } = taken.address() as { port: number };
      try {
        const { code, stderr } = await exited(
          serve(['--config', file, '--port', String(port), '--workers', '2']),
        );
        expect(code).toBe(2);
        expect(stderr).toContain(`cannot listen on 127.0.0.1:${port} (EADDRINUSE)`);
      } finally {
        taken.close();
      }
    },
    SLOW,
  );

  it('rejects a worker count that is not a number or auto', async () => {
    const { code, stderr } = await exited(serve(['--workers', 'many']));
    expect(code).toBe(2);
    expect(stderr).toContain('must be "auto" or an integer from 1 to 256');
  });
});
