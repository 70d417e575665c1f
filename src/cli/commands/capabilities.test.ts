import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { startFakeLlm } from '../../testing/index.js';
import { runCli } from '../program.js';

const REGISTRY = fileURLToPath(
  new URL('../../capabilities/testdata/assistant.yaml', import.meta.url),
);
/** The registry of the README's example. */
const EXAMPLE = fileURLToPath(new URL('../../../examples/capabilities.yaml', import.meta.url));

async function run(...args: string[]): Promise<{ code: number; out: string; err: string }> {
  let out = '';
  let err = '';
  const stdout = vi.spyOn(process.stdout, 'write').mockImplementation((chunk) => {
    out += String(chunk);
    return true;
  });
  const stderr = vi.spyOn(process.stderr, 'write').mockImplementation((chunk) => {
    err += String(chunk);
    return true;
  });
  try {
    const code = await runCli(['node', 'triage', ...args]);
    return { code, out, err };
  } finally {
    stdout.mockRestore();
    stderr.mockRestore();
  }
}

afterEach(() => {
  process.exitCode = undefined;
});

describe('triage capabilities', () => {
  it('prints the selection with sources and reasons, and says no LLM was used', async () => {
    const { code, out } = await run(
      'capabilities',
      "What's the weather like in Paris today?",
      '--registry',
      REGISTRY,
    );
    expect(code).toBe(0);
    expect(out).toMatch(/^selected: respond, current_weather\n/);
    expect(out).toMatch(/yes {2}respond +always-active +1\.00 {2}always active/);
    expect(out).toMatch(/yes {2}current_weather +local .*close to its examples/);
    expect(out).toMatch(/no {3}calendar +local .*unlike its examples/);
    expect(out).toContain('no LLM configured: the local pre-matcher decided alone');
  });

  it('gets the README example right without an LLM, with a reason of its own for each', async () => {
    const { code, out } = await run('capabilities', 'Email Bob the forecast', '-r', EXAMPLE);
    expect(code).toBe(0);
    expect(out).toMatch(/^selected: respond, current_weather, send_email\n/);
    expect(out).toMatch(
      /yes {2}current_weather +local .*"forecast" ~ "forecasts" in its description/,
    );
    expect(out).toMatch(/yes {2}send_email +local .*"email", "bob" as in "Send an email to Bob/);
    expect(out).toMatch(/no {3}calendar +local /);
    const reasons = out.split('\n').filter((line) => / local /.test(line));
    expect(new Set(reasons.map((line) => line.replace(/^.* local +\S+ +/, ''))).size).toBe(
      reasons.length,
    );
  });

  it('prints one JSON object with --json, without echoing the task', async () => {
    const { out } = await run('capabilities', 'secret plan /caps:off', '-r', REGISTRY, '--json');
    const result = JSON.parse(out);
    expect(result).toMatchObject({
      selected: ['respond', 'current_weather', 'send_email', 'calendar'],
      bypass: true,
      bypassFrom: 'directive',
      directive: 'off',
      llm: false,
    });
    expect(result.decisions[1]).toMatchObject({ decidedBy: 'bypass', source: 'forced' });
    expect(out).not.toContain('secret plan');
  });

  it('fails with one line and exit code 2 on a bad registry', async () => {
    const path = join(mkdtempSync(join(tmpdir(), 'triage-cli-')), 'bad.yaml');
    writeFileSync(path, 'capabilities:\n  - name: x\n    descripton: typo\n');
    const { code, err } = await run('capabilities', 'task', '-r', path);
    expect(code).toBe(2);
    expect(err).toMatch(/^triage: invalid .*bad\.yaml: /);
    expect(err).toContain('/capabilities/0/descripton is not a known field');
    expect(err).toContain('/capabilities/0/description is required');
    expect(err.trim().split('\n')).toHaveLength(1);
  });

  it('fails clearly on an empty task', async () => {
    const { code, err } = await run('capabilities', '   ', '-r', REGISTRY);
    expect(code).toBe(2);
    expect(err).toContain('the text argument is empty');
  });
});

describe('triage capabilities --llm (fake LLM server over HTTP)', () => {
  it('asks the configured provider about the uncertain capabilities', async () => {
    const fake = await startFakeLlm();
    try {
      fake.reply((request) => ({
        json: { is_match: /^Capability: calendar$/m.test(request.system ?? ''), reason: 'fake' },
      }));
      const config = join(mkdtempSync(join(tmpdir(), 'triage-cli-')), 'llm.yaml');
      writeFileSync(
        config,
        `id: fake\nkind: openai\nmodel: fake-model\nbaseUrl: ${fake.openAiBaseUrl}\nmaxRetries: 0\n`,
      );
      const { code, out } = await run(
        'capabilities',
        'Move my meeting to Friday',
        '-r',
        REGISTRY,
        '--llm',
        config,
        '--no-prematch',
        '--json',
      );
      expect(code).toBe(0);
      const result = JSON.parse(out);
      expect(result).toMatchObject({ selected: ['respond', 'calendar'], llm: true, llmCalls: 3 });
      expect(result.note).toBeUndefined();
      expect(fake.chatRequests).toHaveLength(3);

      fake.reply({ status: 500, error: 'down' });
      const failed = await run(
        'capabilities',
        'Move my meeting',
        '-r',
        REGISTRY,
        '--llm',
        config,
        '--no-prematch',
      );
      expect(failed.code).toBe(1);
      expect(failed.out).toMatch(/no {3}calendar +failed +0\.00 {2}classification failed: /);
      expect(failed.out).toContain('3 capabilities could not be classified');
    } finally {
      await fake.close();
    }
  });
});

describe('triage eval capabilities', () => {
  it('names a missing split', async () => {
    const path = join(mkdtempSync(join(tmpdir(), 'triage-cli-')), 'intents.json');
    writeFileSync(path, JSON.stringify({ train: [['hello', 'greet']] }));
    const { code, err } = await run('eval', 'capabilities', path);
    expect(code).toBe(2);
    expect(err).toContain('has no "test" split');
  });

  it('rejects a data set that is not in the expected layout', async () => {
    const path = join(mkdtempSync(join(tmpdir(), 'triage-cli-')), 'intents.json');
    writeFileSync(path, JSON.stringify({ train: [{ text: 'hello' }] }));
    const { code, err } = await run('eval', 'capabilities', path);
    expect(code).toBe(2);
    expect(err).toMatch(/\/train\/0 must be array/);
  });
});
