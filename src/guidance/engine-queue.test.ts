import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { AsyncClassifier } from '../core/classifier.js';
import { ClassificationResult } from '../core/result.js';
import { GuidanceEngine } from './engine.js';
import { TrajectoryEventError } from './errors.js';
import type { GuidanceContext, TrajectoryEvent } from './types.js';

/**
 * Parallel tool callbacks submit events while an LLM-backed provider is still evaluating an
 * earlier one. Whatever the interleaving of submissions and LLM answers, every event is applied
 * once, in submission order, and each caller gets the guidance of its own event.
 */
describe('GuidanceEngine queue', () => {
  it('applies concurrent events in submission order and loses none', async () => {
    const plan = fc.array(fc.boolean(), { minLength: 1, maxLength: 24 }); // true: a valid event
    await fc.assert(
      fc.asyncProperty(fc.scheduler(), plan, async (s, valid) => {
        // The LLM answers with the tool of the last call it saw, at a moment the scheduler picks.
        const echo: AsyncClassifier<GuidanceContext> = {
          name: 'echo',
          classify: (context) =>
            s.schedule(
              Promise.resolve(
                ClassificationResult.yes(0.9, {
                  reason: context.trajectory.fromEnd(0)?.toolName ?? 'none',
                }),
              ),
            ),
        };
        const engine = new GuidanceEngine({
          providers: [{ asyncClassifier: echo, guidance: '{reason}', maxPerTurn: 1000 }],
        });
        const submitted: number[] = [];
        const outcomes = new Map<number, string>();
        const event = (i: number): TrajectoryEvent =>
          valid[i]
            ? { type: 'tool_invoked', tool: `t${i}`, result: { success: true, message: `${i}` } }
            : { type: 'tool_result', callId: `missing-${i}`, result: { success: true } };
        // Each submission happens at a moment the scheduler picks, interleaved with LLM answers.
        const calls = valid.map((_, i) =>
          s.schedule(Promise.resolve(i), `submit ${i}`).then(() => {
            submitted.push(i);
            return engine.decide(event(i)).then(
              (guidance) => outcomes.set(i, guidance.map((g) => g.message).join('|')),
              (error: unknown) => {
                expect(error).toBeInstanceOf(TrajectoryEventError);
                outcomes.set(i, 'rejected');
              },
            );
          }),
        );
        await s.waitIdle();
        await Promise.all(calls);
        await engine.idle();
        expect(engine.pending).toBe(0);
        expect(outcomes.size).toBe(valid.length); // every caller was answered
        for (const [i, outcome] of outcomes) expect(outcome).toBe(valid[i] ? `t${i}` : 'rejected');
        const applied = engine.trajectory.recentToolCalls(64).map((c) => c.toolName);
        expect(applied).toEqual(submitted.filter((i) => valid[i]).map((i) => `t${i}`));
        expect(engine.stats.events).toBe(valid.filter(Boolean).length);
      }),
      { numRuns: 200 },
    );
  });
});
