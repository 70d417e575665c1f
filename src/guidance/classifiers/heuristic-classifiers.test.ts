import { describe, expect, it } from 'vitest';
import { contextOf, fail, ok } from '../guidance.test-helpers.js';
import type { TrajectoryEvent } from '../types.js';
import { HighToolCountClassifier } from './high-tool-count.js';
import { SequentialWhenParallelClassifier } from './sequential-when-parallel.js';
import { SingleToolRepeatedClassifier } from './single-tool-repeated.js';

const calls = (n: number): TrajectoryEvent[] =>
  Array.from({ length: n }, (_, i) => ok(`t${i % 3}`));

describe('HighToolCountClassifier', () => {
  const classifier = new HighToolCountClassifier({ threshold: 10, warningRatio: 0.8 });

  it('says maybe from threshold × warningRatio and yes from threshold', () => {
    expect(classifier.classify(contextOf(calls(7))).relevant).toBe(false);
    expect(classifier.classify(contextOf(calls(8)))).toMatchObject({
      relevant: true,
      confidence: 0.6,
      reason: '8 tool calls approach the limit of 10',
    });
    expect(classifier.classify(contextOf(calls(10)))).toMatchObject({
      relevant: true,
      confidence: 1,
    });
  });

  it('counts pending calls too', () => {
    const events: TrajectoryEvent[] = [...calls(9), { type: 'tool_call', callId: 'p', tool: 'x' }];
    expect(classifier.classify(contextOf(events)).confidence).toBe(1);
  });

  it('never fires on zero calls, even with a tiny warning ratio', () => {
    expect(
      new HighToolCountClassifier({ threshold: 1, warningRatio: 0.01 }).classify(contextOf([]))
        .relevant,
    ).toBe(false);
    expect(() => new HighToolCountClassifier({ warningRatio: 0 })).toThrow(/warningRatio/);
    expect(() => new HighToolCountClassifier({ warningRatio: 1.5 })).toThrow(/warningRatio/);
  });
});

describe('SingleToolRepeatedClassifier', () => {
  const classifier = new SingleToolRepeatedClassifier();

  it('fires when the last threshold calls used one tool, whatever came before', () => {
    const events = [ok('other'), ok('bash'), ok('bash'), ok('bash')];
    expect(classifier.classify(contextOf(events)).relevant).toBe(false);
    events.push(fail('bash'));
    expect(classifier.classify(contextOf(events))).toMatchObject({
      relevant: true,
      confidence: 0.7,
      reason: 'bash called 4x consecutively',
      metadata: { tool: 'bash', run: 4 },
    });
    events.push(ok('other'));
    expect(classifier.classify(contextOf(events)).relevant).toBe(false);
  });

  it('leaves ignored tools alone', () => {
    const quiet = new SingleToolRepeatedClassifier({ ignoreTools: ['read_file'] });
    const events = Array.from({ length: 6 }, () => ok('read_file'));
    expect(quiet.classify(contextOf(events)).relevant).toBe(false);
    expect(classifier.classify(contextOf(events)).relevant).toBe(true);
  });
});

describe('SequentialWhenParallelClassifier', () => {
  const classifier = new SequentialWhenParallelClassifier();

  it('fires on consecutive single-call turns of independent tools', () => {
    const events: TrajectoryEvent[] = [ok('read_file', {}, 'a'), ok('grep', {}, 'b')];
    expect(classifier.classify(contextOf(events)).relevant).toBe(false);
    events.push(ok('search', {}, 'c'));
    // Each tool_invoked without turn information is its own turn, finished at once.
    expect(classifier.classify(contextOf(events))).toMatchObject({
      relevant: true,
      confidence: 0.6,
      metadata: { turns: 3 },
    });
  });

  it('does not fire when the calls were made in parallel, in one turn', () => {
    const events: TrajectoryEvent[] = [
      { type: 'tool_call', callId: 'a', tool: 'read_file', turn: 1 },
      { type: 'tool_call', callId: 'b', tool: 'read_file', turn: 1 },
      { type: 'tool_call', callId: 'c', tool: 'grep', turn: 1 },
      { type: 'tool_result', callId: 'a', result: { success: true } },
      { type: 'tool_result', callId: 'b', result: { success: true } },
      { type: 'tool_result', callId: 'c', result: { success: true } },
    ];
    expect(classifier.classify(contextOf(events)).relevant).toBe(false);
  });

  it('does not count dependent tools, or a turn that is not over yet', () => {
    const withEdit = [ok('read_file', {}, 'a', 1), ok('edit', {}, 'b', 2), ok('grep', {}, 'c', 3)];
    expect(classifier.classify(contextOf([...withEdit, { type: 'turn_end' }])).relevant).toBe(
      false,
    );
    const open: TrajectoryEvent[] = [
      ok('read_file', {}, 'a', 1),
      ok('grep', {}, 'b', 2),
      ok('grep', {}, 'c', 3),
    ];
    // Turn 3 may still get more calls: only turns 1 and 2 are known to be single-call.
    expect(classifier.classify(contextOf(open)).relevant).toBe(false);
    expect(classifier.classify(contextOf([...open, { type: 'turn', turn: 4 }])).relevant).toBe(
      true,
    );
  });

  it('uses the configured tools and threshold', () => {
    const custom = new SequentialWhenParallelClassifier({
      independentTools: ['fetch'],
      threshold: 2,
    });
    expect(custom.classify(contextOf([ok('fetch'), ok('fetch')])).relevant).toBe(true);
    expect(custom.classify(contextOf([ok('grep'), ok('grep')])).relevant).toBe(false);
    expect(() => new SequentialWhenParallelClassifier({ threshold: 1 })).toThrow(
      /threshold must be >= 2/,
    );
  });
});
