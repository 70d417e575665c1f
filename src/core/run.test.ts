import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Classifier } from './classifier.js';
import { CooldownTracker, classifierConfig } from './cooldown.js';
import { ConfigError } from './errors.js';
import { ClassificationResult } from './result.js';
import { runClassifiers } from './run.js';

const always = (name: string, confidence = 0.9): Classifier<unknown> => ({
  name,
  classify: () => ClassificationResult.yes(confidence, { reason: name }),
});
const never = (name: string): Classifier<unknown> => ({
  name,
  classify: () => ClassificationResult.no(),
});
const throwing = (name: string): Classifier<unknown> => ({
  name,
  classify: () => {
    throw new Error('boom');
  },
});

describe('runClassifiers', () => {
  it('returns the first classifier that fires, in declaration order', () => {
    const outcome = runClassifiers(
      [{ classifier: never('a') }, { classifier: always('b') }, { classifier: always('c') }],
      {},
      { turn: 1 },
    );
    expect(outcome.fired?.classifier.name).toBe('b');
    expect(outcome.failures).toEqual([]);
  });

  it('skips results below the classifier minimum confidence', () => {
    const outcome = runClassifiers(
      [
        { classifier: always('weak', 0.4) },
        { classifier: always('strong', 0.9), config: classifierConfig({ minConfidence: 0.8 }) },
      ],
      {},
      { turn: 1 },
    );
    expect(outcome.fired?.classifier.name).toBe('strong');
  });

  it('fails open past a throwing classifier and reports it', () => {
    const seen: string[] = [];
    const outcome = runClassifiers(
      [{ classifier: throwing('bad') }, { classifier: always('good') }],
      {},
      { turn: 1, onError: (failure) => seen.push(failure.name) },
    );
    expect(outcome.fired?.classifier.name).toBe('good');
    expect(outcome.failures.map((f) => f.name)).toEqual(['bad']);
    expect(outcome.failures[0]?.error).toEqual(new Error('boom'));
    expect(seen).toEqual(['bad']);
  });

  it('returns nothing fired when nothing fires, still reporting failures', () => {
    const outcome = runClassifiers(
      [{ classifier: throwing('bad') }, { classifier: never('n') }],
      {},
      {
        turn: 1,
      },
    );
    expect(outcome.fired).toBeUndefined();
    expect(outcome.failures).toHaveLength(1);
  });

  it('honours cooldown turns through the tracker and reports the skip', () => {
    const tracker = new CooldownTracker();
    const entries = [
      { classifier: always('nudge'), config: classifierConfig({ cooldownTurns: 2 }) },
      { classifier: always('backup') },
    ];
    const fired = (turn: number) => runClassifiers(entries, {}, { turn, tracker });
    expect(fired(1).fired?.classifier.name).toBe('nudge');
    const second = fired(2);
    expect(second.fired?.classifier.name).toBe('backup');
    expect(second.suppressed).toEqual([{ name: 'nudge', reason: 'cooldown' }]);
    expect(fired(3).fired?.classifier.name).toBe('backup');
    expect(fired(4).fired?.classifier.name).toBe('nudge');
  });

  it('honours max fires per session', () => {
    const tracker = new CooldownTracker();
    const entries = [
      { classifier: always('once'), config: classifierConfig({ maxFiresPerSession: 1 }) },
    ];
    expect(runClassifiers(entries, {}, { turn: 1, tracker }).fired).toBeDefined();
    const later = runClassifiers(entries, {}, { turn: 9, tracker });
    expect(later.fired).toBeUndefined();
    expect(later.suppressed).toEqual([{ name: 'once', reason: 'max_fires' }]);
    expect(tracker.fireCount('once')).toBe(1);
  });

  it('never exceeds the cooldown or the session limit, whatever the turn sequence', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 5 }),
        fc.option(fc.integer({ min: 0, max: 5 }), { nil: undefined }),
        fc.array(fc.integer({ min: 0, max: 3 }), { maxLength: 60 }),
        (cooldownTurns, maxFiresPerSession, steps) => {
          const tracker = new CooldownTracker();
          const config = classifierConfig({
            cooldownTurns,
            ...(maxFiresPerSession === undefined ? {} : { maxFiresPerSession }),
          });
          const entries = [{ classifier: always('x'), config }];
          let turn = 0;
          const fires: number[] = [];
          for (const step of steps) {
            turn += step;
            if (runClassifiers(entries, {}, { turn, tracker }).fired) fires.push(turn);
          }
          if (maxFiresPerSession !== undefined)
            expect(fires.length).toBeLessThanOrEqual(maxFiresPerSession);
          if (cooldownTurns > 0) {
            for (let i = 1; i < fires.length; i++) {
              expect(fires[i]! - fires[i - 1]!).toBeGreaterThan(cooldownTurns);
            }
          }
        },
      ),
    );
  });
});

describe('classifierConfig', () => {
  it('fills in the defaults of the original design', () => {
    expect(classifierConfig()).toEqual({ minConfidence: 0.5, cooldownTurns: 0 });
  });

  it('rejects an invalid config with a message that names the field', () => {
    expect(() => classifierConfig({ minConfidence: 1.5 }, 'doom_loop')).toThrow(ConfigError);
    expect(() => classifierConfig({ minConfidence: 1.5 }, 'doom_loop')).toThrow(
      "invalid classifier config 'doom_loop': /minConfidence must be <= 1",
    );
    expect(() => classifierConfig({ cooldownTurns: 1.5 })).toThrow(
      /\/cooldownTurns must be integer/,
    );
  });

  it('rejects unknown keys by name', () => {
    try {
      classifierConfig({ cooldown: 3 } as never);
      expect.unreachable();
    } catch (error) {
      expect((error as ConfigError).issues).toEqual([
        { path: '/cooldown', message: 'is not a known field' },
      ]);
    }
  });
});
