import { clampConfidence } from '../core/certainty.js';
import { lruDecisionCache } from '../core/decision-cache.js';
import {
  type DecisionCache,
  Hybrid,
  type HybridDecision,
  type HybridStats,
  type LocalVerdict,
} from '../core/hybrid.js';
import type { LlmProvider } from '../llm/types.js';
import {
  FALLBACK_REASON,
  KEPT_REASON,
  LazyDecision,
  type TierDecision,
  VERDICT_REASON,
} from './decision.js';
import { type ExtractedPrompt, extractPrompt, requestSize, type TierRequest } from './extract.js';
import { compileForcedModels } from './forced.js';
import { tierCacheKey, tierLlmDecider } from './llm.js';
import { type TierOptions, type TierOptionsInput, tierOptions } from './options.js';
import { type TierScore, TierScorer } from './scorer.js';
import { maxTier, TIERS, type Tier, tierRank } from './tiers.js';

/** What the router needs besides its options. */
export interface TierRouterDependencies {
  /**
   * The cheap model asked when the scorer is unsure. Without one the LLM check is off, and an
   * unsure verdict goes to the fallback tier (or stays local: `llm.whenOff`).
   */
  readonly classifier?: LlmProvider;
  /** A shared cache of LLM verdicts; by default an in-memory LRU sized by `llm.cacheSize`. */
  readonly cache?: DecisionCache<Tier>;
}

/**
 * The tier router: forced tiers from model ids, prompt extraction, the 15-dimension scorer, the
 * LLM check near a boundary, the fallback, and the fallback chain, behind two calls:
 *
 * - `classify(request)`: synchronous, never does I/O. Enough for every request when no LLM check
 *   is configured, and for every confident one when it is (`needsLlm` says when it is not).
 * - `decide(request, signal?)`: asynchronous; runs the LLM check when the scorer is unsure.
 *
 * Prompt text is never logged, stored in a decision or put in an error message.
 */
export class TierRouter {
  readonly options: TierOptions;
  readonly scorer: TierScorer;
  readonly #hybrid: Hybrid<ExtractedPrompt, Tier>;
  readonly #forced: (model: string | undefined) => Tier | undefined;
  readonly #llmEnabled: boolean;
  /** The fallback chain of each tier, by rank. */
  readonly #chains: readonly (readonly Tier[])[];
  /** The prompt of the last `#score` call. */
  #prompt: ExtractedPrompt = {
    text: '',
    images: 0,
    context: [],
    hasSystemPrompt: false,
    steps: [],
  };

  constructor(options: TierOptionsInput = {}, dependencies: TierRouterDependencies = {}) {
    this.options = tierOptions(options);
    this.scorer = new TierScorer(this.options);
    this.#forced = compileForcedModels(this.options.forcedModels);
    this.#chains = TIERS.map((tier) => this.options.fallbackChain[tier]);
    const llm = this.options.llm;
    const classifier = dependencies.classifier;
    this.#llmEnabled = classifier !== undefined;
    const cache =
      dependencies.cache ??
      (llm.cacheSize > 0
        ? lruDecisionCache<Tier>({ max: llm.cacheSize, ttlMs: llm.cacheTtlMs })
        : undefined);
    this.#hybrid = new Hybrid<ExtractedPrompt, Tier>({
      name: 'tier',
      local: (input) => toVerdict(this.scorer.score(input.text, input)),
      // A two-way split is decided by its threshold: no verdict is unsure.
      minConfidence: this.options.split ? 0 : this.options.confidence.llmBelow,
      timeoutMs: llm.timeoutMs,
      withoutLlm: llm.whenOff,
      fallback: ({ local, cause }) => {
        const tier = this.#fallbackTier(local.value);
        // Without an LLM (no I/O: the hot path), the reason is written on first access.
        const reason =
          cause === 'no_llm'
            ? FALLBACK_REASON
            : `fallback to ${tier}: ambiguous local verdict ${local.value} (confidence ${local.confidence.toFixed(2)}), LLM check ${cause}`;
        return { value: tier, confidence: local.confidence, reason };
      },
      ...(classifier
        ? {
            llm: tierLlmDecider(classifier, llm),
            ...(cache ? { cache, cacheKey: tierCacheKey(classifier, llm) } : {}),
          }
        : {}),
    });
  }

  /** Whether an LLM check is configured. */
  get llmEnabled(): boolean {
    return this.#llmEnabled;
  }

  /** Counters since creation: decisions, forced, LLM calls, overrides, timeouts, time spent, … */
  get stats(): HybridStats {
    return this.#hybrid.stats;
  }

  /** The tier a model id forces (`triage/simple` → SIMPLE), if any. */
  forcedTier(model: string | undefined): Tier | undefined {
    return this.#forced(model);
  }

  /** The fallback chain of a tier (document 000's table by default). */
  fallbackChain(tier: Tier): readonly Tier[] {
    return this.#chains[tierRank(tier)]!;
  }

  /**
   * Decides without I/O. When the scorer is unsure and an LLM check is configured, the decision
   * has `needsLlm: true` and the scorer's tier; {@link decide} then gives the checked one.
   * Throws `TierRequestError` for a malformed request.
   */
  classify(request: TierRequest | string): TierDecision {
    const forced = this.#forcedDecision(request);
    if (forced) return forced;
    const score = this.#score(request);
    const prompt = this.#prompt;
    // The hybrid counts the decision and says where it comes from; the decision is built here,
    // its reason written on first access: this is the path of every request without an LLM.
    const source = this.#hybrid.settleLocally(score.confidence);
    const confidence = clampConfidence(score.confidence);
    let tier = score.tier;
    let outcome: string | undefined;
    let reason = VERDICT_REASON;
    if (source === 'fallback') {
      tier = this.#fallbackTier(tier);
      outcome = FALLBACK_OUTCOMES[tierRank(tier)];
      reason = FALLBACK_REASON;
    } else if (source === 'local' && score.ambiguous) {
      outcome = KEPT_OUTCOME;
      reason = KEPT_REASON;
    } else if (source === undefined) {
      outcome = 'needs LLM classification';
      reason = '';
    }
    return new LazyDecision(
      tier,
      source ?? 'local',
      confidence,
      score,
      prompt,
      source === undefined,
      0,
      undefined,
      this.fallbackChain(tier),
      outcome,
      reason,
      undefined,
    );
  }

  /**
   * The tier of an unsure verdict that no LLM checked: `llm.fallbackTier`, or with `neverDemote`
   * the scorer's own tier when that is higher.
   */
  #fallbackTier(local: Tier): Tier {
    const llm = this.options.llm;
    return llm.neverDemote ? maxTier(llm.fallbackTier, local) : llm.fallbackTier;
  }

  /**
   * Decides, running the LLM check under its timeout when the scorer is unsure. Rejects only
   * when `signal` aborts or the request is malformed; a failing LLM gives the fallback tier.
   */
  async decide(request: TierRequest | string, signal?: AbortSignal): Promise<TierDecision> {
    const forced = this.#forcedDecision(request);
    if (forced) return forced;
    const score = this.#score(request);
    const prompt = this.#prompt;
    const decided = await this.#hybrid.decideFrom(prompt, toVerdict(score), signal);
    return this.#decision(decided, score, prompt);
  }

  /**
   * Extracts and scores; the extracted prompt is left in `#prompt` (read right after the call,
   * before any await: a second result without an object to carry both). A request provably over
   * the huge-context limit is decided by its size (extraction only moves text between scored and
   * unscored, so it cannot change the total).
   */
  #score(request: TierRequest | string): TierScore {
    const isText = typeof request === 'string';
    const size = isText ? undefined : sizeOf(request);
    const images = size?.images ?? 0;
    const bySize = this.scorer.scoreBySize(isText ? request.length : size!.chars, images);
    if (bySize) {
      extract(request, NO_EXTRACTION); // still rejects a malformed request
      this.#prompt = { text: '', images, context: [], hasSystemPrompt: false, steps: [] };
      return bySize;
    }
    const prompt = extract(request, this.options.extraction);
    this.#prompt = prompt;
    return this.scorer.score(prompt.text, prompt);
  }

  #forcedDecision(request: TierRequest | string): TierDecision | undefined {
    if (typeof request === 'string') return undefined;
    const model = request?.model;
    const tier = this.#forced(model);
    if (tier === undefined) return undefined;
    // The reason (`model id … forces …`) is written on first access.
    const decided = this.#hybrid.forced(tier, '');
    return new LazyDecision(
      tier,
      decided.source,
      decided.confidence,
      undefined,
      undefined,
      false,
      0,
      undefined,
      this.fallbackChain(tier),
      undefined,
      '',
      model,
    );
  }

  #decision(
    decided: HybridDecision<Tier>,
    score: TierScore,
    prompt: ExtractedPrompt,
  ): TierDecision {
    let outcome: string | undefined;
    if (decided.source === 'llm') {
      const how = decided.cached ? ' (cached)' : ` in ${Math.round(decided.llmMs)} ms`;
      outcome = `LLM ${decided.value}${how}`;
    } else if (decided.source === 'fallback') {
      outcome = FALLBACK_OUTCOMES[tierRank(decided.value)];
    } else if (score.ambiguous) {
      outcome = KEPT_OUTCOME;
    }
    return new LazyDecision(
      decided.value,
      decided.source,
      decided.confidence,
      score,
      prompt,
      false,
      decided.llmMs,
      decided.cached ? true : undefined,
      this.fallbackChain(decided.value),
      outcome,
      decided.reason,
      undefined,
    );
  }
}

/** Builds a tier router (see {@link TierRouter}). */
export function createTierRouter(
  options?: TierOptionsInput,
  dependencies?: TierRouterDependencies,
): TierRouter {
  return new TierRouter(options, dependencies);
}

// Module-local copies of imported functions used on every call (see scorer.ts).
const extract: typeof extractPrompt = extractPrompt;
const sizeOf: typeof requestSize = requestSize;

/**
 * How an ambiguous verdict ended, the end of its last signal (`ambiguous (conf=0.62) → …`): the
 * fallback's tier, by rank (written once: it is on the hot path), or the verdict kept.
 */
const FALLBACK_OUTCOMES = TIERS.map((tier) => `fallback ${tier}`);
const KEPT_OUTCOME = 'kept (LLM check off)';

/** Extraction options that do no text search (validation of the request only). */
const NO_EXTRACTION: TierOptions['extraction'] = {
  currentMessageMarkers: [],
  stripEmbeddedSystemPrompt: false,
  trailingMessage: 'off',
  minChars: 1,
  maxTailChars: 1,
  personaOpeners: [],
};

/** The scorer's verdict for the hybrid; its reason is written on first access (decision.ts). */
function toVerdict(score: TierScore): LocalVerdict<Tier> {
  return { value: score.tier, confidence: score.confidence, reason: VERDICT_REASON };
}
