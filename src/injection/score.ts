import type { RiskLevel } from './types.js';

/**
 * From a risk score to the original design's risk level and a confidence in that level. The score is a
 * noisy-or of the signals (each signal alone would make the text an injection with probability
 * equal to its weight), so independent evidence adds up without ever exceeding 1.
 */

/** The thresholds of the levels. */
export interface Thresholds {
  readonly suspiciousAt: number;
  readonly highRiskAt: number;
}

/** The most a local verdict claims: near-certain, never certain. */
export const MAX_LOCAL_CONFIDENCE = 0.97;

/** The level of a score. */
export function riskLevelOf(score: number, thresholds: Thresholds): RiskLevel {
  if (score >= thresholds.highRiskAt) return 'high_risk';
  if (score >= thresholds.suspiciousAt) return 'suspicious';
  return 'normal';
}

/**
 * How sure the level is, from how far the score lies inside its band:
 * - `normal`: 1 − score / (2 × suspiciousAt): 0.97 with no signal, 0.5 at the threshold;
 * - `suspicious`: 0.45 to 0.6 at most: by definition ambiguous, so a hybrid asks its LLM;
 * - `high_risk`: 0.6 at the threshold, rising to 0.97 at a score of 1;
 * - `unknown`: 0.5.
 */
export function confidenceOf(level: RiskLevel, score: number, thresholds: Thresholds): number {
  const { suspiciousAt, highRiskAt } = thresholds;
  let confidence: number;
  switch (level) {
    case 'normal':
      confidence = 1 - (0.5 * score) / suspiciousAt;
      break;
    case 'suspicious': {
      const half = (highRiskAt - suspiciousAt) / 2;
      const inside = Math.min(score - suspiciousAt, highRiskAt - score);
      confidence = 0.45 + (0.15 * inside) / half;
      break;
    }
    case 'high_risk':
      confidence =
        highRiskAt >= 1
          ? MAX_LOCAL_CONFIDENCE
          : 0.6 + ((MAX_LOCAL_CONFIDENCE - 0.6) * (score - highRiskAt)) / (1 - highRiskAt);
      break;
    default:
      confidence = 0.5;
  }
  return Math.min(MAX_LOCAL_CONFIDENCE, Math.max(0, confidence));
}
