import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { startFakeLlm } from '../../testing/index.js';
import { runCli } from '../program.js';

const capture = () => {
  const out = vi.spyOn(process.stdout, 'write').mockImplementation(() => true);
  const err = vi.spyOn(process.stderr, 'write').mockImplementation(() => true);
  return {
    stdout: () => out.mock.calls.map((call) => String(call[0])).join(''),
    stderr: () => err.mock.calls.map((call) => String(call[0])).join(''),
  };
};
const file = (name: string, text: string) => {
  const path = join(mkdtempSync(join(tmpdir(), 'triage-tier-')), name);
  writeFileSync(path, text);
  return path;
};
const cli = (...args: string[]) => runCli(['node', 'triage', ...args]);

afterEach(() => vi.restoreAllMocks());

describe('triage tier', () => {
  it('prints tier, confidence, score, signals and source', async () => {
    const io = capture();
    expect(await cli('tier', 'What is the capital of France?')).toBe(0);
    expect(io.stdout()).toMatch(
      /^tier {8}SIMPLE\nconfidence {2}0\.91\nscore {7}-0\.190\nsource {6}local\n/,
    );
    expect(io.stdout()).toContain('simple (what is, capital of)');
  });

  it('prints one JSON object with --json, including the dimension scores', async () => {
    const io = capture();
    expect(await cli('tier', '--json', 'Prove the theorem step by step')).toBe(0);
    const decision = JSON.parse(io.stdout());
    expect(decision).toMatchObject({ tier: 'REASONING', override: 'reasoning', source: 'local' });
    expect(decision.dimensions.reasoningMarkers).toBe(1);
  });

  it('reads an OpenAI request with --request, forced tiers included', async () => {
    const io = capture();
    const request = JSON.stringify({
      model: 'triage/complex',
      messages: [{ role: 'user', content: 'hi' }],
    });
    expect(await cli('tier', '--json', '--request', request)).toBe(0);
    expect(JSON.parse(io.stdout())).toMatchObject({ tier: 'COMPLEX', source: 'forced' });
  });

  it('applies --config and reports a bad one in one line, exit 2', async () => {
    const io = capture();
    const config = file('tier.yaml', 'boundaries:\n  MEDIUM: -1\n');
    expect(await cli('tier', '--json', '--config', config, 'hello')).toBe(0);
    expect(JSON.parse(io.stdout()).tier).toBe('MEDIUM');
    const bad = file('bad.yaml', 'dimensions:\n  codePresence:\n    wieght: 1\n');
    expect(await cli('tier', '--config', bad, 'hello')).toBe(2);
    expect(io.stderr()).toContain('/dimensions/codePresence/wieght is not a known field');
    expect(await cli('tier', '--request', '{"messages": 3}')).toBe(2);
    expect(io.stderr()).toContain('must be an object with a "messages" array');
  });
});

describe('triage eval tier', () => {
  it('prints accuracy and confusion as one JSON object', async () => {
    const io = capture();
    const rows = file(
      'rows.jsonl',
      [
        { input: 'hello', expected: 'SIMPLE' },
        {
          input: { messages: [{ role: 'user', content: 'Prove the theorem step by step' }] },
          expected: 'REASONING',
        },
        { input: 'Write a poem about spring', expected: ['MEDIUM', 'COMPLEX'] },
      ]
        .map((row) => JSON.stringify(row))
        .join('\n'),
    );
    expect(await cli('eval', 'tier', rows, '--json')).toBe(0);
    const report = JSON.parse(io.stdout());
    expect(report).toMatchObject({ total: 3, correct: 3, accuracy: 1 });
    expect(report.confusion.REASONING.REASONING).toBe(1);
    expect(report.stats).toMatchObject({ decisions: 3, llmCalls: 0 });
  });

  it('runs the LLM check with --llm, over HTTP to the configured provider', async () => {
    const fake = await startFakeLlm({ reply: 'REASONING' });
    try {
      const io = capture();
      const llm = file(
        'llm.yaml',
        `id: fake\nkind: openai\nmodel: fake-model\nbaseUrl: ${fake.openAiBaseUrl}\nmaxRetries: 0\n`,
      );
      const rows = file(
        'rows.jsonl',
        `${JSON.stringify({ input: 'What are the differences between TCP and UDP?', expected: 'REASONING' })}\n`,
      );
      expect(await cli('eval', 'tier', rows, '--json', '--llm', llm)).toBe(0);
      const report = JSON.parse(io.stdout());
      expect(report).toMatchObject({ accuracy: 1 });
      expect(report.stats).toMatchObject({ llmCalls: 1, llmOverrode: 1 });
      expect(fake.chatRequests).toHaveLength(1);
    } finally {
      await fake.close();
    }
  });

  it('names the line of a bad row', async () => {
    const io = capture();
    const rows = file('bad.jsonl', '{"input": "hi", "expected": "EASY"}\n');
    expect(await cli('eval', 'tier', rows)).toBe(2);
    expect(io.stderr()).toContain(
      `${rows}:1: "expected" must be one of SIMPLE, MEDIUM, COMPLEX, REASONING`,
    );
  });
});
