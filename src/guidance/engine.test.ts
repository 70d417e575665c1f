import { describe, expect, it, vi } from 'vitest';
import type { Classifier } from '../core/classifier.js';
import { ConfigError, TriageError } from '../core/errors.js';
import { ClassificationResult } from '../core/result.js';
import { ErrorStreakClassifier } from './classifiers/error-streak.js';
import { defaultGuidanceProviders } from './defaults.js';
import { GuidanceEngine, type GuidanceProvider } from './engine.js';
import { TrajectoryEventError } from './errors.js';
import { fail, ok } from './guidance.test-helpers.js';
import type { GuidanceContext, TrajectoryEvent } from './types.js';

/** A classifier that fires whenever `when(context)` holds. */
const firing = (
  name: string,
  when: (context: GuidanceContext) => boolean = () => true,
  confidence = 0.9,
): Classifier<GuidanceContext> => ({
  name,
  classify: (context) =>
    when(context)
      ? ClassificationResult.yes(confidence, {
          reason: `${name} fired`,
          metadata: { tool: 'bash', n: [1, 2] },
        })
      : ClassificationResult.no(),
});
const turn = (n: number): TrajectoryEvent => ({ type: 'turn', turn: n });

describe('GuidanceEngine', () => {
  it('goes from events to the message to inject, in one call per event', () => {
    const engine = new GuidanceEngine({
      providers: [
        { classifier: new ErrorStreakClassifier({ threshold: 2 }), guidance: 'Stop: {reason}.' },
      ],
    });
    expect(engine.onEvent(fail('bash', {}, 'boom', 1))).toEqual([]);
    expect(engine.onEvent(fail('bash', {}, 'boom', 2))).toEqual([
      {
        provider: 'error_streak',
        classifier: 'error_streak',
        message: 'Stop: 2 consecutive errors, all the same error.',
        source: 'local',
        confidence: 0.5,
        localConfidence: 0.5,
        llmConfidence: null,
        llmMs: 0,
        cached: false,
        reason: '2 consecutive errors, all the same error',
        fallbackCause: null,
        turn: 2,
        metadata: { errors: ['boom', 'boom'], consecutiveSameError: 2 },
      },
    ]);
    expect(engine.stats).toEqual({ events: 2, evaluations: 2, fired: 1, failures: 0 });
    expect(engine.fireCount('error_streak')).toBe(1);
  });

  it('lets the first provider that fires win, in priority order, unless maxPerEvent allows more', () => {
    const providers: GuidanceProvider[] = [
      { id: 'quiet', classifier: firing('q', () => false), guidance: 'never' },
      { id: 'first', classifier: firing('a'), guidance: 'A' },
      { id: 'second', classifier: firing('b'), guidance: 'B' },
      { id: 'third', classifier: firing('c'), guidance: 'C' },
    ];
    expect(new GuidanceEngine({ providers }).onEvent(ok('x')).map((g) => g.provider)).toEqual([
      'first',
    ]);
    const two = new GuidanceEngine({ providers, maxPerEvent: 2 });
    expect(two.onEvent(ok('x')).map((g) => g.message)).toEqual(['A', 'B']);
    const all = new GuidanceEngine({ providers, maxPerEvent: 10 });
    expect(all.onEvent(ok('x')).map((g) => g.provider)).toEqual(['first', 'second', 'third']);
  });

  it('fires a provider at most maxPerTurn times in a turn, then lets the next one speak', () => {
    const engine = new GuidanceEngine({
      providers: [
        { id: 'loud', classifier: firing('a'), guidance: 'A', maxPerTurn: 2 },
        { id: 'next', classifier: firing('b'), guidance: 'B' },
      ],
    });
    const fired = (event: TrajectoryEvent) => engine.onEvent(event).map((g) => g.provider);
    expect(fired(turn(1))).toEqual(['loud']);
    expect(fired(ok('x'))).toEqual(['loud']);
    expect(fired(ok('y'))).toEqual(['next']);
    expect(fired(ok('z'))).toEqual([]);
    expect(fired(turn(2))).toEqual(['loud']);
  });

  it('honours minConfidence, cooldowns and session limits per provider id', () => {
    const engine = new GuidanceEngine({
      providers: [
        { id: 'weak', classifier: firing('w', () => true, 0.4), guidance: 'W' },
        {
          id: 'cool',
          classifier: firing('c'),
          guidance: 'C',
          cooldownTurns: 2,
          maxFiresPerSession: 2,
        },
      ],
    });
    const turnsFired: number[] = [];
    for (let t = 1; t <= 12; t++) {
      for (const g of engine.onEvent(turn(t))) turnsFired.push(g.turn);
    }
    expect(turnsFired).toEqual([1, 4]);
    expect(engine.fireCount('weak')).toBe(0);
  });

  it('keeps providers of the same classifier apart by id', () => {
    const providers: GuidanceProvider[] = [
      {
        id: 'gentle',
        classifier: new ErrorStreakClassifier({ threshold: 1 }),
        guidance: 'g',
        cooldownTurns: 5,
      },
      { id: 'firm', classifier: new ErrorStreakClassifier({ threshold: 1 }), guidance: 'f' },
    ];
    const engine = new GuidanceEngine({ providers });
    expect(engine.onEvent(fail('a', {}, 'x', 1)).map((g) => g.provider)).toEqual(['gentle']);
    expect(engine.onEvent(fail('a', {}, 'x', 2)).map((g) => g.provider)).toEqual(['firm']);
    expect(
      () => new GuidanceEngine({ providers: [providers[0]!, { ...providers[1]!, id: 'gentle' }] }),
    ).toThrow(/duplicate id 'gentle'/);
  });

  it('fills templates from the result, or calls a guidance function', () => {
    const engine = new GuidanceEngine({
      providers: [
        {
          classifier: firing('x'),
          guidance: '{provider}/{classifier} t{turn} {confidence}: {reason}; {tool} {n} {missing}',
        },
      ],
    });
    expect(engine.onEvent(ok('a', {}, 'o', 3))[0]?.message).toBe(
      'x/x t3 0.90: x fired; bash 1, 2 {missing}',
    );
    const computed = new GuidanceEngine({
      providers: [
        {
          classifier: firing('y'),
          guidance: (result, context) => `${result.reason} after ${context.toolCallCount}`,
        },
      ],
    });
    expect(computed.onEvent(ok('a'))[0]?.message).toBe('y fired after 1');
  });

  it('fails open past a classifier that throws, and reports it', () => {
    const onError = vi.fn();
    const broken: Classifier<GuidanceContext> = {
      name: 'broken',
      classify: () => {
        throw new Error('bug');
      },
    };
    const engine = new GuidanceEngine({
      providers: [
        { classifier: broken, guidance: 'never' },
        { classifier: firing('ok'), guidance: 'fine' },
      ],
      onError,
    });
    expect(engine.onEvent(ok('a')).map((g) => g.message)).toEqual(['fine']);
    expect(onError).toHaveBeenCalledWith({ name: 'broken', error: new Error('bug') });
    expect(engine.stats.failures).toBe(1);
  });

  it('passes event errors to the caller, and keeps working after them', () => {
    const engine = new GuidanceEngine();
    expect(() =>
      engine.onEvent({ type: 'tool_result', callId: 'x', result: { success: true } }),
    ).toThrow(TrajectoryEventError);
    expect(engine.onEvent(ok('a'))).toEqual([]);
  });

  it('rejects bad providers with the field named', () => {
    const bad = (provider: Partial<GuidanceProvider>) => () =>
      new GuidanceEngine({ providers: [{ guidance: 'x', ...provider } as GuidanceProvider] });
    expect(bad({})).toThrow(/\/providers\/0 needs exactly one of classifier and asyncClassifier/);
    expect(bad({ classifier: firing('a'), guidance: ' ' })).toThrow(/\/providers\/0\/guidance/);
    expect(bad({ classifier: firing('a'), minConfidence: 2 })).toThrow(ConfigError);
    expect(bad({ classifier: firing('a'), maxPerTurn: 0 })).toThrow(/maxPerTurn/);
    expect(() => new GuidanceEngine({ maxPerEvent: 0 })).toThrow(/maxPerEvent/);
  });

  it('forgets the session on reset', () => {
    const engine = new GuidanceEngine({
      providers: [{ classifier: firing('a'), guidance: 'A', maxFiresPerSession: 1 }],
    });
    expect(engine.onEvent(ok('x'))).toHaveLength(1);
    expect(engine.onEvent(ok('y', {}, 'o', 5))).toHaveLength(0);
    engine.reset();
    expect(engine.trajectory.length).toBe(0);
    expect(engine.onEvent(ok('x'))).toHaveLength(1);
  });

  it('runs the default providers when given none', () => {
    const engine = new GuidanceEngine();
    expect(engine.providerIds).toEqual(defaultGuidanceProviders().map((p) => p.classifier!.name));
    const fired = [];
    for (let i = 0; i < 4; i++)
      fired.push(...engine.onEvent(fail('bash', { cmd: 'make' }, 'boom')));
    expect(fired.map((g) => g.provider)).toEqual(['error_streak', 'single_tool_repeated']);
  });
});

describe('GuidanceContext.session', () => {
  it('gives classifiers the session: its id, start and the application data', () => {
    const data: Record<string, unknown> = { task: 'fix the build', budget: 2 };
    const overBudget = firing(
      'over_budget',
      (c) => c.toolCallCount > (c.session.data.budget as number),
    );
    const engine = new GuidanceEngine({
      providers: [{ classifier: overBudget, guidance: 'Budget of {reason}' }],
      session: { id: 'run-42', data },
      trajectory: { now: () => 1_700_000_000_000 },
    });
    expect(engine.context.session).toEqual({ id: 'run-42', startedAt: 1_700_000_000_000, data });
    expect(engine.onEvent(ok('a'))).toEqual([]);
    expect(engine.onEvent(ok('b'))).toEqual([]);
    data.budget = 1; // the application's object, kept by reference
    expect(engine.onEvent(ok('c')).map((g) => g.provider)).toEqual(['over_budget']);
    engine.reset();
    expect(engine.context.session.id).toMatch(/^[0-9a-f-]{36}$/);
    expect(engine.context.session.data).toEqual({});
    engine.reset({ id: 'run-43', data: { budget: 0 } });
    expect(engine.context.session).toMatchObject({ id: 'run-43', data: { budget: 0 } });
    expect(engine.onEvent(ok('d')).map((g) => g.provider)).toEqual(['over_budget']);
  });

  it('gives each new engine its own session id, and rejects a bad one naming the field', () => {
    expect(new GuidanceEngine().context.session.id).not.toBe(
      new GuidanceEngine().context.session.id,
    );
    expect(() => new GuidanceEngine({ session: { id: '' } })).toThrow(
      /\/id must be a non-empty string/,
    );
    expect(() => new GuidanceEngine({ session: { data: [] as never } })).toThrow(
      /\/data must be an object/,
    );
  });
});

describe('GuidanceEngine with an LLM provider', () => {
  const asking = (answer: () => Promise<ClassificationResult>) => ({
    name: 'llm(test)',
    calls: 0,
    classify(): Promise<ClassificationResult> {
      this.calls++;
      return answer();
    },
  });

  it('requires onEventAsync, asks the LLM only when no local provider fired', async () => {
    const llm = asking(() =>
      Promise.resolve(ClassificationResult.yes(0.8, { reason: 'llm says so' })),
    );
    const engine = new GuidanceEngine({
      providers: [
        { classifier: firing('local', (c) => c.toolCallCount === 2), guidance: 'local' },
        { asyncClassifier: llm, guidance: 'ask: {reason}' },
      ],
    });
    expect(() => engine.onEvent(ok('a'))).toThrow(TriageError);
    expect((await engine.onEventAsync(ok('a'))).map((g) => g.message)).toEqual([
      'ask: llm says so',
    ]);
    expect((await engine.onEventAsync(ok('b'))).map((g) => g.message)).toEqual(['local']);
    expect(llm.calls).toBe(1);
  });

  it('runs providers in declaration order: an LLM provider declared first can win', async () => {
    let says = true;
    const llm = asking(() =>
      Promise.resolve(
        says ? ClassificationResult.yes(0.8, { reason: 'stuck' }) : ClassificationResult.no(),
      ),
    );
    const providers: GuidanceProvider[] = [
      { id: 'first', classifier: firing('first', (c) => c.toolCallCount === 3), guidance: '1' },
      { id: 'llm', asyncClassifier: llm, guidance: 'llm' },
      { id: 'last', classifier: firing('last'), guidance: 'local' },
    ];
    const engine = new GuidanceEngine({ providers });
    expect((await engine.onEventAsync(ok('a'))).map((g) => g.provider)).toEqual(['llm']);
    says = false;
    expect((await engine.onEventAsync(ok('b'))).map((g) => g.provider)).toEqual(['last']);
    expect((await engine.onEventAsync(ok('c'))).map((g) => g.provider)).toEqual(['first']);
    expect(llm.calls).toBe(2); // not asked once the local provider before it had fired
    says = true;
    const both = new GuidanceEngine({ providers, maxPerEvent: 3 });
    expect((await both.onEventAsync(ok('a'))).map((g) => g.provider)).toEqual(['llm', 'last']);
    expect(both.stats).toMatchObject({ events: 1, evaluations: 1, fired: 2 });
  });

  it('fails open when the async classifier throws, and queues overlapping events', async () => {
    const onError = vi.fn();
    let release: (r: ClassificationResult) => void = () => {};
    const slow = asking(() =>
      slow.calls === 1
        ? new Promise((resolve) => (release = resolve))
        : Promise.resolve(ClassificationResult.yes(0.9, { reason: 'second' })),
    );
    const broken = asking(() => Promise.reject(new Error('down')));
    const engine = new GuidanceEngine({
      providers: [
        { id: 'broken', asyncClassifier: broken, guidance: 'never' },
        { id: 'slow', asyncClassifier: slow, guidance: '{reason}', maxPerTurn: 9 },
      ],
      onError,
    });
    const first = engine.decide(ok('a'));
    await vi.waitFor(() => expect(slow.calls).toBe(1));
    const second = engine.decide(ok('b'));
    const bad = engine.decide({ type: 'tool_result', callId: 'nope', result: { success: true } });
    const third = engine.decide(ok('c'));
    expect(engine.pending).toBe(4);
    expect(engine.trajectory.length).toBe(1); // the others wait their turn
    release(ClassificationResult.no());
    expect(await first).toEqual([]);
    expect((await second).map((g) => g.message)).toEqual(['second']);
    await expect(bad).rejects.toThrow(TrajectoryEventError);
    expect((await third).map((g) => g.message)).toEqual(['second']);
    await engine.idle();
    expect(engine.pending).toBe(0);
    expect(engine.trajectory.recentToolCalls(9).map((c) => c.toolName)).toEqual(['a', 'b', 'c']);
    expect(onError).toHaveBeenCalledWith({ name: 'broken', error: new Error('down') });
  });

  it('takes a reset in its place in the queue, and counts deadlines from submission', async () => {
    let release: (r: ClassificationResult) => void = () => {};
    const llm = asking(() =>
      llm.calls === 1
        ? new Promise((resolve) => (release = resolve))
        : Promise.resolve(ClassificationResult.yes(0.9, { reason: 'late' })),
    );
    const engine = new GuidanceEngine({
      providers: [
        { id: 'llm', asyncClassifier: llm, guidance: '{reason}', maxPerTurn: 9 },
        { id: 'local', classifier: firing('local', (c) => c.toolCallCount === 1), guidance: 'L' },
      ],
    });
    const old = engine.decide(ok('a'));
    await vi.waitFor(() => expect(llm.calls).toBe(1));
    const sameSession = engine.decide(ok('b'));
    expect(() => engine.reset({ id: '' })).toThrow(); // a bad session fails in the caller
    engine.reset({ id: 'next' });
    const expired = engine.decide(ok('c'), { deadlineMs: 0 });
    release(ClassificationResult.no());
    await old;
    expect((await sameSession).map((g) => g.message)).toEqual(['late']);
    // the deadline passed while it waited: applied, local providers only
    expect((await expired).map((g) => g.message)).toEqual(['L']);
    expect(engine.context.session.id).toBe('next');
    expect(engine.trajectory.recentToolCalls(9).map((c) => c.toolName)).toEqual(['c']);
    expect(llm.calls).toBe(2);
  });

  it('honours limits for async providers too', async () => {
    const llm = asking(() => Promise.resolve(ClassificationResult.yes(0.9, { reason: 'r' })));
    const engine = new GuidanceEngine({
      providers: [{ asyncClassifier: llm, guidance: 'x', cooldownTurns: 1, maxFiresPerSession: 2 }],
    });
    const fired: number[] = [];
    for (let t = 1; t <= 8; t++)
      for (const g of await engine.onEventAsync(turn(t))) fired.push(g.turn);
    expect(fired).toEqual([1, 3]);
    expect(llm.calls).toBe(2);
  });
});
