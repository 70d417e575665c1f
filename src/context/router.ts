import { lruDecisionCache } from '../core/decision-cache.js';
import {
  type DecisionCache,
  type DecisionSource,
  type FallbackContext,
  Hybrid,
  type HybridDecision,
  type HybridStats,
} from '../core/hybrid.js';
import type { LlmProvider } from '../llm/types.js';
import { foldString } from '../text/chars.js';
import { contextLlmDecider } from './llm-router.js';
import {
  type ContextRoute,
  type ExplainedContextRoute,
  LocalContextRouter,
  localVerdict,
} from './local-router.js';
import type { ContextPolicy, ContextRouterConfig, ContextRouterConfigInput } from './schema.js';

/** How a {@link ContextRouter} is built. */
export interface ContextRouterOptions {
  /** The configuration: partial (completed with the defaults) or from `contextRouterConfig`. */
  readonly config?: ContextRouterConfigInput | ContextRouterConfig;
  /** The LLM asked when the local router is unsure; without one the LLM check is off. */
  readonly llm?: LlmProvider;
  /** A cache of LLM verdicts, replacing the in-memory LRU that `llm.cacheSize` configures. */
  readonly cache?: DecisionCache<string>;
}

/** A routing decision: the mode, its policy, and where the decision came from. */
export interface ContextDecision {
  readonly mode: string;
  /** What to send with the question, and how to shape the answer. */
  readonly policy: ContextPolicy;
  /** `local`, `llm`, `fallback`, or `forced` (the router is disabled). */
  readonly source: DecisionSource;
  readonly confidence: number;
  /** Why, e.g. `local: definition+concision (…)` or `fallback:low_conf(local=0.41,llm=0.55)`. */
  readonly reason: string;
  /** The local router's view (absent when the router is disabled). */
  readonly local?: ContextRoute;
  /** The LLM's confidence, when it answered. */
  readonly llmConfidence?: number;
  /** Milliseconds spent waiting for the LLM (0 when it was not asked). */
  readonly llmMs: number;
  /** True when the LLM verdict came from the cache. */
  readonly cached?: boolean;
}

/**
 * Document 004's query router: decides how much context a question needs.
 *
 * The local router decides when its confidence reaches `localConfidenceThreshold` (0.75) and its
 * margin `localMarginThreshold` (0.20). Otherwise the LLM, when one is given, is asked under
 * `llm.timeoutMs` (350 ms) and its verdict is used when its own confidence reaches
 * `llm.confidenceThreshold` (0.70). When the LLM fails, times out or is unsure, the fallback mode
 * (standalone definition, confidence 0.5) is used, with a reason recording both confidences.
 * Without an LLM, an unsure local verdict is kept (`whenUnsureWithoutLlm: 'local'`) or replaced by
 * the fallback (`'fallback'`). A disabled router gives every question `disabledMode`.
 */
export class ContextRouter {
  readonly config: ContextRouterConfig;
  readonly #local: LocalContextRouter;
  readonly #hybrid: Hybrid<string, string>;
  readonly #llmEnabled: boolean;

  constructor(options: ContextRouterOptions = {}) {
    this.#local = new LocalContextRouter(options.config ?? {});
    const config = this.#local.config;
    this.config = config;
    const { llm: provider } = options;
    this.#llmEnabled = provider !== undefined;
    const cache =
      options.cache ??
      (config.llm.cacheSize > 0
        ? lruDecisionCache<string>({ max: config.llm.cacheSize, ttlMs: config.llm.cacheTtlMs })
        : undefined);
    this.#hybrid = new Hybrid<string, string>({
      name: 'context',
      local: (question) => localVerdict(this.#local.route(question)),
      minConfidence: config.localConfidenceThreshold,
      minMargin: config.localMarginThreshold,
      timeoutMs: config.llm.timeoutMs,
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
            llm: contextLlmDecider(provider, config),
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

  /** The local router's answer alone (synchronous, no LLM): what `decide` starts from. */
  route(question: string): ContextRoute {
    return this.#local.route(question);
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
   * Decides the mode of a question: locally when sure, else through the LLM or the fallback.
   * Never rejects because of the LLM (its failures fall back); rejects only when `signal` aborts.
   */
  async decide(question: string, options: { signal?: AbortSignal } = {}): Promise<ContextDecision> {
    if (!this.config.enabled) return this.#disabled();
    const local = this.#local.route(question);
    const decision = await this.#hybrid.decideFrom(question, localVerdict(local), options.signal);
    return this.#toDecision(decision, local);
  }

  /**
   * The decision, when it needs no LLM call (the local router is sure, no LLM is configured, or
   * the router is disabled): synchronous, for a server's common path. `undefined` when the LLM
   * must be asked; then `await decide(question)`.
   */
  decideLocally(question: string): ContextDecision | undefined {
    if (!this.config.enabled) return this.#disabled();
    const local = this.#local.route(question);
    const decision = this.#hybrid.decideLocally(question, localVerdict(local));
    return decision === undefined ? undefined : this.#toDecision(decision, local);
  }

  #disabled(): ContextDecision {
    const forced = this.#hybrid.forced(this.config.disabledMode, 'router disabled');
    return {
      mode: forced.value,
      policy: this.policy(forced.value),
      source: forced.source,
      confidence: forced.confidence,
      reason: forced.reason,
      llmMs: 0,
    };
  }

  #toDecision(decision: HybridDecision<string>, local: ContextRoute): ContextDecision {
    return {
      mode: decision.value,
      policy: this.policy(decision.value),
      source: decision.source,
      confidence: decision.confidence,
      reason: decision.reason,
      local,
      ...(decision.llmConfidence === undefined ? {} : { llmConfidence: decision.llmConfidence }),
      llmMs: decision.llmMs,
      ...(decision.cached ? { cached: true } : {}),
    };
  }
}

/** Builds a {@link ContextRouter}. */
export function createContextRouter(options: ContextRouterOptions = {}): ContextRouter {
  return new ContextRouter(options);
}

/**
 * Document 004's fallback reason, `fallback:low_conf(local=0.41,llm=0.55)` when the LLM was unsure;
 * `fallback:llm_timeout(local=…)`, `fallback:llm_error(local=…): <error>` or
 * `fallback:no_llm(local=…)` otherwise.
 */
export function fallbackReason(context: FallbackContext<string, string>): string {
  const local = `local=${context.local.confidence.toFixed(2)}`;
  switch (context.cause) {
    case 'unsure':
      return `fallback:low_conf(${local},llm=${(context.llm?.confidence ?? 0).toFixed(2)})`;
    case 'timeout':
      return `fallback:llm_timeout(${local})`;
    case 'error':
      return `fallback:llm_error(${local})${context.error ? `: ${context.error}` : ''}`;
    case 'no_llm':
      return `fallback:no_llm(${local})`;
  }
}

/** The cache key text of a question: folded, white space collapsed, cut like the question. */
function cacheText(question: string, maxChars: number): string {
  return foldString(question.slice(0, maxChars)).replace(/\s+/g, ' ').trim();
}
