import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { runCli } from './cli/program.js';
import { startFakeLlm } from './testing/index.js';
import { createTriage, TRIAGE_LLM_OFF_WARNING } from './triage.js';

/** An LLM configuration whose key is read from a variable no test sets. */
const keyedLlm = {
  id: 'checker',
  kind: 'openai',
  model: 'checker-model',
  baseUrl: 'http://127.0.0.1:9/v1',
  apiKeyEnv: 'TRIAGE_TEST_NEVER_SET_KEY',
} as const;

afterEach(() => vi.restoreAllMocks());

describe('a configured LLM whose key variable is unset', () => {
  it('leaves the front door working locally, with the reason and one process warning', async () => {
    const emitted = vi.spyOn(process, 'emitWarning').mockImplementation(() => undefined);
    const triage = createTriage({ llm: keyedLlm, env: {} });
    expect(triage.llm).toBeUndefined();
    expect(triage.llmUnavailable).toBe(
      "environment variable TRIAGE_TEST_NEVER_SET_KEY is not set: the LLM check of provider 'checker' is off until it is",
    );
    expect(emitted).toHaveBeenCalledTimes(1);
    expect(emitted).toHaveBeenCalledWith(triage.llmUnavailable, { code: TRIAGE_LLM_OFF_WARNING });
    expect(triage.tier?.llmEnabled).toBe(false);
    const decision = await triage.decide('Zxqv blorp frandle wibbet.');
    expect(decision.tier?.source).not.toBe('llm');
    expect(decision.context?.source).not.toBe('llm');
    await triage.close();
  });

  it('uses the LLM when the variable is set', async () => {
    const emitted = vi.spyOn(process, 'emitWarning').mockImplementation(() => undefined);
    const triage = createTriage({ llm: keyedLlm, env: { TRIAGE_TEST_NEVER_SET_KEY: 'sk-x' } });
    expect(triage.llm?.id).toBe('checker');
    expect(triage.llmUnavailable).toBeNull();
    expect(emitted).not.toHaveBeenCalled();
    await triage.close();
  });

  it('lets a CLI command run locally, warning on standard error', async () => {
    const fake = await startFakeLlm({ reply: 'REASONING' });
    const file = join(mkdtempSync(join(tmpdir(), 'triage-llm-off-')), 'llm.yaml');
    writeFileSync(
      file,
      `id: fake\nkind: openai\nmodel: fake-model\nbaseUrl: ${fake.openAiBaseUrl}\napiKeyEnv: TRIAGE_TEST_NEVER_SET_KEY\n`,
    );
    const out = vi.spyOn(process.stdout, 'write').mockImplementation(() => true);
    const err = vi.spyOn(process.stderr, 'write').mockImplementation(() => true);
    try {
      const code = await runCli(['node', 'triage', 'tier', '--json', '--llm', file, 'Zxqv blorp']);
      expect(code).toBe(0);
      const decision = JSON.parse(out.mock.calls.map((c) => String(c[0])).join(''));
      expect(decision.source).not.toBe('llm');
      expect(err.mock.calls.map((c) => String(c[0])).join('')).toContain(
        'triage: warning: environment variable TRIAGE_TEST_NEVER_SET_KEY is not set',
      );
      expect(fake.chatRequests).toHaveLength(0);
    } finally {
      await fake.close();
    }
  });
});
