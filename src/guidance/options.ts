import Type, { type Static } from 'typebox';
import { compileConfig } from '../core/validate.js';

/** How much of the trajectory is retained, and how far patterns look back. */
export const TrajectoryOptionsSchema = Type.Object(
  {
    /**
     * Completed calls, failed calls and finished turns retained for `recentToolCalls`,
     * `recentErrors` and turn-based classifiers. Counters (streaks, stalls, cycles) do not depend
     * on it. Default 64.
     */
    window: Type.Integer({ minimum: 8, maximum: 4096, default: 64 }),
    /** Longest cycle of actions a doom loop may have. Default 10. */
    maxCycleLength: Type.Integer({ minimum: 1, maximum: 64, default: 10 }),
    /**
     * Recent actions and outputs remembered to decide whether a call produced something new
     * (progress stall). Default 64.
     */
    noveltyMemory: Type.Integer({ minimum: 1, maximum: 1024, default: 64 }),
    /** Calls that may be pending at once; beyond it the oldest is dropped and counted. Default 1000. */
    maxPending: Type.Integer({ minimum: 1, maximum: 100_000, default: 1000 }),
  },
  { additionalProperties: false },
);

/** Validated trajectory options. */
export type TrajectoryOptions = Static<typeof TrajectoryOptionsSchema>;

/** Trajectory options as given: every field optional. */
export type TrajectoryOptionsInput = Partial<TrajectoryOptions>;

const validate = compileConfig(TrajectoryOptionsSchema, 'trajectory options');

/** Validates trajectory options and fills in defaults; throws a `ConfigError` naming the field. */
export function trajectoryOptions(input: TrajectoryOptionsInput = {}): TrajectoryOptions {
  return validate({ ...input });
}
