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
    expect(io.out()).toMatch(
      /^provider +kind +model +text +structured +result\noa +openai +m +ok \d+ ms +FAILED \d+ ms +FAILED$/m,
    );
    expect(io.out()).toMatch(/^oa structured: llm_invalid_output: oa: reply does not match/m);
  });

  it('checks every provider of the file in parallel, one JSON line each', async () => {
    fake.script('OK', { json: { ok: true } }, 'OK', { json: { ok: true } });
    const config = file(
      'providers.yaml',
      'providers:\n' +
        `  - {id: up, kind: ollama, baseUrl: "${fake.url}", model: qwen3}\n` +
        '  - {id: down, kind: ollama, baseUrl: "http://127.0.0.1:9", model: qwen3, maxRetries: 0}\n',
    );
    const io = capture();
    expect(await runCli(['node', 'triage', 'llm', 'check', config, '--json'])).toBe(1);
    const lines = io
      .out()
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line));
    expect(lines.map((line) => [line.provider, line.ok])).toEqual([
      ['up', true],
      ['down', false],
    ]);
    expect(lines[1].steps[0].error).toMatch(/^llm_/);
    const text = capture();
    expect(await runCli(['node', 'triage', 'llm', 'check', config])).toBe(1);
    expect(text.out()).toMatch(/^up +ollama +qwen3 +ok \d+ ms +ok \d+ ms +ok$/m);
    expect(text.out()).toMatch(/^down +ollama +qwen3 +FAILED/m);
    expect(text.out()).toContain('1 of 2 providers failed');
  });

  it('fails with one line on a bad configuration or an ambiguous file', async () => {
    const io = capture();
    const bad = file('bad.json', JSON.stringify({ id: 'x', kind: 'gemini', model: 'm' }));
    expect(await runCli(['node', 'triage', 'llm', 'check', bad])).toBe(2);
    expect(io.err()).toMatch(/^triage: invalid .*bad\.json: \/kind must be one of/);
    const two = file('two.json', JSON.stringify([{ id: 'a' }, { id: 'b' }]));
    expect(await runCli(['node', 'triage', 'llm', 'check', two, '--provider', 'c'])).toBe(2);
    expect(io.err()).toContain('has no provider with id c');
  });
});
