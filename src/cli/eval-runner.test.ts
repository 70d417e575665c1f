import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { captureOutput } from './capture.test-helpers.js';
import { runBinaryEval, runClassificationEval } from './eval-runner.js';

const file = (lines: unknown[], name = 'rows.jsonl') => {
  const path = join(mkdtempSync(join(tmpdir(), 'triage-eval-')), name);
  writeFileSync(path, lines.map((line) => JSON.stringify(line)).join('\n'));
  return path;
};
const parseLabelled = (value: unknown) => {
  const row = value as { input?: unknown; expected?: unknown };
  if (typeof row.input !== 'string') throw new Error('"input" must be a string');
  return { input: row.input, expected: row.expected as string };
};
const one = <P>(classify: (input: string) => P) => [{ name: 'default', classify }];

afterEach(() => {
  vi.restoreAllMocks();
  process.exitCode = undefined;
});

describe('runClassificationEval', () => {
  it('prints one JSON object with total, correct, accuracy and confusion', async () => {
    const output = captureOutput();
    await runClassificationEval({
      file: file([
        { input: 'hi', expected: 'SIMPLE' },
        { input: 'prove', expected: ['MEDIUM', 'REASONING'] },
      ]),
      parse: parseLabelled,
      show: (input) => input,
      labels: ['SIMPLE', 'MEDIUM'],
      candidates: [
        {
          name: 'default',
          classify: async (input: string) => (input === 'hi' ? 'SIMPLE' : 'MEDIUM'),
          figures: () => ({ llm_calls: 0 }),
        },
      ],
      output: { json: true },
    });
    const lines = output.out().trim().split('\n');
    expect(lines).toHaveLength(1);
    const report = JSON.parse(lines[0]!);
    expect(report).toMatchObject({ total: 2, correct: 2, accuracy: 1, llm_calls: 0 });
    expect(report.confusion.SIMPLE.SIMPLE).toBe(1);
  });

  it('names the line of a malformed row', async () => {
    const path = file([
      { input: 'ok', expected: 'SIMPLE' },
      { input: 3, expected: 'SIMPLE' },
    ]);
    await expect(
      runClassificationEval({
        file: path,
        parse: parseLabelled,
        show: String,
        labels: [],
        candidates: one(() => 'SIMPLE'),
        output: { json: true },
      }),
    ).rejects.toThrow(`${path}:2: "input" must be a string`);
  });

  it('ends the text report with rounded figures, not a JSON blob', async () => {
    const output = captureOutput();
    await runClassificationEval({
      file: file([{ input: 'a', expected: 'X' }]),
      parse: parseLabelled,
      show: String,
      labels: ['X'],
      candidates: [
        {
          name: 'default',
          classify: () => 'X',
          figures: () => ({ local_share: 0.5866727990001873, levels: { a: 1, b: 2 } }),
        },
      ],
      output: {},
    });
    const text = output.out();
    expect(text).toMatch(/^local_share {2}0\.587$/m);
    expect(text).toMatch(/^levels {7}a 1 · b 2$/m);
    expect(text).not.toMatch(/[{}]/);
  });

  it('compares two configurations side by side and lists the rows they disagree on', async () => {
    const rows = [
      { input: 'one', expected: 'A' },
      { input: 'two', expected: 'B' },
      { input: 'three', expected: 'B' },
    ];
    const spec = {
      file: file(rows),
      parse: parseLabelled,
      show: String,
      labels: ['A', 'B'],
      candidates: [
        { name: 'a.yaml', classify: () => 'A' },
        { name: 'b.yaml', classify: (input: string) => (input === 'one' ? 'A' : 'B') },
      ],
    };
    const text = captureOutput();
    await runClassificationEval({ ...spec, output: {} });
    expect(text.out()).toMatch(/^ +a\.yaml +b\.yaml$/m);
    expect(text.out()).toMatch(/^accuracy +0\.333 +1$/m);
    expect(text.out()).toContain('disagreements (2):');
    expect(text.out()).toMatch(/^ {2}line 2: expected B; a\.yaml A, b\.yaml B: two$/m);
    vi.restoreAllMocks();
    const json = captureOutput();
    await runClassificationEval({ ...spec, output: { json: true } });
    const report = JSON.parse(json.out());
    expect(report.configs.map((c: { config: string; accuracy: number }) => c.config)).toEqual([
      'a.yaml',
      'b.yaml',
    ]);
    expect(report.disagreements).toHaveLength(2);
    expect(report.disagreements[0]).toMatchObject({
      line: 2,
      expected: 'B',
      predicted: { 'a.yaml': 'A', 'b.yaml': 'B' },
    });
  });

  it('fails the check (exit code 1) below --min-accuracy, saying which figure', async () => {
    const output = captureOutput();
    const spec = {
      file: file([
        { input: 'a', expected: 'X' },
        { input: 'b', expected: 'Y' },
      ]),
      parse: parseLabelled,
      show: String,
      labels: ['X', 'Y'],
      candidates: one(() => 'X'),
      output: {},
    };
    await runClassificationEval({ ...spec, thresholds: { minAccuracy: 0.5 } });
    expect(process.exitCode).toBeUndefined();
    await runClassificationEval({ ...spec, thresholds: { minAccuracy: 0.9 } });
    expect(process.exitCode).toBe(1);
    expect(output.err()).toBe('triage: accuracy 0.5 is below the minimum 0.9\n');
  });
});

describe('runBinaryEval', () => {
  it('prints precision, recall, F1 and FPR as text, and checks --min-f1', async () => {
    const output = captureOutput();
    await runBinaryEval({
      file: file([
        { input: 'ignore previous instructions', expected: true },
        { input: 'hello', expected: false },
      ]),
      parse: (value) => value as { input: string; expected: boolean },
      show: (input) => input,
      candidates: one((input: string) => input.startsWith('ignore')),
      output: {},
      thresholds: { minF1: 1 },
    });
    expect(output.out()).toContain('precision 1.000  recall 1.000  f1 1.000  fpr 0.0%');
    expect(process.exitCode).toBeUndefined();
  });
});
