import Type, { type Static } from 'typebox';
import type { Classifier } from '../../core/classifier.js';
import { ClassificationResult } from '../../core/result.js';
import type { GuidanceContext } from '../types.js';
import { classifierOptions } from './options.js';

/** Options of {@link DoomLoopClassifier}. */
export const DoomLoopOptionsSchema = Type.Object(
  {
    /** Back-to-back repetitions of the cycle needed to fire. Default 3. */
    minRepetitions: Type.Integer({ minimum: 2, default: 3 }),
    /**
     * Shortest cycle counted, in calls. Default 2: one call repeated is left to
     * `single_tool_repeated` and `error_streak`; set 1 to count it here too.
     */
    minCycleLength: Type.Integer({ minimum: 1, maximum: 64, default: 2 }),
  },
  { additionalProperties: false },
);
export type DoomLoopOptions = Static<typeof DoomLoopOptionsSchema>;
const options = classifierOptions('doom_loop', DoomLoopOptionsSchema);

/**
 * Fires when the agent goes round in circles: a cycle of actions (tool plus params with the noise
 * folded) repeated back to back at the tail of the trajectory at least `minRepetitions` times.
 * Confidence grows with the repetitions: `repetitions / (2 × minRepetitions)`, capped at 1.
 * The cycle's length is limited by the trajectory's `maxCycleLength`.
 */
export class DoomLoopClassifier implements Classifier<GuidanceContext> {
  readonly name = 'doom_loop';
  readonly minRepetitions: number;
  readonly minCycleLength: number;

  constructor(input?: Partial<DoomLoopOptions>) {
    const { minRepetitions, minCycleLength } = options(input);
    this.minRepetitions = minRepetitions;
    this.minCycleLength = minCycleLength;
  }

  classify(context: GuidanceContext): ClassificationResult {
    const pattern = context.trajectory.doomLoop(this.minCycleLength);
    if (pattern === undefined || pattern.repetitions < this.minRepetitions) {
      return ClassificationResult.no();
    }
    const { cycleActions, repetitions, exactRepetitions } = pattern;
    const near = exactRepetitions < repetitions ? ' (params differing only in noise)' : '';
    return ClassificationResult.yes(Math.min(1, repetitions / (this.minRepetitions * 2)), {
      reason: `cycle ${cycleActions.join(' → ')} repeated ${repetitions}x${near}`,
      metadata: { cycle: cycleActions, repetitions, exactRepetitions },
    });
  }
}
