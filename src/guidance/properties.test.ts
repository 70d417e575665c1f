import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Classifier } from '../core/classifier.js';
import { ClassificationResult } from '../core/result.js';
import { TrajectoryBuilder } from './builder.js';
import { DoomLoopClassifier } from './classifiers/doom-loop.js';
import { ErrorStreakClassifier } from './classifiers/error-streak.js';
import { HighToolCountClassifier } from './classifiers/high-tool-count.js';
import { LargeOutputClassifier } from './classifiers/large-output.js';
import { ProgressStallClassifier } from './classifiers/progress-stall.js';
import { SensitiveContentClassifier } from './classifiers/sensitive-content.js';
import { SequentialWhenParallelClassifier } from './classifiers/sequential-when-parallel.js';
import { SingleToolRepeatedClassifier } from './classifiers/single-tool-repeated.js';
import { GuidanceEngine, type GuidanceProvider } from './engine.js';
import { contextWithErrors, fail, ok } from './guidance.test-helpers.js';
import type { GuidanceContext, TrajectoryEvent } from './types.js';

// The property tests of the original design, and the limits every engine run must respect.

describe('error streak (a property of the original design)', () => {
  it('is relevant exactly from the threshold, with confidence that never decreases', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 8 }),
        fc.integer({ min: 0, max: 20 }),
        (threshold, errors) => {
          const classifier = new ErrorStreakClassifier({ threshold });
          const result = classifier.classify(contextWithErrors(errors));
          expect(result.relevant).toBe(errors >= threshold);
          const more = classifier.classify(contextWithErrors(errors + 1));
          expect(more.confidence).toBeGreaterThanOrEqual(result.confidence);
        },
      ),
    );
  });

  it('matches the document example: threshold 3 over 0…10 errors', () => {
    const classifier = new ErrorStreakClassifier({ threshold: 3 });
    for (let errors = 0; errors <= 10; errors++) {
      expect(classifier.classify(contextWithErrors(errors)).relevant).toBe(errors >= 3);
    }
  });
});

/** Every pattern classifier, with arbitrary valid options. */
const anyClassifier: fc.Arbitrary<Classifier<GuidanceContext>> = fc.oneof(
  fc
    .record({
      minRepetitions: fc.integer({ min: 2, max: 6 }),
      minCycleLength: fc.integer({ min: 1, max: 6 }),
    })
    .map((o) => new DoomLoopClassifier(o)),
  fc.integer({ min: 1, max: 10 }).map((threshold) => new ErrorStreakClassifier({ threshold })),
  fc
    .integer({ min: 1, max: 10 })
    .map((stallThreshold) => new ProgressStallClassifier({ stallThreshold })),
  fc
    .record({
      threshold: fc.integer({ min: 1, max: 100 }),
      warningRatio: fc.double({ min: 0.01, max: 1, noNaN: true }),
    })
    .map((o) => new HighToolCountClassifier(o)),
  fc
    .integer({ min: 2, max: 10 })
    .map((threshold) => new SingleToolRepeatedClassifier({ threshold })),
  fc
    .integer({ min: 2, max: 10 })
    .map((threshold) => new SequentialWhenParallelClassifier({ threshold })),
  fc
    .integer({ min: 0, max: 100 })
    .map((sizeThreshold) => new LargeOutputClassifier({ sizeThreshold })),
  fc.constant(new SensitiveContentClassifier()),
);

describe('an empty trajectory (a property of the original design)', () => {
  it('makes no classifier fire, whatever its options, even after turns without calls', () => {
    const quietEvents = fc.array(
      fc.oneof(
        fc.constant<TrajectoryEvent>({ type: 'turn' }),
        fc.constant<TrajectoryEvent>({ type: 'turn_end' }),
      ),
      { maxLength: 10 },
    );
    fc.assert(
      fc.property(anyClassifier, quietEvents, (classifier, events) => {
        const builder = new TrajectoryBuilder();
        expect(classifier.classify(builder.context).relevant).toBe(false);
        for (const event of events) builder.onEvent(event);
        expect(classifier.classify(builder.context).relevant).toBe(false);
      }),
      { numRuns: 300 },
    );
  });
});

/** A stream of agent events with explicit turns, some turns holding several calls. */
const eventStream: fc.Arbitrary<TrajectoryEvent[]> = fc
  .array(
    fc.record({
      newTurn: fc.boolean(),
      tool: fc.constantFrom('read_file', 'grep', 'bash', 'edit'),
      success: fc.boolean(),
      size: fc.integer({ min: 0, max: 3 }),
    }),
    { maxLength: 80 },
  )
  .map((steps) => {
    const events: TrajectoryEvent[] = [];
    let turn = 1;
    for (const { newTurn, tool, success, size } of steps) {
      if (newTurn) events.push({ type: 'turn', turn: ++turn });
      const message = 'x'.repeat(size * 5);
      events.push(
        success ? ok(tool, { size }, message, turn) : fail(tool, { size }, message, turn),
      );
    }
    return events;
  });

/** A provider whose classifier fires by a pattern over the call count. */
const anyProvider = (id: string): fc.Arbitrary<GuidanceProvider> =>
  fc
    .record({
      pattern: fc.array(fc.boolean(), { minLength: 1, maxLength: 7 }),
      confidence: fc.double({ min: 0, max: 1, noNaN: true }),
      minConfidence: fc.option(fc.double({ min: 0, max: 1, noNaN: true }), { nil: undefined }),
      cooldownTurns: fc.option(fc.integer({ min: 0, max: 5 }), { nil: undefined }),
      maxFiresPerSession: fc.option(fc.integer({ min: 0, max: 6 }), { nil: undefined }),
      maxPerTurn: fc.option(fc.integer({ min: 1, max: 3 }), { nil: undefined }),
    })
    .map(({ pattern, confidence, ...limits }) => ({
      id,
      guidance: id,
      classifier: {
        name: 'patterned',
        classify: (context: GuidanceContext) =>
          pattern[context.toolCallCount % pattern.length]
            ? ClassificationResult.yes(confidence, { reason: 'pattern' })
            : ClassificationResult.no(),
      },
      ...Object.fromEntries(Object.entries(limits).filter(([, v]) => v !== undefined)),
    }));

describe('engine limits (properties of the original design)', () => {
  it('never exceeds a cooldown, a session limit, a per-turn limit or the per-event budget', () => {
    fc.assert(
      fc.property(
        fc.tuple(anyProvider('a'), anyProvider('b'), anyProvider('c')),
        fc.integer({ min: 1, max: 3 }),
        eventStream,
        (providers, maxPerEvent, events) => {
          const engine = new GuidanceEngine({ providers, maxPerEvent });
          const fires = new Map<string, number[]>(providers.map((p) => [p.id!, []]));
          for (const event of events) {
            const guidance = engine.onEvent(event);
            expect(guidance.length).toBeLessThanOrEqual(maxPerEvent);
            for (const g of guidance) {
              expect(g.confidence).toBeGreaterThanOrEqual(
                providers.find((p) => p.id === g.provider)?.minConfidence ?? 0.5,
              );
              fires.get(g.provider)!.push(g.turn);
            }
          }
          for (const provider of providers) {
            const turns = fires.get(provider.id!)!;
            expect(turns.length).toBeLessThanOrEqual(
              provider.maxFiresPerSession ?? Number.POSITIVE_INFINITY,
            );
            expect(engine.fireCount(provider.id!)).toBe(turns.length);
            const cooldown = provider.cooldownTurns ?? 0;
            for (let i = 1; i < turns.length; i++) {
              if (cooldown > 0) expect(turns[i]! - turns[i - 1]!).toBeGreaterThan(cooldown);
            }
            const perTurn = new Map<number, number>();
            for (const t of turns) perTurn.set(t, (perTurn.get(t) ?? 0) + 1);
            for (const count of perTurn.values())
              expect(count).toBeLessThanOrEqual(provider.maxPerTurn ?? 1);
          }
        },
      ),
      { numRuns: 300 },
    );
  });

  it('keeps every default classifier well-formed on any event stream', () => {
    const classifiers = [
      new DoomLoopClassifier(),
      new ErrorStreakClassifier(),
      new ProgressStallClassifier(),
      new HighToolCountClassifier({ threshold: 10 }),
      new SingleToolRepeatedClassifier(),
      new SequentialWhenParallelClassifier(),
      new LargeOutputClassifier({ sizeThreshold: 8 }),
      new SensitiveContentClassifier(),
    ];
    fc.assert(
      fc.property(eventStream, (events) => {
        const builder = new TrajectoryBuilder();
        for (const event of events) {
          builder.onEvent(event);
          for (const classifier of classifiers) {
            const result = classifier.classify(builder.context);
            expect(result.confidence).toBeGreaterThanOrEqual(0);
            expect(result.confidence).toBeLessThanOrEqual(1);
            if (result.relevant) expect(result.reason).toBeTruthy();
          }
        }
      }),
      { numRuns: 100 },
    );
  });
});
