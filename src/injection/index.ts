/** Prompt-injection detection: the local detector, its configuration, and the hybrid guard. */
export {
  type CustomPattern,
  CustomPatternSchema,
  INJECTION_PRESETS,
  type InjectionConfig,
  type InjectionConfigInput,
  InjectionConfigSchema,
  type InjectionPreset,
  injectionConfig,
} from './config.js';
export { detectInjection, InjectionDetector } from './detector.js';
export {
  type CheckOptions,
  createInjectionGuard,
  type InjectionDecideOptions,
  type InjectionDecision,
  InjectionGuard,
  type InjectionGuardConfig,
  InjectionGuardConfigSchema,
  type InjectionGuardOptions,
} from './guard.js';
export { JUDGE_SCHEMA, type JudgeInput, judgeRequest } from './llm-judge.js';
export { injectionRiskDetector } from './risk-detector.js';
export {
  type DetectOptions,
  INJECTION_SOURCES,
  type InjectionResult,
  type InjectionSignal,
  type InjectionSource,
  isRiskLevel,
  RISK_LEVELS,
  type RiskLevel,
  SIGNAL_KINDS,
  type SignalKind,
} from './types.js';
