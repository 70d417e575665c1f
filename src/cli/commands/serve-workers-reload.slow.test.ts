import type { ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { type FakeLlmServer, startFakeLlm } from '../../testing/index.js';
import {
  chatOnNewConnection,
  type LogLine,
  POLL,
  startWorkers,
  stopWorkers,
} from './serve-workers.test-helpers.js';

/**
 * Reloading the configuration of `triage serve --workers 2` (the built CLI, real processes): the
 * primary validates the file and every worker reloads with it, under load without a failed
 * request; requests in flight finish on their configuration; a bad file is refused once, by the
 * primary, and every worker (a replacement too) keeps serving the running configuration.
 */

/** Each worker is a process of its own (of the built CLI): allow for a busy machine. */
const SLOW = 120_000;
/** A chat request forced to the SIMPLE tier, on a connection of its own. */
const chat = (url: string, prompt = 'Hi!') => chatOnNewConnection(url, 'simple', prompt);

/** The models that ten requests, on connections of their own, were sent to. */
async function modelsSeen(url: string): Promise<Set<string>> {
  const answers = await Promise.all(Array.from({ length: 10 }, () => chat(url)));
  return new Set(answers.map((answer) => `${answer.status} ${answer.model}`));
}

describe('triage serve --workers: configuration reload', () => {
  let fake: FakeLlmServer;
  const children: ChildProcess[] = [];
  beforeAll(async () => {
    fake = await startFakeLlm();
  });
  afterAll(() => fake.close());
  afterEach(() => {
    for (const child of children.splice(0)) child.kill('SIGKILL');
  });

  /** A configuration whose SIMPLE tier is `model` of the fake server. */
  const configWith = (model: string) =>
    `server:\n  log: { level: info }\nproviders:\n  local: { baseUrl: "${fake.openAiBaseUrl}" }\n` +
    `tiers:\n  SIMPLE: [local/${model}]\n  MEDIUM: [local/mid]\n`;

  const workerReloads = (logs: () => LogLine[]) =>
    logs().filter((line) => line.msg === 'worker reloaded the configuration').length;

  it(
    'reloads every worker on a change of the file, under load, without a failed request',
    async () => {
      const file = join(mkdtempSync(join(tmpdir(), 'triage-workers-reload-')), 'triage.yaml');
      writeFileSync(file, configWith('v0'));
      let release: () => void = () => undefined;
      const held = new Promise<void>((resolve) => {
        release = resolve;
      });
      fake.reset().reply(async (request) => {
        if (request.prompt === 'hold') await held;
        return 'ok';
      });
      const { child, url, logs } = await startWorkers(['--config', file], children);

      // A request in flight across every reload: it finishes on the configuration it began with.
      const inFlight = chat(url, 'hold');
      await fake.waitFor(() => fake.chatRequests.some((r) => r.prompt === 'hold'), POLL.timeout);

      let loading = true;
      const answers: { status: number; model: string }[] = [];
      const load = Array.from({ length: 4 }, async () => {
        while (loading) answers.push(await chat(url));
      });
      const rounds = 4;
      for (let round = 1; round <= rounds; round++) {
        const before = answers.length;
        writeFileSync(file, configWith(`v${round}`));
        // Every worker took it (a save may be seen as more than one change: at least), and
        // requests went on meanwhile.
        await expect.poll(() => workerReloads(logs), POLL).toBeGreaterThanOrEqual(2 * round);
        await expect.poll(() => answers.length, POLL).toBeGreaterThan(before);
      }
      await expect.poll(() => modelsSeen(url), POLL).toEqual(new Set([`200 local/v${rounds}`]));
      loading = false;
      await Promise.all(load);
      expect(answers.length).toBeGreaterThan(rounds);
      expect(answers.filter((answer) => answer.status !== 200)).toEqual([]);
      // The models of several configurations answered, each under its own name.
      expect(answers.every((answer) => /^local\/v\d$/.test(answer.model))).toBe(true);

      release();
      expect(await inFlight).toEqual({ status: 200, model: 'local/v0' });
      // The primary (its lines name no worker) logged each reload once; no worker refused one.
      const reloaded = () => logs().filter((line) => line.msg === 'configuration reloaded');
      await expect.poll(() => reloaded().length, POLL).toBeGreaterThanOrEqual(rounds);
      expect(
        reloaded().every((line) => line.worker === undefined && line.why === 'file changed'),
      ).toBe(true);
      expect(logs().filter((line) => (line.level ?? 0) >= 50)).toEqual([]);
      expect(await stopWorkers(child)).toBe(0);
    },
    SLOW,
  );

  it(
    'reloads on SIGHUP; refuses a bad file once, in the primary, and keeps serving the running configuration (a replacement worker too)',
    async () => {
      // The configuration is a link to a file in another directory: the directory watched does
      // not see that file change, so only SIGHUP reloads it.
      const dir = mkdtempSync(join(tmpdir(), 'triage-workers-sighup-'));
      mkdirSync(join(dir, 'real'));
      const target = join(dir, 'real', 'triage.yaml');
      const file = join(dir, 'triage.yaml');
      writeFileSync(target, configWith('before'));
      symlinkSync(target, file);
      fake.reset().reply('ok');
      const { child, url, logs } = await startWorkers(['--config', file], children);
      expect(await modelsSeen(url)).toEqual(new Set(['200 local/before']));

      // A change of the server section too: it waits for a restart, which the primary says once.
      const bySignal = configWith('by-signal').replace(
        'server:\n',
        'server:\n  deadlineMs: 200000\n',
      );
      writeFileSync(target, bySignal);
      child.kill('SIGHUP');
      await expect.poll(() => workerReloads(logs), POLL).toBe(2);
      // The primary's lines, like the workers', are written in batches: they may come later.
      await expect
        .poll(() => logs().filter((line) => line.msg === 'configuration reloaded'), POLL)
        .toMatchObject([{ why: 'SIGHUP' }]);
      await expect
        .poll(() => logs().filter((line) => line.msg.includes('next restart')), POLL)
        .toMatchObject([{ fields: ['/server/deadlineMs'], level: 40 }]);
      expect(await modelsSeen(url)).toEqual(new Set(['200 local/by-signal']));

      // A bad file: the primary names the field, once; the workers are not asked to reload.
      writeFileSync(target, bySignal.replace('SIMPLE: [local/', 'SIMPLE: [nowhere/'));
      child.kill('SIGHUP');
      const refusals = () =>
        logs().filter((line) => line.msg.startsWith('configuration not reloaded'));
      await expect.poll(() => refusals().length, POLL).toBe(1);
      expect(refusals()[0]).toMatchObject({ level: 50 });
      expect(refusals()[0]?.worker).toBeUndefined();
      expect(refusals()[0]?.msg).toContain("/tiers/SIMPLE/0 names provider 'nowhere'");
      expect(await modelsSeen(url)).toEqual(new Set(['200 local/by-signal']));
      expect(workerReloads(logs)).toBe(2);

      // A worker that replaces a dead one starts on the running configuration, not the bad file.
      const victim = logs().find((line) => line.msg === 'worker listening')?.pid as number;
      process.kill(victim, 'SIGKILL');
      await expect
        .poll(() => logs().filter((line) => line.msg === 'worker listening').length, POLL)
        .toBe(3);
      expect(await modelsSeen(url)).toEqual(new Set(['200 local/by-signal']));
      expect(refusals()).toHaveLength(1);
      expect(await stopWorkers(child)).toBe(0);
    },
    SLOW,
  );
});
