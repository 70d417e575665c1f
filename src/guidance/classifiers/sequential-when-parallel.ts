import Type, { type Static } from 'typebox';
import type { Classifier } from '../../core/classifier.js';
import { ClassificationResult } from '../../core/result.js';
import type { GuidanceContext } from '../types.js';
import { classifierOptions } from './options.js';

/** Options of {@link SequentialWhenParallelClassifier}. */
export const SequentialWhenParallelOptionsSchema = Type.Object(
  {
    /** Tools whose calls do not depend on each other and could run in one turn. */
    independentTools: Type.Array(Type.String({ minLength: 1 }), {
      default: ['read_file', 'search', 'grep'],
    }),
    /** Turns in a row, each with a single independent call, needed to fire. Default 3. */
    threshold: Type.Integer({ minimum: 2, default: 3 }),
  },
  { additionalProperties: false },
);
export type SequentialWhenParallelOptions = Static<typeof SequentialWhenParallelOptionsSchema>;
const options = classifierOptions('sequential_when_parallel', SequentialWhenParallelOptionsSchema);

/**
 * Fires when `threshold` finished turns in a row each made a single call to an independent tool:
 * calls that could have been made together in one turn and run in parallel (departing from the original design: the
 * document's sketch looked at calls, not turns, and so fired on parallel calls too). Only finished
 * turns count, so a turn whose other calls have not arrived yet is not mistaken for a single call.
 * Confidence 0.6.
 */
export class SequentialWhenParallelClassifier implements Classifier<GuidanceContext> {
  readonly name = 'sequential_when_parallel';
  readonly independentTools: ReadonlySet<string>;
  readonly threshold: number;
  readonly #accept: (tool: string) => boolean;

  constructor(input?: Partial<SequentialWhenParallelOptions>) {
    const { independentTools, threshold } = options(input);
    const tools = new Set(independentTools);
    this.independentTools = tools;
    this.threshold = threshold;
    this.#accept = (tool) => tools.has(tool);
  }

  classify(context: GuidanceContext): ClassificationResult {
    const run = context.trajectory.singleCallTurnRun(this.#accept, this.threshold);
    if (run < this.threshold) return ClassificationResult.no();
    return ClassificationResult.yes(0.6, {
      reason: `${run} turns in a row each made a single independent call (${context.trajectory.finishedTurn(0)?.firstTool} last); they could run in parallel`,
      metadata: { turns: run },
    });
  }
}
