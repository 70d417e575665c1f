import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ConfigError } from '../core/errors.js';
import { TrajectoryBuilder } from './builder.js';
import { TrajectoryEventError } from './errors.js';
import { contentKey, exactCallKey, nearCallKey } from './fingerprint.js';
import { builderOf, fail, ok } from './guidance.test-helpers.js';
import type { ToolInvokedEvent, TrajectoryEvent } from './types.js';

const call = (callId: string, tool: string, turn?: number): TrajectoryEvent => ({
  type: 'tool_call',
  callId,
  tool,
  params: { q: callId },
  ...(turn === undefined ? {} : { turn }),
});
const result = (callId: string, success = true, message = `out ${callId}`): TrajectoryEvent => ({
  type: 'tool_result',
  callId,
  result: { success, message },
});
const turns = (builder: TrajectoryBuilder) => {
  const out = [];
  for (let i = 0; builder.finishedTurn(i); i++) out.unshift(builder.finishedTurn(i));
  return out;
};

describe('TrajectoryBuilder: records', () => {
  it('records a call with its result, turn, id and timestamp; pending until the result', () => {
    const builder = builderOf([
      { type: 'turn' },
      { type: 'tool_call', callId: 'c1', tool: 'read_file', params: { path: 'a' }, timestamp: 5 },
    ]);
    expect(builder.length).toBe(0);
    expect(builder.context.pendingToolCalls).toEqual([
      { callId: 'c1', toolName: 'read_file', params: { path: 'a' }, turn: 1, timestamp: 5 },
    ]);
    expect(builder.context.toolCallCount).toBe(1);
    const record = builder.onEvent({
      type: 'tool_result',
      callId: 'c1',
      result: { success: false, message: 'ENOENT /x/1', value: { code: 2 } },
    });
    expect(record).toEqual({
      callId: 'c1',
      toolName: 'read_file',
      params: { path: 'a' },
      turn: 1,
      timestamp: 5,
      index: 0,
      result: { success: false, message: 'ENOENT /x/1', value: { code: 2 } },
      normalisedError: 'ENOENT <path>',
    });
    expect(builder.context.pendingToolCalls).toEqual([]);
    expect(builder.fromEnd(0)).toBe(record);
  });

  it('generates ids for tool_invoked events without one, and uses the clock', () => {
    const builder = builderOf([ok('a'), ok('b')]);
    expect(builder.recentToolCalls(5).map((r) => [r.callId, r.timestamp])).toEqual([
      ['call-1', 1_700_000_000_000],
      ['call-2', 1_700_000_000_000],
    ]);
  });

  it('keeps only the window, however long the trajectory', () => {
    const builder = builderOf(
      Array.from({ length: 100 }, (_, i) => (i % 3 ? ok('t', { i }) : fail('t', { i }))),
      { window: 8, maxCycleLength: 4 },
    );
    expect(builder.length).toBe(100);
    expect(builder.recentToolCalls(50).map((r) => r.index)).toEqual([
      92, 93, 94, 95, 96, 97, 98, 99,
    ]);
    expect(builder.recentToolCalls(2).map((r) => r.index)).toEqual([98, 99]);
    expect(builder.recentErrors(3).map((r) => r.index)).toEqual([93, 96, 99]);
    expect(builder.fromEnd(7)?.index).toBe(92);
    expect(builder.fromEnd(8)).toBeUndefined();
    expect(builder.fromEnd(-1)).toBeUndefined();
    expect(builder.recentToolCalls(0)).toEqual([]);
    expect(builder.recentToolCalls(-3)).toEqual([]);
  });

  it('rejects events that do not fit, with a typed error, and stays as it was', () => {
    const builder = builderOf([call('c1', 'a', 2)]);
    const bad: unknown[] = [
      result('nope'),
      call('c1', 'a', 2),
      call('c2', 'a', 1),
      { type: 'tool_call', callId: '', tool: 'a' },
      { type: 'tool_call', callId: 'c3', tool: '' },
      { type: 'tool_call', callId: 'c3', tool: 'a', params: [1] },
      { type: 'tool_call', callId: 'c3', tool: 'a', turn: 2.5 },
      { type: 'tool_result', callId: 'c1', result: { success: 'yes' } },
      { type: 'tool_result', callId: 'c1', result: { success: true, message: 3 } },
      { type: 'tool_invoked', tool: 'a' },
      { type: 'turn', turn: 1 },
      { type: 'nonsense' },
      null,
    ];
    for (const event of bad) {
      expect(() => builder.onEvent(event as TrajectoryEvent), JSON.stringify(event)).toThrow(
        TrajectoryEventError,
      );
    }
    expect(builder.context.pendingToolCalls.map((c) => c.callId)).toEqual(['c1']);
    expect(builder.context.toolCallCount).toBe(1);
    expect(builder.length).toBe(0);
    expect(builder.currentTurn).toBe(2);
    expect(() => builder.onEvent(result('c1'))).not.toThrow();
    expect(() => builder.onEvent(result('c1'))).toThrow(/not pending/);
  });

  it('validates its options', () => {
    expect(() => new TrajectoryBuilder({ window: 2 })).toThrow(ConfigError);
    expect(() => new TrajectoryBuilder({ bogus: 1 } as never)).toThrow(
      /bogus is not a known field/,
    );
    expect(() => new TrajectoryBuilder({ window: 8, maxCycleLength: 9 })).toThrow(
      /maxCycleLength must not exceed window/,
    );
  });

  it('drops the oldest pending call beyond maxPending, and counts it', () => {
    const builder = builderOf([call('a', 't'), call('b', 't'), call('c', 't')], { maxPending: 2 });
    expect(builder.context.pendingToolCalls.map((c) => c.callId)).toEqual(['b', 'c']);
    expect(builder.droppedPendingCalls).toBe(1);
    expect(() => builder.onEvent(result('a'))).toThrow(TrajectoryEventError);
  });
});

describe('TrajectoryBuilder: turns', () => {
  it('groups calls requested before any result into one turn when no turn is given', () => {
    const builder = builderOf([
      call('a', 'read_file'),
      call('b', 'grep'),
      result('a'),
      result('b'),
      call('c', 'read_file'),
      result('c'),
      ok('x'),
    ]);
    expect(turns(builder)).toEqual([
      { turn: 1, calls: 2, firstTool: 'read_file' },
      { turn: 2, calls: 1, firstTool: 'read_file' },
      { turn: 3, calls: 1, firstTool: 'x' },
    ]);
    expect(builder.turnCount).toBe(3);
    expect(builder.currentTurn).toBe(3);
  });

  it('follows explicit turns, and finishes a turn at its first result or at the next turn', () => {
    const builder = builderOf([
      { type: 'turn' },
      call('a', 'grep'),
      call('b', 'grep'),
      result('a'),
    ]);
    expect(turns(builder)).toEqual([{ turn: 1, calls: 2, firstTool: 'grep' }]);
    builder.onEvent(result('b'));
    builder.onEvent({ type: 'turn', turn: 4 });
    builder.onEvent(ok('read_file'));
    expect(turns(builder)).toHaveLength(1); // turn 4 is open: more calls may come
    builder.onEvent({ type: 'turn_end' });
    expect(turns(builder).at(-1)).toEqual({ turn: 4, calls: 1, firstTool: 'read_file' });
    expect(builder.turnCount).toBe(2);
  });

  it('starts a new turn for a call after turn_end, with or without turn information', () => {
    const implicit = builderOf([
      ok('grep'),
      { type: 'turn_end' },
      ok('grep'),
      { type: 'turn_end' },
    ]);
    expect(turns(implicit).map((t) => t?.calls)).toEqual([1, 1]);
    const explicit = builderOf([
      { type: 'turn' },
      call('a', 'grep'),
      call('b', 'grep'),
      { type: 'turn_end' },
      call('c', 'grep'),
      { type: 'turn_end' },
    ]);
    expect(turns(explicit)).toEqual([
      { turn: 1, calls: 2, firstTool: 'grep' },
      { turn: 2, calls: 1, firstTool: 'grep' },
    ]);
  });

  it('reopens a finished turn when another of its calls arrives', () => {
    const builder = builderOf([call('a', 'grep', 1), result('a'), call('b', 'read_file', 1)]);
    expect(turns(builder)).toEqual([]);
    builder.onEvent(result('b'));
    expect(turns(builder)).toEqual([{ turn: 1, calls: 2, firstTool: 'grep' }]);
  });

  it('counts runs of single-call turns; a gap in turn numbers breaks them', () => {
    const independent = (tool: string) => tool !== 'edit';
    const builder = builderOf([
      ok('grep', {}, 'x', 1),
      ok('grep', {}, 'x', 2),
      ok('read_file', {}, 'x', 3),
      ok('grep', {}, 'x', 4),
      { type: 'turn_end' },
    ]);
    expect(builder.singleCallTurnRun(independent, 10)).toBe(4);
    expect(builder.singleCallTurnRun(independent, 2)).toBe(2);
    expect(builder.singleCallTurnRun((t) => t === 'grep', 10)).toBe(1);
    builder.onEvent(ok('grep', {}, 'x', 6));
    builder.onEvent({ type: 'turn_end' });
    expect(builder.singleCallTurnRun(independent, 10)).toBe(1);
    builder.onEvent(ok('edit', {}, 'x', 7));
    builder.onEvent({ type: 'turn_end' });
    expect(builder.singleCallTurnRun(independent, 10)).toBe(0);
  });
});

describe('TrajectoryBuilder: patterns', () => {
  it('counts error streaks and repeated errors with normalised messages', () => {
    const builder = builderOf([
      fail('a', {}, 'boom'),
      ok('a'),
      fail('bash', {}, 'exit code 1 in /tmp/a'),
      fail('bash', {}, 'exit code 2 in /tmp/b'),
      fail('bash', {}, 'other'),
      fail('bash', {}, 'other'),
    ]);
    expect(builder.consecutiveErrors).toBe(4);
    expect(builder.consecutiveSameError).toBe(2);
    expect(builder.recentErrors(10).map((r) => r.normalisedError)).toEqual([
      'boom',
      'exit code <n> in <path>',
      'exit code <n> in <path>',
      'other',
      'other',
    ]);
    builder.onEvent(ok('a'));
    expect(builder.consecutiveErrors).toBe(0);
    expect(builder.consecutiveSameError).toBe(0);
  });

  it('reports a doom loop with its cycle, near and exact repetitions', () => {
    const events: TrajectoryEvent[] = [ok('start')];
    for (let i = 0; i < 3; i++) {
      events.push(fail('bash', { cmd: `npm test | tee /tmp/run-${1000 + i}.log` }, 'failed'));
      events.push(ok('edit', { path: 'src/a.ts', line: 10 }, 'edited'));
    }
    const builder = builderOf(events);
    expect(builder.doomLoop()).toEqual({
      cycleActions: ['bash', 'edit'],
      cycleLength: 2,
      repetitions: 3,
      exactRepetitions: 1,
    });
    expect(builder.doomLoop(3)).toBeUndefined();
    builder.onEvent(ok('other'));
    expect(builder.doomLoop()).toBeUndefined();
  });

  it('does not call one action repeated a cycle of two, unless asked for cycles of one', () => {
    const builder = builderOf(Array.from({ length: 6 }, () => fail('bash', { cmd: 'make' })));
    expect(builder.doomLoop(2)).toBeUndefined();
    expect(builder.doomLoop(1)).toMatchObject({
      cycleLength: 1,
      repetitions: 6,
      exactRepetitions: 6,
    });
  });

  it('counts a stall: failures and repeats that return nothing new', () => {
    const builder = builderOf([
      ok('read', { p: 'a' }, 'A'),
      ok('read', { p: 'a' }, 'A'), // same action, same output: nothing new
      fail('read', { p: 'b' }, 'ENOENT'), // failed
      ok('grep', { q: 'x' }, 'A'), // a new action: progress, even with a known output
    ]);
    expect(builder.progressStall()).toBeUndefined();
    builder.onEvent(ok('grep', { q: 'x' }, 'A'));
    builder.onEvent(fail('grep', { q: 'y' }, 'bad'));
    expect(builder.progressStall()).toEqual({ actionsDuringStall: 2, since: 4 });
    builder.onEvent(ok('grep', { q: 'x' }, 'B')); // same action, new output: progress
    expect(builder.progressStall()).toBeUndefined();
  });

  it('agrees with a full rescan of the history after every event (property)', () => {
    const event = fc
      .record({
        tool: fc.constantFrom('a', 'b', 'c'),
        n: fc.integer({ min: 0, max: 2 }),
        success: fc.boolean(),
        message: fc.constantFrom('x', 'y', 'error 1', 'error 2'),
      })
      .map(
        ({ tool, n, success, message }): ToolInvokedEvent => ({
          type: 'tool_invoked',
          tool,
          params: { n },
          result: { success, message },
        }),
      );
    fc.assert(
      fc.property(
        fc.array(event, { maxLength: 60 }),
        fc.integer({ min: 1, max: 6 }),
        (events, memory) => {
          const builder = new TrajectoryBuilder({ maxCycleLength: 6, noveltyMemory: memory });
          events.forEach((e, n) => {
            builder.onEvent(e);
            const seen = events.slice(0, n + 1);
            expect(builder.consecutiveErrors).toBe(trailing(seen, (x) => !x.result.success));
            expect(builder.sameToolRun).toBe(trailing(seen, (x) => x.tool === e.tool));
            expect(builder.doomLoop(2)?.repetitions ?? 0).toBe(naiveDoomLoop(seen, 2, 6));
            expect(builder.progressStall()?.actionsDuringStall ?? 0).toBe(naiveStall(seen, memory));
          });
        },
      ),
      { numRuns: 200 },
    );
  });
});

function trailing<T>(items: readonly T[], test: (item: T) => boolean): number {
  let count = 0;
  for (let i = items.length - 1; i >= 0 && test(items[i]!); i--) count++;
  return count;
}

/** Most repetitions of a primitive cycle at the tail, by rescanning (0 when none repeats). */
function naiveDoomLoop(events: readonly ToolInvokedEvent[], min: number, max: number): number {
  const keys = events.map((e) => nearCallKey(e.tool, e.params));
  let best = 0;
  for (let length = min; length <= max; length++) {
    if (keys.length < 2 * length) continue;
    const cycle = keys.slice(keys.length - length);
    const primitive = ![...Array(length).keys()]
      .slice(1)
      .some((d) => length % d === 0 && cycle.every((k, i) => i < d || k === cycle[i - d]));
    if (!primitive) continue;
    let reps = 0;
    for (let end = keys.length; end - length >= 0; end -= length) {
      if (!keys.slice(end - length, end).every((k, i) => k === cycle[i])) break;
      reps++;
    }
    if (reps >= 2 && reps > best) best = reps;
  }
  return best;
}

/** Calls without progress at the tail, by replaying the rule over the whole history. */
function naiveStall(events: readonly ToolInvokedEvent[], memory: number): number {
  let stall = 0;
  events.forEach((e, i) => {
    const before = events.slice(Math.max(0, i - memory), i);
    const action = exactCallKey(e.tool, e.params);
    const output = contentKey(e.result.message ?? '', undefined);
    const seenAction = before.some((b) => exactCallKey(b.tool, b.params) === action);
    const seenOutput = before.some((b) => contentKey(b.result.message ?? '', undefined) === output);
    stall = e.result.success && !(seenAction && seenOutput) ? 0 : stall + 1;
  });
  return stall;
}
