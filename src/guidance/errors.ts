import { InputError } from '../core/errors.js';

/**
 * An event that does not fit the trajectory: a result for a call that is not pending, a call id
 * used twice, a turn that goes backwards, a missing tool name. The message says which and how to
 * fix it; it never contains params or tool output.
 */
export class TrajectoryEventError extends InputError {
  constructor(message: string) {
    super('trajectory_event_invalid', message);
  }
}
