import { runClassifierStep } from './agent/classifier-step.js';
import { routeAgent } from './agent/router.js';
import type { ClassifierGuide } from './capability.js';
import { type CapabilityReply, CapabilityReplySchema } from './prompt.js';
import {
  CapabilitySelector,
  type CapabilitySelectorOptions,
  type SelectOptions,
} from './selection.js';

/**
 * The original design's public names, where this library names the same thing differently, so
 * that code written against the design reads the same here. Each is the very same value or type
 * as its native name; the native names are the ones documented. `ClassifierExample`,
 * `ErrorClassification`, `ErrorSeverity` (`ErrorSeverity.RETRIABLE`…) and the registry's
 * `getAllCapabilities()` / `getAlwaysActiveCapabilityNames()` need no alias.
 */

/** The design's `TaskClassifierGuide`: {@link ClassifierGuide}. */
export type TaskClassifierGuide = ClassifierGuide;

/** The design's `CapabilityMatch`, the LLM's structured answer: `{ is_match, reason }`. */
export type CapabilityMatch = CapabilityReply;
/** The schema of {@link CapabilityMatch}. */
export const CapabilityMatchSchema = CapabilityReplySchema;

/** The design's `router_conditional_edge(state)`: {@link routeAgent}. */
export const routerConditionalEdge = routeAgent;

/** The design's `ClassificationNode`: the classifier step, `execute` = {@link runClassifierStep}. */
export const ClassificationNode = Object.freeze({
  name: 'classifier',
  description: 'Task Classification and Capability Selection',
  execute: runClassifierStep,
});

/** What {@link selectCapabilities} takes: the design's arguments and a selector's options. */
export interface SelectCapabilitiesInput
  extends Omit<CapabilitySelectorOptions, 'registry'>,
    Omit<SelectOptions, 'bypass'> {
  readonly task: string;
  /** The capabilities to choose from: a registry or a list. */
  readonly availableCapabilities: CapabilitySelectorOptions['registry'];
}

/**
 * The design's `select_capabilities(task, available_capabilities)`: the names of the
 * capabilities `task` needs, always-active first. It builds a {@link CapabilitySelector} for the
 * call; a caller that selects more than once should build one and call `select` (the pre-matcher
 * is compiled once, and the selection carries every decision and failure).
 */
export async function selectCapabilities(input: SelectCapabilitiesInput): Promise<string[]> {
  const { task, availableCapabilities, previousFailure, signal, ...options } = input;
  const selector = new CapabilitySelector({ ...options, registry: availableCapabilities });
  const selection = await selector.select(task, {
    ...(previousFailure === undefined ? {} : { previousFailure }),
    ...(signal === undefined ? {} : { signal }),
  });
  return [...selection.selected];
}
