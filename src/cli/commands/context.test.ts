import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { type FakeLlmServer, startFakeLlm } from '../../testing/index.js';
import { runCli } from '../program.js';

const temp = (name: string, content: string) => {
  const path = join(mkdtempSync(join(tmpdir(), 'triage-context-')), name);
  writeFileSync(path, content);
  return path;
};

/** Runs the CLI, returning its exit code and what it wrote. */
async function run(...args: string[]) {
  const out = vi.spyOn(process.stdout, 'write').mockImplementation(() => true);
  const err = vi.spyOn(process.stderr, 'write').mockImplementation(() => true);
  const code = await runCli(['node', 'triage', ...args]);
  const text = (spy: typeof out) => spy.mock.calls.map((call) => String(call[0])).join('');
  const result = { code, stdout: text(out), stderr: text(err) };
  vi.restoreAllMocks();
  return result;
}

afterEach(() => {
  vi.restoreAllMocks();
  process.exitCode = undefined;
});

describe('triage context', () => {
  it('prints mode, confidence, margin, scores, signals, source and policy', async () => {
    const { code, stdout } = await run('context', 'Define macroeconomics very concisely');
    expect(code).toBe(0);
    expect(stdout).toContain('mode        standalone_definition\n');
    expect(stdout).toContain('confidence  0.99\n');
    expect(stdout).toContain(
      'margin      0.64 (local standalone_definition at 0.99; thresholds 0.75 / 0.2)',
    );
    expect(stdout).toContain('source      local: signals: definition+concision\n');
    expect(stdout).toContain(
      'scores      standalone_definition 0.88 · page_grounded_definition 0.14 · general_contextual 0.24',
    );
    expect(stdout).toContain(
      'signals     definition (define) · concision (very concisely, concisely)',
    );
    expect(stdout).toContain(
      'policy      image no · history no · memory no · notes no · max sentences 2',
    );
    expect(stdout).toContain('instruction Return a direct standalone definition');
  });

  it('prints one JSON object with --json', async () => {
    const { stdout } = await run('context', '--json', 'What does this section mean?');
    const report = JSON.parse(stdout);
    expect(report).toMatchObject({
      mode: 'general_contextual',
      source: 'local',
      signals: { general: ['what does this section mean'], deictic: ['this'] },
      policy: { useImage: true, maxSentences: null },
      local: { confident: true },
    });
    expect(report.margin).toBeCloseTo(1.092, 3);
    expect(Object.keys(report.scores)).toHaveLength(3);
  });

  it('applies a YAML configuration file', async () => {
    const config = temp('context.yaml', 'enabled: false\n');
    const { stdout } = await run('context', '--json', '--config', config, 'Define entropy');
    expect(JSON.parse(stdout)).toMatchObject({ mode: 'general_contextual', source: 'forced' });
  });

  it('names the file and field of a bad configuration, and exits 2', async () => {
    const config = temp('context.json', '{"llm": {"timeoutMs": -5}}');
    const { code, stderr } = await run('context', '--config', config, 'Define entropy');
    expect(code).toBe(2);
    expect(stderr).toBe(
      `triage: invalid ${config}: /llm/timeoutMs must be >= 1 (see 'triage context --help')\n`,
    );
    const broken = temp('broken.yaml', 'modes: [unclosed');
    const second = await run('context', '--config', broken, 'Define entropy');
    expect(second.code).toBe(2);
    expect(second.stderr).toMatch(
      new RegExp(`^triage: ${broken} is not valid JSON or YAML: .+\\n$`),
    );
    const missing = await run('context', '--config', '/nonexistent.yaml', 'x');
    expect(missing.stderr).toBe(
      "triage: cannot read /nonexistent.yaml: ENOENT (see 'triage context --help')\n",
    );
  });
});

describe('triage eval context', () => {
  it('prints accuracy, the confusion matrix and the share decided locally', async () => {
    const file = temp(
      'rows.jsonl',
      [
        { input: 'Define entropy', expected: 'standalone_definition' },
        { input: 'Summarize this page', expected: 'general_contextual' },
        { input: 'What is complexity in this context?', expected: 'page_grounded_definition' },
        { input: 'Can you clarify?', expected: ['general_contextual', 'standalone_definition'] },
      ]
        .map((row) => JSON.stringify(row))
        .join('\n'),
    );
    const { code, stdout } = await run('eval', 'context', file, '--json');
    expect(code).toBe(0);
    const report = JSON.parse(stdout);
    expect(report).toMatchObject({
      total: 4,
      correct: 4,
      accuracy: 1,
      local_decided: 2,
      local_share: 0.5,
      local_accuracy: 1,
      llm_calls: 0,
    });
    expect(report.confusion.page_grounded_definition.page_grounded_definition).toBe(1);
    const text = await run('eval', 'context', file);
    expect(text.stdout).toContain('accuracy 100.0% (4/4)');
    expect(text.stdout).toMatch(/^local_share +0\.5$/m);
  });

  it('rejects a row with an unknown mode, naming the line', async () => {
    const file = temp('bad.jsonl', '{"input": "x", "expected": "visual"}\n');
    const { code, stderr } = await run('eval', 'context', file);
    expect(code).toBe(2);
    expect(stderr).toContain(
      `${file}:1: "expected" must be one of (or a list of): standalone_definition`,
    );
  });

  it('evaluates the project’s labelled set', async () => {
    const fixture = new URL('../../../test/fixtures/context.jsonl', import.meta.url).pathname;
    const report = JSON.parse((await run('eval', 'context', fixture, '--json')).stdout);
    expect(report.total).toBeGreaterThanOrEqual(100);
    expect(report.local_share).toBeGreaterThanOrEqual(0.85);
    expect(report.local_accuracy).toBeGreaterThanOrEqual(0.97);
  });
});

describe('triage context and eval context with --llm', () => {
  let fake: FakeLlmServer;
  beforeAll(async () => {
    fake = await startFakeLlm();
  });
  afterAll(async () => {
    await fake.close();
  });
  const providers = () =>
    temp(
      'llm.yaml',
      [
        'providers:',
        `  - { id: local-a, kind: openai, baseUrl: "${fake.openAiBaseUrl}", model: m, maxRetries: 0 }`,
        `  - { id: local-b, kind: ollama, baseUrl: "${fake.url}", model: m, maxRetries: 0 }`,
      ].join('\n'),
    );
  const patient = () => temp('patient.yaml', 'llm: { timeoutMs: 5000 }\n');

  it('asks the configured LLM when unsure', async () => {
    fake.reset().reply({
      json: { mode: 'page_grounded_definition', confidence: 0.9, reason: 'far right' },
    });
    const args = ['--llm', providers(), '--provider', 'local-b', '--config', patient(), '--json'];
    const { code, stdout } = await run(
      'context',
      ...args,
      'What does the arrow in the diagram mean?',
    );
    expect(code).toBe(0);
    expect(JSON.parse(stdout)).toMatchObject({
      mode: 'page_grounded_definition',
      source: 'llm',
      llmConfidence: 0.9,
      local: { mode: 'general_contextual', confident: false },
    });
    expect(fake.chatRequests.map((request) => request.format)).toEqual(['ollama']);
  });

  it('requires --provider when the file lists several, and names an unknown one', async () => {
    const file = providers();
    const several = await run('context', '--llm', file, 'x');
    expect(several.stderr).toBe(
      `triage: ${file} lists 2 providers: choose one with --provider (see 'triage context --help')\n`,
    );
    const unknown = await run('context', '--llm', file, '--provider', 'zzz', 'x');
    expect(unknown.stderr).toBe(
      `triage: ${file} has no provider with id zzz (see 'triage context --help')\n`,
    );
  });

  it('counts LLM calls in the evaluation', async () => {
    const answers: Record<string, string> = {
      'What does the arrow in the diagram mean?': 'page_grounded_definition',
      'Can you clarify?': 'general_contextual',
    };
    fake.reset().reply((request) => {
      const question = request.prompt.slice(request.prompt.lastIndexOf('Question: ') + 10);
      return { json: { mode: answers[question], confidence: 0.8, reason: 'r' } };
    });
    const file = temp(
      'rows.jsonl',
      [
        { input: 'Define entropy', expected: 'standalone_definition' },
        ...Object.entries(answers).map(([input, expected]) => ({ input, expected })),
      ]
        .map((row) => JSON.stringify(row))
        .join('\n'),
    );
    const args = ['--llm', providers(), '--provider', 'local-a', '--config', patient(), '--json'];
    const report = JSON.parse((await run('eval', 'context', file, ...args)).stdout);
    expect(report).toMatchObject({
      total: 3,
      accuracy: 1,
      local_decided: 1,
      llm_calls: 2,
      fallbacks: 0,
    });
  });
});
