import { describe, expect, it } from 'vitest';
import { ConfigError } from '../../core/errors.js';
import { builderOf, contextOf, contextWithErrors, fail, ok } from '../guidance.test-helpers.js';
import type { TrajectoryEvent } from '../types.js';
import { DoomLoopClassifier } from './doom-loop.js';
import { ErrorStreakClassifier } from './error-streak.js';
import { ProgressStallClassifier } from './progress-stall.js';

const loop = (times: number, cycle: readonly string[]): TrajectoryEvent[] => {
  const events: TrajectoryEvent[] = [ok('setup')];
  for (let i = 0; i < times; i++) {
    for (const tool of cycle) events.push(fail(tool, { attempt: i, path: './src//a.ts' }, `e${i}`));
  }
  return events;
};

describe('DoomLoopClassifier', () => {
  const classifier = new DoomLoopClassifier();

  it('fires at minRepetitions of a cycle, with the document confidence and the cycle', () => {
    expect(classifier.classify(contextOf(loop(2, ['bash', 'edit']))).relevant).toBe(false);
    const result = classifier.classify(contextOf(loop(3, ['bash', 'edit'])));
    expect(result).toMatchObject({
      relevant: true,
      confidence: 0.5,
      metadata: { cycle: ['bash', 'edit'], repetitions: 3, exactRepetitions: 1 },
    });
    expect(result.reason).toBe('cycle bash → edit repeated 3x (params differing only in noise)');
    expect(classifier.classify(contextOf(loop(6, ['bash', 'edit']))).confidence).toBe(1);
    expect(classifier.classify(contextOf(loop(9, ['a', 'b', 'c']))).confidence).toBe(1);
  });

  it('says nothing of near-repeats when the params are identical', () => {
    const events = [ok('x'), ...Array.from({ length: 6 }, (_, i) => ok(i % 2 ? 'a' : 'b'))];
    expect(classifier.classify(contextOf(events)).reason).toBe('cycle b → a repeated 3x');
  });

  it('does not fire once the loop is broken, on one call repeated, or on a cycle too short', () => {
    expect(classifier.classify(contextOf([...loop(4, ['a', 'b']), ok('c')])).relevant).toBe(false);
    expect(classifier.classify(contextOf(loop(8, ['a']))).relevant).toBe(false);
    expect(
      new DoomLoopClassifier({ minCycleLength: 1 }).classify(contextOf(loop(3, ['a']))),
    ).toMatchObject({
      relevant: true,
    });
    expect(
      new DoomLoopClassifier({ minCycleLength: 3 }).classify(contextOf(loop(4, ['a', 'b'])))
        .relevant,
    ).toBe(false);
  });

  it('does not count calls that differ in more than noise', () => {
    const events = [
      ok('read', { path: 'a.ts' }),
      ok('grep'),
      ok('read', { path: 'b.ts' }),
      ok('grep'),
    ];
    events.push(ok('read', { path: 'c.ts' }), ok('grep'));
    expect(classifier.classify(contextOf(events)).relevant).toBe(false);
  });

  it('does not fold the identity of what is acted on: other files, other pages', () => {
    const files = [1, 2, 3].flatMap((n) => [
      ok('read_file', { path: `src/file${n}.ts` }),
      ok('grep', { pattern: 'parseConfig' }),
    ]);
    expect(classifier.classify(contextOf(files)).relevant).toBe(false);
    const pages = [0, 100, 200].flatMap((offset) => [
      ok('read_file', { path: 'src/big.ts', offset, limit: 100 }),
      ok('grep', { pattern: 'parseConfig' }),
    ]);
    expect(classifier.classify(contextOf(pages)).relevant).toBe(false);
    const lines = [1, 101, 201].flatMap((from) => [
      ok('bash', { cmd: `sed -n ${from},${from + 99}p src/big.ts` }),
      ok('grep', { pattern: 'parseConfig' }),
    ]);
    expect(classifier.classify(contextOf(lines)).relevant).toBe(false);
    const tests = [1, 2, 3].flatMap((n) => [
      fail('bash', { cmd: `pytest -k test_${n}` }),
      ok('edit', { path: 'src/a.py' }),
    ]);
    expect(classifier.classify(contextOf(tests)).relevant).toBe(false);
  });

  it('still folds real near-repeats: a new timestamp, request id or temp dir each time', () => {
    const stamps = ['2024-05-01T10:00:03Z', '2024-05-01T10:01:17Z', '2024-05-01T10:02:40Z'];
    const byTimestamp = stamps.flatMap((since) => [
      fail('bash', { cmd: `journalctl -u api --since "${since}"` }),
      ok('edit', { path: 'src/api.ts' }),
    ]);
    const ids = ['7f3c9a1e-0b1d-4c2e-9f00-123456789abc', '0c6b1f9e-7d2a-4e11-8b3f-aa00bb11cc22'];
    const byRequestId = [...ids, '5e1d2c3b-4a59-4687-9abc-def012345678'].flatMap((id) => [
      fail('http_post', { url: 'https://api.example.com/orders', headers: { 'X-Request-Id': id } }),
      ok('read_file', { path: 'src/orders.ts' }),
    ]);
    const byTempDir = ['build-1042', 'build-1187', 'build-1203'].flatMap((dir) => [
      fail('bash', { cmd: `make -C /tmp/${dir} all` }),
      ok('edit', { path: 'Makefile' }),
    ]);
    const byEpoch = [1_714_557_603_120, 1_714_557_677_004, 1_714_557_760_982].flatMap((t) => [
      fail('http_get', { url: 'https://api.example.com/status', ts: t }),
      ok('sleep', { seconds: 5 }),
    ]);
    for (const [name, events] of Object.entries({ byTimestamp, byRequestId, byTempDir, byEpoch })) {
      expect(classifier.classify(contextOf(events)), name).toMatchObject({
        relevant: true,
        confidence: 0.5,
        metadata: { repetitions: 3, exactRepetitions: 1 },
      });
    }
  });

  it('rejects options that make no sense, naming the field', () => {
    expect(() => new DoomLoopClassifier({ minRepetitions: 1 })).toThrow(ConfigError);
    expect(() => new DoomLoopClassifier({ minRepetitions: 1 })).toThrow(
      /minRepetitions must be >= 2/,
    );
    expect(() => new DoomLoopClassifier({ cycles: 2 } as never)).toThrow(
      /cycles is not a known field/,
    );
  });
});

describe('ErrorStreakClassifier', () => {
  const classifier = new ErrorStreakClassifier({ threshold: 3 });

  it('fires from the threshold with the document confidence and reason (document test)', () => {
    const result = classifier.classify(contextWithErrors(3));
    expect(result.relevant).toBe(true);
    expect(result.confidence).toBeGreaterThanOrEqual(0.5);
    expect(result.reason).toContain('consecutive errors');
    expect(classifier.classify(contextWithErrors(2)).relevant).toBe(false);
    expect(classifier.classify(contextWithErrors(6)).confidence).toBe(1);
    expect(classifier.classify(contextWithErrors(9)).confidence).toBe(1);
  });

  it('lists the last errors, normalised, and how many were the same', () => {
    const result = classifier.classify(
      contextOf([
        fail('a', {}, 'boom'),
        fail('a', {}, 'ENOENT /tmp/1'),
        fail('a', {}, 'ENOENT /tmp/2'),
        fail('a', {}, 'ENOENT /var/3'),
      ]),
    );
    expect(result.reason).toBe('4 consecutive errors, the last 3 the same error');
    expect(result.metadata).toEqual({
      errors: ['ENOENT <path>', 'ENOENT <path>', 'ENOENT <path>'],
      consecutiveSameError: 3,
    });
    expect(classifier.classify(contextOf([fail('a'), fail('b'), fail('c')])).reason).toBe(
      '3 consecutive errors, all the same error',
    );
  });

  it('resets on a success, and a threshold of 1 fires on the first error', () => {
    expect(
      classifier.classify(contextOf([fail('a'), fail('a'), fail('a'), ok('a')])).relevant,
    ).toBe(false);
    expect(
      new ErrorStreakClassifier({ threshold: 1 }).classify(contextOf([fail('a')])).relevant,
    ).toBe(true);
    expect(() => new ErrorStreakClassifier({ threshold: 0 })).toThrow(/threshold must be >= 1/);
  });
});

describe('ProgressStallClassifier', () => {
  const classifier = new ProgressStallClassifier();

  it('fires after stallThreshold calls without progress, confidence 0.8', () => {
    const events = [ok('read', { p: 'a' }, 'A')];
    for (let i = 0; i < 4; i++) events.push(ok('read', { p: 'a' }, 'A'));
    expect(classifier.classify(contextOf(events)).relevant).toBe(false);
    events.push(fail('read', { p: 'b' }));
    expect(classifier.classify(contextOf(events))).toMatchObject({
      relevant: true,
      confidence: 0.8,
      reason: 'no progress in 5 actions',
      metadata: { actionsDuringStall: 5, since: 1 },
    });
  });

  it('does not fire while calls keep producing something new', () => {
    const events = Array.from({ length: 20 }, (_, i) => ok('read', { p: 'same' }, `page ${i}`));
    expect(classifier.classify(contextOf(events)).relevant).toBe(false);
  });

  it('does not fire on an empty trajectory or with fewer calls than the threshold', () => {
    expect(classifier.classify(contextOf([])).relevant).toBe(false);
    expect(classifier.classify(contextOf([fail('a'), fail('a')])).relevant).toBe(false);
    expect(
      new ProgressStallClassifier({ stallThreshold: 2 }).classify(
        builderOf([fail('a'), fail('a')]).context,
      ),
    ).toMatchObject({ relevant: true });
  });
});
