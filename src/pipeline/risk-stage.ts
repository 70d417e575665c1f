import { certaintyFromConfidence } from '../core/certainty.js';
import { injectionRiskDetector } from '../injection/index.js';
import type { LocalStage } from './local-stage.js';
import type { TargetRole } from './manifest.js';
import { truncate } from './output.js';
import { MAX_REASON_CHARS } from './output-schema.js';
import type { PipelineRiskLevel } from './reserved-fields.js';

/**
 * The seam between a local prompt-injection detector and the stock `prompt_injection` classifier
 * (ARCHITECTURE: local first, the LLM only when unsure). The detector sees the whole sanitised
 * target; when it is sure its verdict is the classifier's output and no model is asked, otherwise
 * the model decides, and the manifest's fallback covers a failing model.
 */

/** What a local detector says about one text. */
export interface RiskVerdict {
  readonly riskLevel: PipelineRiskLevel;
  /** Confidence in `riskLevel`, in [0, 1]. */
  readonly confidence: number;
  /** The evidence in a few words (e.g. the strongest signal); never the text itself. */
  readonly reason?: string;
}

/**
 * A local prompt-injection detector: the target's full text, its role, and the conversation's
 * system prompt when it has one (what it protects makes some requests attacks).
 */
export type RiskDetector = (text: string, role: TargetRole, system?: string) => RiskVerdict;

/** The local confidence at or above which the detector's verdict is used without the model. */
export const DEFAULT_RISK_STAGE_CONFIDENCE = 0.85;

/**
 * A local stage for a classifier that emits `risk_level` (the stock `prompt_injection`): the
 * detector's verdict becomes `{reason, certainty, risk_level}`, the certainty being the strongest
 * tag that does not overstate the detector's confidence.
 */
export function riskLevelStage(
  detect: RiskDetector,
  minConfidence = DEFAULT_RISK_STAGE_CONFIDENCE,
): LocalStage {
  return {
    minConfidence,
    classify: (input) => {
      const verdict = detect(input.target.text, input.target.role, input.system);
      const reason = truncate(
        `local detector: ${verdict.reason ?? verdict.riskLevel}`,
        MAX_REASON_CHARS,
      );
      return {
        value: {
          reason,
          certainty: certaintyFromConfidence(verdict.confidence),
          risk_level: verdict.riskLevel,
        },
        confidence: verdict.confidence,
        reason,
      };
    },
    same: (a, b) => a.risk_level === b.risk_level,
  };
}

/**
 * The local detector of `src/injection`, built on first use: its lexicons take milliseconds to
 * compile, which a program that imports triage but never runs a pipeline should not pay.
 */
let sharedDetector: RiskDetector | undefined;
const localInjectionDetector: RiskDetector = (text, role, system) => {
  sharedDetector ??= injectionRiskDetector();
  return sharedDetector(text, role, system);
};

/**
 * The local stages a pipeline has unless its options say otherwise (`null` removes one): the
 * stock `prompt_injection` classifier asks the local detector first, and the model only when the
 * detector is not sure (confidence below {@link DEFAULT_RISK_STAGE_CONFIDENCE}).
 */
export const DEFAULT_LOCAL_STAGES: Readonly<Record<string, LocalStage>> = Object.freeze({
  prompt_injection: riskLevelStage(localInjectionDetector),
});
