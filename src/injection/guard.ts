import { createHash } from 'node:crypto';
import { LRUCache } from 'lru-cache';
import Type, { type Static } from 'typebox';
import { DEFAULT_CERTAINTY_THRESHOLD } from '../core/certainty.js';
import { lruDecisionCache } from '../core/decision-cache.js';
import {
  type DecideOptions,
  type DecisionAudit,
  type DecisionCache,
  type FallbackContext,
  type FallbackVerdict,
  Hybrid,
  type HybridDecision,
  type HybridStats,
  type LocalVerdict,
} from '../core/hybrid.js';
import { compileConfig } from '../core/validate.js';
import type { LlmProvider } from '../llm/types.js';
import type { InjectionConfigInput } from './config.js';
import { InjectionDetector } from './detector.js';
import { askJudge, type JudgeInput } from './llm-judge.js';
import { policyOf } from './policy.js';
import type { DetectOptions, InjectionResult, InjectionSource, RiskLevel } from './types.js';

/**
 * The injection guard: the local detector on every text, and an LLM (the original design's
 * prompt-injection classifier) only when the detector is unsure, under a strict timeout, through
 * the core {@link Hybrid}; a safe fallback when the LLM fails, times out or is unsure itself.
 *
 * ```ts
 * const guard = createInjectionGuard({ llm: provider });
 * guard.classify(userText);                                    // synchronous, local
 * const decision = await guard.decide(toolOutput, { source: 'tool_result', deadlineMs: 500 });
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
    /**
     * Cache LLM verdicts by text (an LRU of 10,000 entries, 10 minutes), and the detector's
     * results by text (an LRU of 10,000 entries). Default true.
     */
    cache: Type.Boolean({ default: true }),
    /** The model to ask, overriding the provider's default. */
    model: Type.Optional(Type.String({ minLength: 1 })),
  },
  { additionalProperties: false },
);

/** The validated guard settings. */
export type InjectionGuardConfig = Static<typeof InjectionGuardConfigSchema>;

/**
 * How a guard is built, in the shape every subsystem shares: its settings, the detector, `llm`
 * (asked when the detector is unsure) and `cache`.
 */
export interface InjectionGuardOptions extends Partial<Omit<InjectionGuardConfig, 'cache'>> {
  /** A detector, or the configuration of one. Default: the balanced preset. */
  readonly detector?: InjectionDetector | InjectionConfigInput;
  /** The LLM asked when the detector is unsure. Without one, the local verdict stands. */
  readonly llm?: LlmProvider;
  /**
   * A cache of LLM verdicts (e.g. one shared with other subsystems, or a Redis store), or
   * `true`/`false` for the built-in in-memory LRU (10,000 entries, 10 minutes; default on).
   */
  readonly cache?: DecisionCache<RiskLevel> | boolean;
  /**
   * A cache of LLM verdicts to use instead of the built-in LRU.
   *
   * @deprecated Pass it as `cache`.
   */
  readonly decisionCache?: DecisionCache<RiskLevel>;
}

/** An audited decision of the guard: the risk level and the audit every decision carries. */
export interface InjectionDecision extends DecisionAudit {
  readonly riskLevel: RiskLevel;
  /** The local detector's full result, with its evidence. */
  readonly local: InjectionResult;
  /**
   * From {@link InjectionGuard.classify} only: the detector is unsure and an LLM is configured,
   * so `riskLevel` is provisional; {@link InjectionGuard.decide} asks the LLM.
   */
  readonly needsLlm: boolean;
}

/** Options of one decision: where the text comes from, and the abort signal and deadline. */
export interface InjectionDecideOptions extends DetectOptions, DecideOptions {}

/**
 * Options of one check.
 *
 * @deprecated Use {@link InjectionDecideOptions} with {@link InjectionGuard.decide}.
 */
export type CheckOptions = InjectionDecideOptions;

/** Detector results kept by text (see {@link InjectionGuard}'s `#detect`). */
const LOCAL_CACHE_ENTRIES = 10_000;
/**
 * Texts shorter than this are detected again rather than looked up: scanning one costs a few
 * microseconds, hashing and looking it up about half of that.
 */
const LOCAL_CACHE_MIN_CHARS = 64;

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
  readonly #llmEnabled: boolean;
  /** The detector's results by source, system prompt and text hash (absent with `cache: false`). */
  readonly #results: LRUCache<string, InjectionResult> | undefined;

  /**
   * Validates the settings (a `ConfigError` names each bad field).
   *
   * @deprecated Use {@link createInjectionGuard}, the one way every subsystem is built.
   */
  constructor(options: InjectionGuardOptions = {}) {
    const { detector, llm, decisionCache, cache: cacheOption, ...settings } = options;
    const shared = typeof cacheOption === 'object' ? cacheOption : decisionCache;
    this.config = validateGuardConfig({
      ...settings,
      ...(typeof cacheOption === 'boolean' ? { cache: cacheOption } : {}),
    });
    this.detector =
      detector instanceof InjectionDetector ? detector : new InjectionDetector(detector);
    this.#llmEnabled = llm !== undefined;
    const config = this.config;
    const cache = shared ?? (config.cache ? lruDecisionCache<RiskLevel>() : undefined);
    this.#results = config.cache ? new LRUCache({ max: LOCAL_CACHE_ENTRIES }) : undefined;
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

  /** Whether an LLM is configured. */
  get llmEnabled(): boolean {
    return this.#llmEnabled;
  }

  /**
   * The detector's result alone (synchronous, microseconds).
   *
   * @deprecated Use {@link classify}: its decision carries the same result in `local`.
   */
  detect(text: string, options?: DetectOptions): InjectionResult {
    return this.detector.detect(text, options);
  }

  /**
   * Decides locally, without I/O: the detector's verdict. When the detector is unsure and an
   * LLM is configured, the decision has `needsLlm: true`; {@link decide} then asks the LLM.
   */
  classify(text: string, options: DetectOptions = {}): InjectionDecision {
    const input = this.#judged(text, options);
    const local = input.local;
    const verdict = localVerdict(local);
    const decision = this.#hybrid.decideLocally(input, verdict);
    if (decision !== undefined) return this.#toDecision(decision, local, false);
    return this.#toDecision(this.#hybrid.pending(verdict), local, true);
  }

  /**
   * The detector's verdict, and the LLM's when the detector is unsure (under the guard's
   * timeout and the caller's `deadlineMs`; the LLM is told what the system prompt protects when
   * `options.system` is given). Never rejects on LLM errors (they fall back); rejects only when
   * `signal` aborts.
   */
  async decide(text: string, options: InjectionDecideOptions = {}): Promise<InjectionDecision> {
    const input = this.#judged(text, options);
    const local = input.local;
    const decision = await this.#hybrid.decideFrom(input, localVerdict(local), options);
    return this.#toDecision(decision, local, false);
  }

  /**
   * The local verdict, and the LLM's when the local one is unsure.
   *
   * @deprecated Use {@link decide}.
   */
  check(text: string, options: CheckOptions = {}): Promise<InjectionDecision> {
    return this.decide(text, options);
  }

  /**
   * The detector's result on `text` (against the system prompt, when given) and what the LLM
   * judge would be shown: the text, and the kinds of thing the system prompt protects.
   */
  #judged(text: string, options: DetectOptions): JudgeInput {
    const source = options.source ?? 'user';
    const { system } = options;
    const policy = policyOf(system);
    const local = this.#detect(text, source, system, policy?.id);
    const protections = policy?.describe() ?? '';
    return policy && protections !== ''
      ? { text, source, local, protections, policyId: policy.id }
      : { text, source, local };
  }

  /**
   * The detector's result, from the cache when the same text was seen against the same system
   * prompt: a conversation sends its whole history with every request, and every user turn and
   * tool result of it is screened, so without the cache a long conversation would cost more per
   * request at each turn. A result is deterministic (text, source, system prompt, detector), so
   * it never goes stale; it is frozen, as it is shared.
   */
  #detect(
    text: string,
    source: InjectionSource,
    system: string | undefined,
    policyId: string | undefined,
  ): InjectionResult {
    const options = system === undefined ? { source } : { source, system };
    const results = this.#results;
    if (results === undefined || typeof text !== 'string' || text.length < LOCAL_CACHE_MIN_CHARS) {
      return this.detector.detect(text, options);
    }
    const key = `${source}:${policyId ?? ''}:${createHash('sha256').update(text).digest('base64url')}`;
    let result = results.get(key);
    if (result === undefined) {
      result = frozen(this.detector.detect(text, options));
      results.set(key, result);
    }
    return result;
  }

  #toDecision(
    decision: HybridDecision<RiskLevel>,
    local: InjectionResult,
    needsLlm: boolean,
  ): InjectionDecision {
    let riskLevel = decision.value;
    let reason = decision.reason;
    const byLlm = decision.source === 'llm' || decision.source === 'cached';
    if (
      byLlm &&
      local.riskLevel === 'high_risk' &&
      ORDER[riskLevel] < ORDER.suspicious &&
      !this.config.llmMayClearHighRisk
    ) {
      riskLevel = 'suspicious';
      reason = `${reason} (kept suspicious: a local high_risk is not cleared by the LLM)`;
    }
    return {
      riskLevel,
      local,
      source: decision.source,
      confidence: decision.confidence,
      localConfidence: decision.localConfidence,
      llmConfidence: decision.llmConfidence,
      llmMs: decision.llmMs,
      cached: decision.cached,
      reason,
      fallbackCause: decision.fallbackCause,
      needsLlm,
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

function frozen(result: InjectionResult): InjectionResult {
  for (const signal of result.signals) Object.freeze(signal);
  Object.freeze(result.signals);
  return Object.freeze(result);
}

function localVerdict(result: InjectionResult): LocalVerdict<RiskLevel> {
  const top = result.signals[0];
  return {
    value: result.riskLevel,
    confidence: result.confidence,
    reason: top ? `${result.riskLevel}: ${top.label}` : result.riskLevel,
  };
}

/**
 * Builds an injection guard from one configuration object: settings, `detector`, `llm` and
 * `cache` (see {@link InjectionGuardOptions}).
 */
export function createInjectionGuard(options: InjectionGuardOptions = {}): InjectionGuard {
  return new InjectionGuard(options);
}
