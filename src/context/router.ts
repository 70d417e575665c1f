import { lruDecisionCache } from '../core/decision-cache.js';
import {
  type DecideOptions,
  type DecisionAudit,
  type DecisionCache,
  type FallbackContext,
  Hybrid,
  type HybridDecision,
  type HybridStats,
} from '../core/hybrid.js';
import { type LlmSetting, splitLlmSetting } from '../llm/setting.js';
import type { LlmProvider } from '../llm/types.js';
import { foldString } from '../text/chars.js';
import { contextLlmDecider } from './llm-router.js';
import {
  type ContextRoute,
  type ExplainedContextRoute,
  LocalContextRouter,
  localVerdict,
} from './local-router.js';
import type {
  ContextLlmConfig,
  ContextPolicy,
  ContextRouterConfig,
  ContextRouterConfigInput,
  DeepPartial,
} from './schema.js';

/**
 * The shortest time the LLM is given, whatever `llm.timeoutMs` says: the original design asks with
 * `timeout=max(0.05, ROUTER_TIMEOUT_MS / 1000)`, since a shorter limit would turn every unsure
 * question into a timeout. A caller's `deadlineMs` may still cut a decision shorter.
 */
export const CONTEXT_LLM_TIMEOUT_FLOOR_MS = 50;

/** The settings of the context router's LLM decision (the `llm` section of its configuration). */
export type ContextLlmSettings = DeepPartial<ContextLlmConfig>;

/**
 * How a context router is built, in the shape every subsystem shares: its configuration, `llm`
 * (the LLM asked when the local router is unsure: a provider, or the `llm` settings with the
 * provider in `provider`) and `cache` (a decision cache shared with others).
 */
export interface ContextRouterSettings extends Omit<ContextRouterConfigInput, 'llm'> {
  /** The LLM: `{ llm: provider }` or `{ llm: { provider, timeoutMs: 350 } }`. */
  readonly llm?: LlmSetting<ContextLlmSettings>;
  /** A cache of LLM verdicts, replacing the in-memory LRU that `llm.cacheSize` configures. */
  readonly cache?: DecisionCache<string>;
}

/**
 * How a {@link ContextRouter} was built before every subsystem took one configuration object.
 *
 * @deprecated Pass the configuration itself with `llm` and `cache`:
 * `createContextRouter({ ...config, llm: provider, cache })`.
 */
export interface ContextRouterOptions {
  /** The configuration: partial (completed with the defaults) or from `contextRouterConfig`. */
  readonly config?: ContextRouterConfigInput | ContextRouterConfig;
  /** The LLM asked when the local router is unsure; without one the LLM check is off. */
  readonly llm?: LlmProvider;
  /** A cache of LLM verdicts, replacing the in-memory LRU that `llm.cacheSize` configures. */
  readonly cache?: DecisionCache<string>;
}

/**
 * A routing decision: the mode, its policy, and the audit every triage decision carries
 * (`source`: `local`, `llm`, `cached`, `fallback` with its `fallbackCause`, or `forced` when the
 * router is disabled). Plain data.
 */
export interface ContextDecision extends DecisionAudit {
  readonly mode: string;
  /** What to send with the question, and how to shape the answer. */
  readonly policy: ContextPolicy;
  /** The local router's view (`null` when the router is disabled). */
  readonly local: ContextRoute | null;
  /**
   * From {@link ContextRouter.classify} only: the local router is unsure and an LLM is
   * configured, so `mode` is provisional; {@link ContextRouter.decide} asks the LLM.
   */
  readonly needsLlm: boolean;
}

/**
 * The original design's query router: decides how much context a question needs.
 *
 * The local router decides when its confidence reaches `localConfidenceThreshold` (0.75) and its
 * margin `localMarginThreshold` (0.20). Otherwise the LLM, when one is given, is asked under
 * `llm.timeoutMs` (350 ms) and its verdict is used when its own confidence reaches
 * `llm.confidenceThreshold` (0.70). When the LLM fails, times out or is unsure, the fallback mode
 * (standalone definition, confidence 0.5) is used, with the document's reason recording both
 * confidences and the cause in `fallbackCause`. The LLM is never given less than 50 ms.
 * Without an LLM, an unsure local verdict is kept (`whenUnsureWithoutLlm: 'local'`) or replaced by
 * the fallback (`'fallback'`). A disabled router gives every question `disabledMode`.
 */
export class ContextRouter {
  readonly config: ContextRouterConfig;
  /**
   * The LLM's time limit: `llm.timeoutMs`, but never below {@link CONTEXT_LLM_TIMEOUT_FLOOR_MS}.
   */
  readonly llmTimeoutMs: number;
  readonly #local: LocalContextRouter;
  readonly #hybrid: Hybrid<string, string>;
  readonly #llmEnabled: boolean;

  /**
   * Builds a router from one configuration object ({@link ContextRouterSettings}); the
   * deprecated `{ config, llm, cache }` form ({@link ContextRouterOptions}) is still read.
   */
  constructor(options: ContextRouterSettings | ContextRouterOptions = {}) {
    const { config: input, provider, cache: sharedCache } = settingsOf(options);
    this.#local = new LocalContextRouter(input);
    const config = this.#local.config;
    this.config = config;
    this.#llmEnabled = provider !== undefined;
    this.llmTimeoutMs = Math.max(CONTEXT_LLM_TIMEOUT_FLOOR_MS, config.llm.timeoutMs);
    const cache =
      sharedCache ??
      (config.llm.cacheSize > 0
        ? lruDecisionCache<string>({ max: config.llm.cacheSize, ttlMs: config.llm.cacheTtlMs })
        : undefined);
    this.#hybrid = new Hybrid<string, string>({
      name: 'context',
      local: (question) => localVerdict(this.#local.route(question)),
      minConfidence: config.localConfidenceThreshold,
      minMargin: config.localMarginThreshold,
      timeoutMs: this.llmTimeoutMs,
      llmMinConfidence: config.llm.confidenceThreshold,
      withoutLlm: config.whenUnsureWithoutLlm,
      fallback: (context) => ({
        value: config.fallback.mode,
        confidence: config.fallback.confidence,
        reason: fallbackReason(context),
      }),
      ...(provider === undefined
        ? {}
        : {
            llm: contextLlmDecider(provider, {
              ...config,
              llm: { ...config.llm, timeoutMs: this.llmTimeoutMs },
            }),
            ...(cache === undefined
              ? {}
              : {
                  cache,
                  cacheKey: (question: string) =>
                    `${provider.id}\u0000${config.llm.model ?? provider.model}\u0000${cacheText(question, config.maxQuestionChars)}`,
                }),
          }),
    });
  }

  /** Whether an LLM is configured. */
  get llmEnabled(): boolean {
    return this.#llmEnabled;
  }

  /** Mode names, in table order. */
  get modes(): readonly string[] {
    return this.#local.modes;
  }

  /** Counters: local decisions, LLM calls, overrides, timeouts, fallbacks, time spent. */
  get stats(): HybridStats {
    return this.#hybrid.stats;
  }

  /**
   * The local router's answer alone.
   *
   * @deprecated Use {@link classify}: its decision carries the same route in `local`.
   */
  route(question: string): ContextRoute {
    return this.#local.route(question);
  }

  /**
   * Decides locally, without I/O: the local verdict (or, unsure without an LLM, the fallback as
   * configured). When the local router is unsure and an LLM is configured, the decision has
   * `needsLlm: true` and the local mode; {@link decide} then asks the LLM.
   */
  classify(question: string): ContextDecision {
    if (!this.config.enabled) return this.#disabled();
    const local = this.#local.route(question);
    const verdict = localVerdict(local);
    const decision = this.#hybrid.decideLocally(question, verdict);
    if (decision !== undefined) return this.#toDecision(decision, local, false);
    return this.#toDecision(this.#hybrid.pending(verdict), local, true);
  }

  /** {@link route} with the phrases behind each signal and the intermediate scores. */
  explain(question: string): ExplainedContextRoute {
    return this.#local.explain(question);
  }

  /** The policy of a mode of the table. Throws a RangeError for an unknown mode. */
  policy(mode: string): ContextPolicy {
    return this.#local.policy(mode);
  }

  /**
   * Decides the mode of a question: locally when sure, else through the LLM (under its timeout
   * and the caller's `deadlineMs`) or the fallback. Never rejects because of the LLM (its
   * failures fall back); rejects only when `signal` aborts.
   */
  async decide(question: string, options: DecideOptions = {}): Promise<ContextDecision> {
    if (!this.config.enabled) return this.#disabled();
    const local = this.#local.route(question);
    const decision = await this.#hybrid.decideFrom(question, localVerdict(local), options);
    return this.#toDecision(decision, local, false);
  }

  /**
   * The decision, when it needs no LLM call (the local router is sure, no LLM is configured, or
   * the router is disabled): synchronous, for a server's common path. `undefined` when the LLM
   * must be asked; then `await decide(question)`.
   *
   * @deprecated Use {@link classify}, whose `needsLlm` says when {@link decide} would ask the LLM.
   */
  decideLocally(question: string): ContextDecision | undefined {
    const decision = this.classify(question);
    return decision.needsLlm ? undefined : decision;
  }

  #disabled(): ContextDecision {
    const forced = this.#hybrid.forced(this.config.disabledMode, 'router disabled');
    return this.#toDecision(forced, null, false);
  }

  #toDecision(
    decision: HybridDecision<string>,
    local: ContextRoute | null,
    needsLlm: boolean,
  ): ContextDecision {
    return {
      mode: decision.value,
      policy: this.policy(decision.value),
      source: decision.source,
      confidence: decision.confidence,
      localConfidence: decision.localConfidence,
      llmConfidence: decision.llmConfidence,
      llmMs: decision.llmMs,
      cached: decision.cached,
      reason: decision.reason,
      fallbackCause: decision.fallbackCause,
      local,
      needsLlm,
    };
  }
}

/** The configuration, provider and cache of either way of building a router. */
function settingsOf(options: ContextRouterSettings | ContextRouterOptions): {
  readonly config: ContextRouterConfigInput | ContextRouterConfig;
  readonly provider: LlmProvider | undefined;
  readonly cache: DecisionCache<string> | undefined;
} {
  if ('config' in options) {
    const legacy = options as ContextRouterOptions;
    return { config: legacy.config ?? {}, provider: legacy.llm, cache: legacy.cache };
  }
  const { llm, cache, ...config } = options as ContextRouterSettings;
  const split = splitLlmSetting<ContextLlmSettings>(llm);
  return {
    config: split.settings === undefined ? config : { ...config, llm: split.settings },
    provider: split.provider,
    cache,
  };
}

/**
 * Builds a {@link ContextRouter} from one configuration object with `llm` and `cache`:
 *
 * ```ts
 * const router = createContextRouter({ llm: provider });
 * router.classify(question);                        // synchronous, local
 * await router.decide(question, { deadlineMs: 300 }); // the LLM when unsure
 * ```
 *
 * The `{ config, llm, cache }` form is deprecated but still read.
 */
export function createContextRouter(
  options: ContextRouterSettings | ContextRouterOptions = {},
): ContextRouter {
  return new ContextRouter(options);
}

/**
 * The original design's fallback reason, whatever the cause: `fallback:low_conf(local=0.41,llm=0.55)`,
 * the LLM's confidence being 0.00 when it gave none (no LLM, a timeout, an error, an invalid
 * answer, the caller's deadline), as the design's router writes it. After an error or an
 * invalid answer, the error follows (`…,llm=0.00): LlmHttpError: …`), so that the reason still
 * says what went wrong; the cause itself is in the decision's `fallbackCause`.
 */
export function fallbackReason(context: FallbackContext<string, string>): string {
  const local = context.local.confidence.toFixed(2);
  const llm = (context.llm?.confidence ?? 0).toFixed(2);
  const reason = `fallback:low_conf(local=${local},llm=${llm})`;
  const failed = context.cause === 'llm_error' || context.cause === 'llm_invalid';
  return failed && context.error ? `${reason}: ${context.error}` : reason;
}

/** The cache key text of a question: folded, white space collapsed, cut like the question. */
function cacheText(question: string, maxChars: number): string {
  return foldString(question.slice(0, maxChars)).replace(/\s+/g, ' ').trim();
}
