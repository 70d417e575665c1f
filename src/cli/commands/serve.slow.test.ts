import type { ChildProcess } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { request } from 'undici';
import { afterEach, describe, expect, it } from 'vitest';
import { exited, listening, spawnCli } from '../../../test/built-cli.js';
import { startFakeLlm } from '../../testing/index.js';

/** Runs `triage serve …` (the built CLI) in a fresh directory, as a user would. */
function serve(args: string[], env: Record<string, string> = {}): ChildProcess {
  return spawnCli(['serve', ...args], { env });
}

describe('triage serve', () => {
  const children: ChildProcess[] = [];
  afterEach(() => {
    for (const child of children.splice(0)) child.kill('SIGKILL');
  });

  it('starts with no configuration: decisions work, chat completions explain what to add', async () => {
    const child = serve(['--port', '0']);
    children.push(child);
    const url = await listening(child);
    expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    const health = await request(`${url}/health`);
    expect(await health.body.json()).toMatchObject({ status: 'ok' });
    const body = JSON.stringify({
      model: 'auto',
      messages: [{ role: 'user', content: 'What is the capital of France?' }],
    });
    const route = await request(`${url}/v1/route`, { method: 'POST', body });
    expect(await route.body.json()).toMatchObject({ tier: 'SIMPLE', model: null });
    const chat = await request(`${url}/v1/chat/completions`, { method: 'POST', body });
    expect(chat.statusCode).toBe(503);
    expect(((await chat.body.json()) as { error: { code: string } }).error.code).toBe(
      'no_upstream',
    );
    const ended = exited(child);
    child.kill('SIGTERM');
    expect((await ended).code).toBe(0);
  });

  it('routes to the upstreams of its configuration file', async () => {
    const fake = await startFakeLlm();
    try {
      const dir = mkdtempSync(join(tmpdir(), 'triage-serve-config-'));
      const file = join(dir, 'triage.yaml');
      writeFileSync(
        file,
        `providers:\n  local: { baseUrl: "${fake.openAiBaseUrl}", apiKeyEnv: LOCAL_KEY }\n` +
          'tiers:\n  SIMPLE: [local/small]\n  MEDIUM: [local/mid]\n',
      );
      const child = serve(['--config', file, '--port', '0'], { LOCAL_KEY: 'sk-local' });
      children.push(child);
      const url = await listening(child);
      const res = await request(`${url}/v1/chat/completions`, {
        method: 'POST',
        body: JSON.stringify({ model: 'auto', messages: [{ role: 'user', content: 'Hi!' }] }),
      });
      expect(res.statusCode).toBe(200);
      expect(res.headers['x-triage-model']).toBe('local/small');
      await res.body.dump();
      expect(fake.chatRequests[0]?.headers.authorization).toBe('Bearer sk-local');
    } finally {
      await fake.close();
    }
  });

  it('refuses a bad configuration in one line naming the field, with exit code 2', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'triage-serve-bad-'));
    const file = join(dir, 'bad.yaml');
    writeFileSync(file, 'server:\n  port: 99999\n');
    const { code, stderr } = await exited(serve(['--config', file]));
    expect(code).toBe(2);
    expect(stderr.trim().split('\n')).toHaveLength(1);
    expect(stderr).toMatch(/bad\.yaml: \/server\/port must be <= 65535/);
  });

  it('rejects a port that is not a number', async () => {
    const { code, stderr } = await exited(serve(['--port', 'eighty']));
    expect(code).toBe(2);
    expect(stderr).toContain('must be an integer from 0 to 65535');
  });
});
