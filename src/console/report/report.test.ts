import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { captureOutput } from '../../cli/capture.test-helpers.js';
import { runCli } from '../../cli/program.js';
import { ClassificationTally } from '../../eval/metrics.js';
import { evalReportHtml } from './html.js';
import { perClassMetrics } from './per-class.js';

const dir = mkdtempSync(join(tmpdir(), 'triage-report-'));
const fixture = (name: string) => join(import.meta.dirname, '../../../test/fixtures', name);
const jsonl = (name: string, rows: readonly object[]) => {
  const path = join(dir, name);
  writeFileSync(path, rows.map((row) => JSON.stringify(row)).join('\n'));
  return path;
};

/** Runs `triage eval …` in-process with `--html`, and returns its exit code and the HTML. */
async function report(...args: string[]): Promise<{ code: number; html: string; err: string }> {
  const out = join(dir, `${args[0]}-${Math.random().toString(36).slice(2)}.html`);
  const io = captureOutput();
  try {
    const code = await runCli(['node', 'triage', 'eval', ...args, '--html', out]);
    return { code, html: code === 0 ? readFileSync(out, 'utf8') : '', err: io.err() };
  } finally {
    vi.restoreAllMocks();
  }
}

afterEach(() => vi.restoreAllMocks());

describe('per-class figures', () => {
  it('computes precision, recall and F1 from a confusion matrix', () => {
    const tally = new ClassificationTally(['a', 'b']);
    for (const [expected, predicted] of [
      ['a', 'a'],
      ['a', 'a'],
      ['a', 'b'],
      ['b', 'b'],
      ['b', 'a'],
    ] as const) {
      tally.add(1, 'x', expected, predicted);
    }
    const [a, b] = perClassMetrics(tally.report());
    expect(a).toMatchObject({ label: 'a', support: 3, predicted: 3 });
    expect(a!.precision).toBeCloseTo(2 / 3);
    expect(a!.recall).toBeCloseTo(2 / 3);
    expect(b).toMatchObject({ label: 'b', support: 2, precision: 0.5, recall: 0.5, f1: 0.5 });
  });

  it('gives 0, not NaN, for a class never expected nor predicted', () => {
    const [m] = perClassMetrics({ labels: ['x'], confusion: { x: { x: 0 } } });
    expect(m).toMatchObject({ precision: 0, recall: 0, f1: 0, support: 0 });
  });
});

describe('triage eval … --html', () => {
  it('writes a self-contained tier report: matrix, per-class figures, misclassified rows with signals', async () => {
    const { code, html } = await report('tier', fixture('tier.jsonl'));
    expect(code).toBe(0);
    expect(html).toMatch(/^<!doctype html>/);
    expect(html).not.toMatch(/<script|<link|src="http/);
    expect(html).toContain('id="confusion"');
    for (const tier of ['SIMPLE', 'MEDIUM', 'COMPLEX', 'REASONING']) {
      expect(html).toContain(`<th scope="row">${tier}</th>`);
    }
    expect(html).toContain('Per class');
    expect(html).toMatch(/Misclassified rows/);
    expect(html).toContain('prefers-color-scheme: dark');
  });

  it('escapes the text of the rows it lists', async () => {
    const rows = jsonl('xss.jsonl', [
      { input: '<img src=x onerror=alert(1)> hi', expected: 'REASONING' },
    ]);
    const { code, html } = await report('tier', rows);
    expect(code).toBe(0);
    expect(html).not.toContain('<img src=x');
    expect(html).toContain('&lt;img src=x onerror=alert(1)&gt;');
  });

  it('writes binary, context and routing reports too', async () => {
    const injection = await report('injection', fixture('injection-eval.jsonl'));
    expect(injection.code).toBe(0);
    expect(injection.html).toContain('false-positive rate');
    expect(injection.html).toContain('<th scope="row">positive</th>');
    const context = await report('context', fixture('context.jsonl'));
    expect(context.code).toBe(0);
    expect(context.html).toContain('id="confusion"');
    const outcomes = jsonl(
      'outcomes.jsonl',
      Array.from({ length: 40 }, (_, i) => ({
        prompt: i % 4 === 0 ? 'Prove step by step that the algorithm terminates.' : `hi ${i}`,
        weak_correct: i % 4 !== 0,
        strong_correct: true,
      })),
    );
    const routing = await report('routing', outcomes);
    expect(routing.code).toBe(0);
    expect(routing.html).toContain('Cost and quality');
    expect(routing.html).toMatch(/<svg[^>]+role="img"/);
  });

  it('writes nothing when the option is not given, and a later run without it writes none', async () => {
    const io = captureOutput();
    expect(await runCli(['node', 'triage', 'eval', 'tier', fixture('tier.jsonl'), '--json'])).toBe(
      0,
    );
    expect(io.err()).not.toContain('HTML report');
  });
});

describe('evalReportHtml', () => {
  it('draws the routing curve against the random line', () => {
    const html = evalReportHtml({
      kind: 'routing',
      title: 'r',
      file: 'f',
      report: {
        rows: 10,
        weakQuality: 0.5,
        strongQuality: 0.9,
        apgr: 0.7,
        baselines: { random: 0.5, length: 0.55 },
        keep: 0.95,
        strongShareToKeep: { router: 0.4, length: 0.7, random: 0.9 },
        curve: [
          { strongShare: 0, quality: 0.5 },
          { strongShare: 0.5, quality: 0.85 },
          { strongShare: 1, quality: 0.9 },
        ],
      },
    });
    expect(html).toContain('triage router');
    expect(html).toContain('random');
    expect(html.match(/<circle/g)).toHaveLength(5);
  });
});
