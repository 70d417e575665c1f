import { CapabilitySelectionError } from '../errors.js';
import type { CapabilitySelection, CapabilitySelector } from '../selection.js';
import type { AgentState, AgentStateUpdate } from './state.js';
import { capabilitiesSelected, stepFailed } from './updates.js';

/** Options of {@link runClassifierStep}. */
export interface ClassifierStepOptions {
  /**
   * What to do when some capabilities could not be classified: `retry` (default) records a
   * {@link CapabilitySelectionError}, which the router retries under the classifier's policy when
   * every failure is transient; `accept` keeps the selection without them.
   */
  readonly onFailures?: 'retry' | 'accept';
  readonly signal?: AbortSignal;
  /** Receives the selection (for audit, metrics or display) before the update is returned. */
  readonly onSelection?: (selection: CapabilitySelection) => void;
}

/**
 * The classifier step of an agent (the original design's `ClassificationNode.execute`): selects the
 * capabilities of the current task, passing the reclassification reason (if any) to the prompts
 * and the session's bypass setting, and returns the state update, or the recorded error when the
 * selection failed. Never throws.
 */
export async function runClassifierStep(
  state: AgentState,
  selector: CapabilitySelector,
  options: ClassifierStepOptions = {},
): Promise<AgentStateUpdate> {
  try {
    const selection = await selector.select(state.currentTask ?? '', {
      ...(state.reclassificationReason === undefined
        ? {}
        : { previousFailure: state.reclassificationReason }),
      ...(state.capabilityBypass === undefined ? {} : { bypass: state.capabilityBypass }),
      ...(options.signal === undefined ? {} : { signal: options.signal }),
    });
    options.onSelection?.(selection);
    if (selection.failures.length > 0 && (options.onFailures ?? 'retry') === 'retry') {
      return stepFailed(state, 'classifier', new CapabilitySelectionError(selection.failures));
    }
    return capabilitiesSelected(selection);
  } catch (error) {
    return stepFailed(state, 'classifier', error);
  }
}
