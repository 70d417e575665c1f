import { createHash } from 'node:crypto';
import Type, { type Static } from 'typebox';
import { DEFAULT_CERTAINTY_THRESHOLD } from '../core/certainty.js';
import { lruDecisionCache } from '../core/decision-cache.js';
import {
  type DecisionCache,
  type DecisionSource,
  type FallbackContext,
  type FallbackVerdict,
  Hybrid,
  type HybridStats,
  type LocalVerdict,
} from '../core/hybrid.js';
import { compileConfig } from '../core/validate.js';
import type { LlmProvider } from '../llm/types.js';
import type { InjectionConfigInput } from './config.js';
import { InjectionDetector } from './detector.js';
import { askJudge, type JudgeInput } from './llm-judge.js';
import { policyOf } from './policy.js';
import type { DetectOptions, InjectionResult, RiskLevel } from './types.js';

/**
 * The injection guard: the local detector on every text, and an LLM (document 003's
 * prompt-injection classifier) only when the detector is unsure, under a strict timeout, through
 * the core {@link Hybrid}; a safe fallback when the LLM fails, times out or is unsure itself.
 *
 * ```ts
 * const guard = new InjectionGuard({ llm: provider });
 * const decision = await guard.check(toolOutput, { source: 'tool_result' });
 * if (decision.riskLevel === 'high_risk') …
 * ```
 */

/** The numeric and policy settings of a guard. */
export const InjectionGuardConfigSchema = Type.Object(
  {
    /** Local confidence at or above which the LLM is not asked. Default 0.7. */
    minConfidence: Type.Number({ minimum: 0, maximum: 1, default: 0.7 }),
    /** Strict time limit of one LLM verdict, in milliseconds. Default 2000. */
    timeoutMs: Type.Integer({ minimum: 1, maximum: 600_000, default: 2000 }),
    /** The LLM's certainty below which its verdict counts as unsure. Default 0.65. */
    llmMinConfidence: Type.Number({ minimum: 0, maximum: 1, default: DEFAULT_CERTAINTY_THRESHOLD }),
    /**
     * The verdict when the LLM cannot decide: `suspicious` (the default: the local level, raised
     * to at least suspicious), `local` (the local level as it is) or `unknown`.
     */
    fallback: Type.Union(
      [Type.Literal('suspicious'), Type.Literal('local'), Type.Literal('unknown')],
      {
        default: 'suspicious',
      },
    ),
    /**
     * Whether the LLM may lower a local `high_risk` below `suspicious`. Default false: the text
     * under judgement may itself be written to fool the judge.
     */
    llmMayClearHighRisk: Type.Boolean({ default: false }),
    /** Most characters sent to the LLM (cut around the local evidence). Default 6000. */
    maxLlmChars: Type.Integer({ minimum: 200, default: 6000 }),
    /** Cache LLM verdicts by text (an LRU of 10,000 entries, 10 minutes). Default true. */
    cache: Type.Boolean({ default: true }),
    /** The model to ask, overriding the provider's default. */
    model: Type.Optional(Type.String({ minLength: 1 })),
  },
  { additionalProperties: false },
);

/** The validated guard settings. */
export type InjectionGuardConfig = Static<typeof InjectionGuardConfigSchema>;

/** Options of {@link InjectionGuard}: settings, the detector and the provider. */
export interface InjectionGuardOptions extends Partial<InjectionGuardConfig> {
  /** A detector, or the configuration of one. Default: the balanced preset. */
  readonly detector?: InjectionDetector | InjectionConfigInput;
  /** The LLM asked when the detector is unsure. Without one, the local verdict stands. */
  readonly llm?: LlmProvider;
  /** A cache of LLM verdicts to use instead of the built-in LRU (e.g. a shared store). */
  readonly decisionCache?: DecisionCache<RiskLevel>;
}

/** An audited decision of the guard. */
export interface InjectionDecision {
  readonly riskLevel: RiskLevel;
  readonly confidence: number;
  /** Where the decision came from: the local detector, the LLM, or the fallback. */
  readonly source: DecisionSource;
  /** The local detector's full result, with its evidence. */
  readonly local: InjectionResult;
  /** The LLM's confidence, when it answered. */
  readonly llmConfidence?: number;
  /** Whether the LLM verdict came from the cache. */
  readonly cached?: boolean;
  /** Milliseconds spent waiting for the LLM (0 when it was not asked). */
  readonly llmMs: number;
  readonly reason: string;
}

/** Options of one check. */
export interface CheckOptions extends DetectOptions {
  /** Aborts the LLM call (e.g. the client went away). */
  readonly signal?: AbortSignal;
}

const validateGuardConfig = compileConfig(InjectionGuardConfigSchema, 'injection guard config');
const ORDER: Readonly<Record<RiskLevel, number>> = {
  normal: 0,
  suspicious: 1,
  high_risk: 2,
  unknown: 3,
};

/** The local detector plus an LLM when unsure (see the module comment). */
export class InjectionGuard {
  readonly config: InjectionGuardConfig;
  readonly detector: InjectionDetector;
  readonly #hybrid: Hybrid<JudgeInput, RiskLevel>;

  /** Validates the settings (a `ConfigError` names each bad field). */
  constructor(options: InjectionGuardOptions = {}) {
    const { detector, llm, decisionCache, ...settings } = options;
    this.config = validateGuardConfig({ ...settings });
    this.detector =
      detector instanceof InjectionDetector ? detector : new InjectionDetector(detector);
    const config = this.config;
    const cache = decisionCache ?? (config.cache ? lruDecisionCache<RiskLevel>() : undefined);
    this.#hybrid = new Hybrid<JudgeInput, RiskLevel>({
      name: 'prompt_injection',
      local: (input) => localVerdict(input.local),
      minConfidence: config.minConfidence,
      timeoutMs: config.timeoutMs,
      llmMinConfidence: config.llmMinConfidence,
      ...(llm
        ? {
            llm: (input, _local, signal) =>
              askJudge(
                llm,
                input,
                {
                  maxChars: config.maxLlmChars,
                  ...(config.model === undefined ? {} : { model: config.model }),
                },
                signal,
              ),
          }
        : {}),
      fallback: (context) => this.#fallback(context),
      ...(cache
        ? {
            cache,
            // A verdict depends on the text, its source and what the system prompt protects.
            cacheKey: (input: JudgeInput) =>
              `${input.source}:${input.policyId ?? ''}:${createHash('sha256').update(input.text).digest('base64url')}`,
          }
        : {}),
    });
  }

  /** The local verdict alone (synchronous, microseconds). */
  detect(text: string, options?: DetectOptions): InjectionResult {
    return this.detector.detect(text, options);
  }

  /**
   * The local verdict, and the LLM's when the local one is unsure (told what the system prompt
   * protects, when `options.system` is given). Never rejects on LLM errors.
   */
  async check(text: string, options: CheckOptions = {}): Promise<InjectionDecision> {
    const source = options.source ?? 'user';
    const { system } = options;
    const local = this.detector.detect(
      text,
      system === undefined ? { source } : { source, system },
    );
    const policy = policyOf(system);
    const protections = policy?.describe() ?? '';
    const input: JudgeInput =
      policy && protections !== ''
        ? { text, source, local, protections, policyId: policy.id }
        : { text, source, local };
    const decision = await this.#hybrid.decideFrom(input, localVerdict(local), options.signal);
    let riskLevel = decision.value;
    let reason = decision.reason;
    if (
      decision.source === 'llm' &&
      local.riskLevel === 'high_risk' &&
      ORDER[riskLevel] < ORDER.suspicious &&
      !this.config.llmMayClearHighRisk
    ) {
      riskLevel = 'suspicious';
      reason = `${reason} (kept suspicious: a local high_risk is not cleared by the LLM)`;
    }
    return {
      riskLevel,
      confidence: decision.confidence,
      source: decision.source,
      local,
      ...(decision.llmConfidence === undefined ? {} : { llmConfidence: decision.llmConfidence }),
      ...(decision.cached ? { cached: true } : {}),
      llmMs: decision.llmMs,
      reason,
    };
  }

  /** Counters since the guard was created: local decisions, LLM calls, timeouts, fallbacks. */
  get stats(): HybridStats {
    return this.#hybrid.stats;
  }

  #fallback(context: FallbackContext<JudgeInput, RiskLevel>): FallbackVerdict<RiskLevel> {
    const local = context.local.value;
    const confidence = context.local.confidence;
    switch (this.config.fallback) {
      case 'local':
        return { value: local, confidence };
      case 'unknown':
        return { value: 'unknown', confidence };
      default:
        return { value: ORDER[local] < ORDER.suspicious ? 'suspicious' : local, confidence };
    }
  }
}

function localVerdict(result: InjectionResult): LocalVerdict<RiskLevel> {
  const top = result.signals[0];
  return {
    value: result.riskLevel,
    confidence: result.confidence,
    reason: top ? `${result.riskLevel}: ${top.label}` : result.riskLevel,
  };
}
