import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { captureOutput } from '../capture.test-helpers.js';
import { runCli } from '../program.js';

const dir = mkdtempSync(join(tmpdir(), 'triage-routing-'));
const file = (name: string, text: string) => {
  const path = join(dir, name);
  writeFileSync(path, text);
  return path;
};
const jsonl = (rows: readonly object[]) => rows.map((row) => JSON.stringify(row)).join('\n');
const cli = (...args: string[]) => runCli(['node', 'triage', ...args]);
/** Runs one command and returns its exit code and output. */
async function run(...args: string[]) {
  const io = captureOutput();
  try {
    const code = await cli(...args);
    return { code, out: io.out(), err: io.err() };
  } finally {
    vi.restoreAllMocks();
  }
}

/** Outcome rows where the strong model helps on the castle prompts only. */
const rows = Array.from({ length: 200 }, (_, i) => {
  const hard = i % 4 === 0;
  const topic = hard ? 'medieval castles' : ['the weather', 'a pasta recipe', 'tax forms'][i % 3]!;
  return {
    prompt: `Tell me about ${topic}${' please'.repeat(i % 5)}.`,
    weak_correct: !hard,
    strong_correct: true,
    topic: hard ? 'castles' : 'other',
  };
});
const outcomes = file('outcomes.jsonl', jsonl(rows));

afterEach(() => vi.restoreAllMocks());

describe('triage eval routing', () => {
  it('prints APGR, the baselines, the share that keeps 95% and the curve as JSON', async () => {
    const io = captureOutput();
    expect(await cli('eval', 'routing', outcomes, '--json', '--group-by', 'topic')).toBe(0);
    const report = JSON.parse(io.out());
    expect(report).toMatchObject({ rows: 200, weakQuality: 0.75, strongQuality: 1, keep: 0.95 });
    expect(report.baselines.random).toBe(0.5);
    expect(report.apgr).toBeGreaterThan(0);
    expect(report.curve).toHaveLength(11);
    expect(report.curve[0]).toMatchObject({ strongShare: 0, threshold: null, quality: 0.75 });
    expect(report.curve.at(-1).strongShare).toBe(1);
    expect(report.curve.at(-1).quality).toBeCloseTo(1, 9);
    expect(report.strongShareToKeep.random).toBeCloseTo(0.8, 9);
    expect(Object.keys(report.groups)).toEqual(['castles', 'other']);
    expect(report.groups.other.apgr).toBeNull(); // the strong model is no better there
  });

  it('prints a readable report, and names the line of a bad row', async () => {
    const io = captureOutput();
    expect(await cli('eval', 'routing', outcomes)).toBe(0);
    expect(io.out()).toMatch(/^rows {10}200 \(weak model quality 0\.750, strong 1\.000\)\nAPGR/);
    expect(io.out()).toContain('95% of the strong model');
    const bad = file(
      'bad.jsonl',
      `${JSON.stringify(rows[0])}\n{"prompt": "x", "weak_correct": "yes", "strong_correct": true}\n`,
    );
    expect(await cli('eval', 'routing', bad)).toBe(2);
    expect(io.err()).toContain(`${bad}:2: "weak_correct" must be true/false or 1/0`);
    const noPrompt = file('noprompt.jsonl', '{"weak_score": 1, "strong_score": 2}\n');
    expect(await cli('eval', 'routing', noPrompt)).toBe(2);
    expect(io.err()).toContain('needs "prompt" (text), "messages" (chat messages) or "input"');
  });
});

describe('triage train, calibrate and --weights', () => {
  const out = join(dir, 'weights.json');

  it('trains weights on outcomes, writes them and prints held-out figures', async () => {
    const io = captureOutput();
    expect(
      await cli('train', outcomes, '--out', out, '--min-word-rows', '5', '--seed', '2', '--json'),
    ).toBe(0);
    const report = JSON.parse(io.out());
    expect(report).toMatchObject({ fittedTo: 'outcomes', rows: 200, heldOutRows: 40, seed: 2 });
    expect(report.heldOut.trained).toBeGreaterThan(report.heldOut.untrained);
    const weights = JSON.parse(readFileSync(out, 'utf8'));
    expect(weights).toMatchObject({ version: 1, fittedTo: 'outcomes' });
    expect(weights.learned.words.castles).toBeGreaterThan(0);
  });

  it('evaluates and calibrates with the trained weights', async () => {
    const trained = await run('eval', 'routing', outcomes, '--json', '--weights', out);
    expect(trained.code).toBe(0);
    const report = JSON.parse(trained.out);
    expect(report.apgr).toBeGreaterThan(0.8);
    expect(report.strongShareToKeep.router).toBeLessThan(0.3);

    const byShare = await run(
      'calibrate',
      outcomes,
      '--strong-share',
      '0.25',
      '--weights',
      out,
      '--json',
    );
    expect(byShare.code).toBe(0);
    const calibrated = JSON.parse(byShare.out);
    expect(calibrated.strongShare).toBeCloseTo(0.25, 2);
    // The threshold sends those prompts to the strong tier through the split option.
    const config = file(
      'split.json',
      JSON.stringify({ split: { threshold: calibrated.threshold } }),
    );
    const castles = 'Tell me about medieval castles.';
    const tier = await run('tier', '--json', '--config', config, '--weights', out, castles);
    expect(JSON.parse(tier.out)).toMatchObject({ tier: 'COMPLEX', source: 'local' });

    const byQuality = await run('calibrate', outcomes, '--quality', '0.95', '--weights', out);
    expect(byQuality.code).toBe(0);
    expect(byQuality.out).toMatch(/^threshold {5}-?\d/);
    expect(byQuality.out).toContain(`weights: ${out}`);
  });

  it('uses --weights in triage eval tier, and rejects a bad weights file in one line', async () => {
    const labels = file('labels.jsonl', jsonl([{ input: 'hello', expected: 'SIMPLE' }]));
    const evaluated = await run('eval', 'tier', labels, '--json', '--weights', out);
    expect(JSON.parse(evaluated.out)).toMatchObject({ total: 1 });
    const bad = file('bad-weights.json', JSON.stringify({ version: 1, fittedTo: 'tiers' }));
    const rejected = await run('tier', '--weights', bad, 'hello');
    expect(rejected.code).toBe(2);
    expect(rejected.err).toBe(
      `triage: invalid ${bad}: /boundaries is required (see 'triage tier --help')\n`,
    );
  });

  it('asks for exactly one calibration target, and for outcomes to calibrate on quality', async () => {
    expect((await run('calibrate', outcomes)).err).toContain(
      'give one of --strong-share and --quality',
    );
    const prompts = file('prompts.jsonl', jsonl([{ prompt: 'hello' }, { prompt: 'Prove it.' }]));
    const byShare = await run('calibrate', prompts, '--strong-share', '0.5', '--json');
    expect(JSON.parse(byShare.out)).toMatchObject({ rows: 2, strongShare: 0.5 });
    const byQuality = await run('calibrate', prompts, '--quality', '0.9');
    expect(byQuality.code).toBe(2);
    expect(byQuality.err).toContain(`${prompts}:1: needs "weak_correct" and "strong_correct"`);
  });

  it('trains on tier labels, and refuses a file that mixes labels', async () => {
    const labels = file(
      'tiers.jsonl',
      jsonl([
        { input: 'hello', expected: 'SIMPLE' },
        { input: 'Write a poem about the sea', expected: 'MEDIUM' },
        {
          input: 'Prove that there are infinitely many primes, step by step',
          expected: 'REASONING',
        },
        { input: 'thanks!', expected: ['SIMPLE', 'MEDIUM'] },
      ]),
    );
    const io = captureOutput();
    expect(await cli('train', labels, '--out', join(dir, 'tiers.json'), '--holdout', '0')).toBe(0);
    expect(io.out()).toMatch(/^fitted to tiers: 4 rows, 4 fitted and 0 held out/);
    const mixed = file('mixed.jsonl', jsonl([rows[0]!, { input: 'hello', expected: 'SIMPLE' }]));
    expect(await cli('train', mixed, '--out', join(dir, 'mixed.json'))).toBe(2);
    expect(io.err()).toContain('every row needs the same kind of label');
  });
});
