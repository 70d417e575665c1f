import type { LocalVerdict } from '../core/hybrid.js';
import type { PreparedInput } from './input.js';
import type { ClassifierOutput } from './types.js';

/**
 * A local stage of a pipeline classifier (ARCHITECTURE: local first, the LLM only when unsure).
 * It answers with the output the classifier would give and how sure it is; at or above
 * `minConfidence` its output is used and the model is not asked, below it the model is asked
 * (through the core `Hybrid`), and when the model fails the manifest's fallback is used.
 *
 * The stage's output is validated against the classifier's schema like a model's; an invalid
 * output, or a stage that throws, counts as unsure (confidence 0).
 */
export interface LocalStage {
  /** Local confidence at or above which the model is not asked. */
  readonly minConfidence: number;
  /** Decides locally, in microseconds, from the full sanitised target (`input.target.text`). */
  classify(input: PreparedInput): LocalVerdict<ClassifierOutput>;
  /**
   * Whether two outputs say the same thing (for the hybrid's confirmed/overrode counters).
   * Default: equal once `reason` and `certainty` are set aside.
   */
  same?(a: ClassifierOutput, b: ClassifierOutput): boolean;
}

/** Default {@link LocalStage.same}: the payloads are equal as JSON. */
export function samePayload(a: ClassifierOutput, b: ClassifierOutput): boolean {
  return JSON.stringify(payloadOf(a)) === JSON.stringify(payloadOf(b));
}

/** An output without `reason` and `certainty`: what `result.classifier_outputs[name]` shows. */
export function payloadOf(output: ClassifierOutput): Record<string, unknown> {
  const { reason: _reason, certainty: _certainty, ...payload } = output;
  return payload;
}
