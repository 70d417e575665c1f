import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseServerConfig } from './config.js';
import { reloadFrom, watchConfig } from './reload.js';
import { chat, type Harness, post, startHarness } from './server.test-helpers.js';

/**
 * Reloading the configuration of a running server: requests in flight finish on the configuration
 * they started with, a bad file is refused with its fields named and the running configuration
 * stays, and a burst of requests across reloads sees no failure.
 */

const dir = mkdtempSync(join(tmpdir(), 'triage-reload-'));
const file = join(dir, 'triage.json');
let h: Harness;
let base: string;

function configWith(simple: string, extra: Record<string, unknown> = {}) {
  return {
    providers: {
      fake: { baseUrl: base, timeoutMs: 10_000 },
      dead: { baseUrl: 'http://127.0.0.1:9/v1', timeoutMs: 2_000 },
    },
    tiers: { SIMPLE: [simple], MEDIUM: ['fake/mid'] },
    ...extra,
  };
}

function write(config: unknown): void {
  writeFileSync(file, JSON.stringify(config));
}

const load = () =>
  parseServerConfig(JSON.parse(readFileSync(file, 'utf8')), { source: `server config ${file}` });

beforeAll(async () => {
  h = await startHarness({
    config: (url) => {
      base = url;
      return configWith('fake/small');
    },
  });
});

afterAll(() => h.close());

const options = () => ({ server: h.server, file, load, logger: h.server.logger, signal: false });

describe('configuration reload', () => {
  it('lets a request in flight finish on its configuration; new requests take the new one', async () => {
    h.fake.reply((request) => (request.model === 'small' ? { text: 'old', delayMs: 300 } : 'new'));
    const inFlight = post(`${h.url}/v1/chat/completions`, chat('hi', { model: 'simple' }));
    await h.fake.whenRequests(1);
    // The new configuration sends SIMPLE to a model, and a provider, the old one did not have.
    write(
      configWith('fake/small-v2', { providers: { fake: { baseUrl: base, timeoutMs: 9_000 } } }),
    );
    expect(reloadFrom(options(), 'test')).toEqual({ reloaded: true, restartNeeded: [] });
    const after = await post(`${h.url}/v1/chat/completions`, chat('hi', { model: 'simple' }));
    expect(after.headers['x-triage-model']).toBe('fake/small-v2');
    const old = await inFlight;
    expect(old.status).toBe(200);
    expect(old.headers['x-triage-model']).toBe('fake/small');
    expect(JSON.parse(old.text).choices[0].message.content).toBe('old');
  });

  it('refuses a bad file with its fields named, and keeps the running configuration', async () => {
    write(configWith('nowhere/model', { costs: { baseline: 'x/unpriced' } }));
    const outcome = reloadFrom(options(), 'test');
    expect(outcome.reloaded).toBe(false);
    const error = (outcome as { error: string }).error;
    expect(error).toContain('/tiers/SIMPLE/0');
    expect(error).toContain("names provider 'nowhere'");
    expect(error).toContain('/costs/baseline');
    h.fake.reply('still here');
    const answer = await post(`${h.url}/v1/chat/completions`, chat('hi', { model: 'simple' }));
    expect(answer.status).toBe(200);
    expect(answer.headers['x-triage-model']).toBe('fake/small-v2');
    write('{ not json');
    expect(reloadFrom(options(), 'test').reloaded).toBe(false);
  });

  it('says which server fields need a restart', () => {
    write({ ...configWith('fake/small'), server: { deadlineMs: 120_000 } });
    expect(reloadFrom(options(), 'test')).toEqual({
      reloaded: true,
      restartNeeded: ['/server/deadlineMs'],
    });
  });

  it('reloads on SIGHUP', async () => {
    write(configWith('fake/by-signal'));
    const stop = watchConfig({ ...options(), signal: true });
    try {
      process.emit('SIGHUP');
      const deadline = Date.now() + 5_000;
      while (h.server.config.tiers.SIMPLE?.[0] !== 'fake/by-signal' && Date.now() < deadline) {
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
      expect(h.server.config.tiers.SIMPLE).toEqual(['fake/by-signal']);
    } finally {
      stop();
    }
  });

  it('answers every request of a burst sent across reloads', async () => {
    h.fake.reply({ text: 'ok', delayMs: 5 });
    const requests: Promise<{ status: number }>[] = [];
    for (let round = 0; round < 6; round++) {
      for (let i = 0; i < 25; i++) {
        requests.push(post(`${h.url}/v1/chat/completions`, chat('hi', { model: 'simple' })));
      }
      write(configWith(round % 2 === 0 ? 'fake/even' : 'fake/odd'));
      expect(reloadFrom(options(), 'test').reloaded).toBe(true);
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    const statuses = (await Promise.all(requests)).map((answer) => answer.status);
    expect(statuses.filter((status) => status !== 200)).toEqual([]);
  });
});
