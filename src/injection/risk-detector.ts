import { InjectionDetector } from './detector.js';
import type { InjectionSource, RiskLevel } from './types.js';

/**
 * The local detector in the shape the pipeline's stock `prompt_injection` classifier takes
 * (`riskLevelStage(injectionRiskDetector())` in `src/pipeline`): a function of the target text
 * and its role that returns the risk level, the confidence and the strongest signal's label as
 * the reason (never the text itself). A final user message is a user message; any other target
 * (an assistant turn carrying tool output) is scanned as data. The conversation's system prompt,
 * when given, is what the text is judged against (what it protects, what it restricts to).
 */
export function injectionRiskDetector(
  detector: InjectionDetector = new InjectionDetector(),
): (
  text: string,
  role: string,
  system?: string,
) => { riskLevel: RiskLevel; confidence: number; reason: string } {
  return (text, role, system) => {
    const source: InjectionSource = role === 'user' ? 'user' : 'tool_result';
    const result = detector.detect(text, system === undefined ? { source } : { source, system });
    const top = result.signals[0];
    return {
      riskLevel: result.riskLevel,
      confidence: result.confidence,
      reason: top ? `${top.kind}: ${top.label}` : `${result.riskLevel}, no signal`,
    };
  };
}
