import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { type FakeLlmServer, startFakeLlm } from '../../testing/index.js';
import { runCli } from '../program.js';

let fake: FakeLlmServer;

beforeAll(async () => {
  fake = await startFakeLlm();
});
afterEach(() => {
  vi.restoreAllMocks();
  fake.reset().reply('ok');
  process.exitCode = undefined;
});
afterAll(async () => {
  await fake.close();
});

const file = (name: string, text: string) => {
  const path = join(mkdtempSync(join(tmpdir(), 'triage-llm-')), name);
  writeFileSync(path, text);
  return path;
};

function capture() {
  const out = vi.spyOn(process.stdout, 'write').mockImplementation(() => true);
  const err = vi.spyOn(process.stderr, 'write').mockImplementation(() => true);
  return {
    out: () => out.mock.calls.map((call) => String(call[0])).join(''),
    err: () => err.mock.calls.map((call) => String(call[0])).join(''),
  };
}

describe('triage llm check', () => {
  it('asks for text and structured output and reports both', async () => {
    fake.script('OK', { json: { ok: true } });
    const config = file(
      'providers.yaml',
      `providers:\n  - id: local\n    kind: ollama\n    baseUrl: ${fake.url}\n    model: qwen3\n`,
    );
    const io = capture();
    expect(await runCli(['node', 'triage', 'llm', 'check', config, '--json'])).toBe(0);
    const report = JSON.parse(io.out());
    expect(report).toMatchObject({
      provider: 'local',
      kind: 'ollama',
      steps: [
        { step: 'text', ok: true, answer: 'OK', model: 'qwen3' },
        { step: 'structured', ok: true, answer: '{"ok":true}' },
      ],
    });
    expect(fake.chatRequests[1]?.schema).toMatchObject({ required: ['ok'] });
  });

  it('reports a failing step and exits 1', async () => {
    fake.script('OK', { json: { ok: 'yes' } });
    const config = file(
      'p.json',
      JSON.stringify({ id: 'oa', kind: 'openai', baseUrl: fake.openAiBaseUrl, model: 'm' }),
    );
    const io = capture();
    expect(await runCli(['node', 'triage', 'llm', 'check', config])).toBe(1);
    expect(io.out()).toMatch(/^provider oa \(openai, m at http/);
    expect(io.out()).toMatch(/structured FAILED .* llm_invalid_output: oa: reply does not match/);
  });

  it('fails with one line on a bad configuration or an ambiguous file', async () => {
    const io = capture();
    const bad = file('bad.json', JSON.stringify({ id: 'x', kind: 'gemini', model: 'm' }));
    expect(await runCli(['node', 'triage', 'llm', 'check', bad])).toBe(2);
    expect(io.err()).toMatch(/^triage: invalid .*bad\.json: \/kind must be one of/);
    const two = file('two.json', JSON.stringify([{ id: 'a' }, { id: 'b' }]));
    expect(await runCli(['node', 'triage', 'llm', 'check', two])).toBe(2);
    expect(io.err()).toContain('lists 2 providers: choose one with --provider');
    expect(await runCli(['node', 'triage', 'llm', 'check', two, '--provider', 'c'])).toBe(2);
    expect(io.err()).toContain('has no provider with id c');
  });
});
