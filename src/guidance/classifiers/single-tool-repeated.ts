import Type, { type Static } from 'typebox';
import type { Classifier } from '../../core/classifier.js';
import { ClassificationResult } from '../../core/result.js';
import type { GuidanceContext } from '../types.js';
import { classifierOptions } from './options.js';

/** Options of {@link SingleToolRepeatedClassifier}. */
export const SingleToolRepeatedOptionsSchema = Type.Object(
  {
    /** Calls in a row with the same tool needed to fire. Default 4. */
    threshold: Type.Integer({ minimum: 2, default: 4 }),
    /** Tools that may legitimately be called many times in a row. Default none. */
    ignoreTools: Type.Array(Type.String({ minLength: 1 }), { default: [] }),
  },
  { additionalProperties: false },
);
export type SingleToolRepeatedOptions = Static<typeof SingleToolRepeatedOptionsSchema>;
const options = classifierOptions('single_tool_repeated', SingleToolRepeatedOptionsSchema);

/**
 * Fires when the last `threshold` or more completed calls all used the same tool. The original design
 * looked at a window of 5 calls and required all of them to match, so a run of 4 after one other
 * call did not count; a run counter at the tail says what the name promises. Confidence 0.7.
 */
export class SingleToolRepeatedClassifier implements Classifier<GuidanceContext> {
  readonly name = 'single_tool_repeated';
  readonly threshold: number;
  readonly ignoreTools: ReadonlySet<string>;

  constructor(input?: Partial<SingleToolRepeatedOptions>) {
    const { threshold, ignoreTools } = options(input);
    this.threshold = threshold;
    this.ignoreTools = new Set(ignoreTools);
  }

  classify(context: GuidanceContext): ClassificationResult {
    const { trajectory } = context;
    const run = trajectory.sameToolRun;
    if (run < this.threshold) return ClassificationResult.no();
    const tool = trajectory.fromEnd(0)!.toolName;
    if (this.ignoreTools.has(tool)) return ClassificationResult.no();
    return ClassificationResult.yes(0.7, {
      reason: `${tool} called ${run}x consecutively`,
      metadata: { tool, run },
    });
  }
}
