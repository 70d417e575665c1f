import { clampConfidence } from '../core/certainty.js';
import { lruDecisionCache } from '../core/decision-cache.js';
import {
  type DecideOptions,
  type DecisionCache,
  type DecisionSource,
  FALLBACK_CAUSE_TEXT,
  type FallbackCause,
  Hybrid,
  type HybridDecision,
  type HybridStats,
  type LocalVerdict,
} from '../core/hybrid.js';
import { type LlmSetting, splitLlmSetting } from '../llm/setting.js';
import type { LlmProvider } from '../llm/types.js';
import type { TierDecision } from './decision.js';
import { type ExtractedPrompt, extractPrompt, requestSize, type TierRequest } from './extract.js';
import { compileForcedModels } from './forced.js';
import { tierCacheKey, tierLlmDecider } from './llm.js';
import { type TierOptions, type TierOptionsInput, tierOptions } from './options.js';
import { type TierScore, TierScorer } from './scorer.js';
import { AmbiguityLines, ambiguityLine, fixed2 } from './signals.js';
import { maxTier, TIERS, type Tier, tierRank } from './tiers.js';

/** The settings of the tier router's LLM check (the `llm` section of its options). */
export type TierLlmSettings = NonNullable<TierOptionsInput['llm']>;

/**
 * How a tier router is built, in the shape every subsystem shares: its options, `llm` (the cheap
 * model asked when the scorer is unsure: a provider, or the LLM check's settings with the
 * provider in `provider`) and `cache` (a decision cache shared with others, e.g. a Redis store).
 */
export interface TierRouterConfig extends Omit<TierOptionsInput, 'llm'> {
  /**
   * The LLM check: a provider (`{ llm: provider }`), or its settings with the provider
   * (`{ llm: { provider, timeoutMs: 300 } }`). Without a provider the check is off and an unsure
   * verdict goes to the fallback tier (or stays local: `llm.whenOff`).
   */
  readonly llm?: LlmSetting<TierLlmSettings>;
  /** A cache of LLM verdicts; by default an in-memory LRU sized by `llm.cacheSize`. */
  readonly cache?: DecisionCache<Tier>;
}

/**
 * What the router needs besides its options, in the two-argument form.
 *
 * @deprecated Pass `llm` and `cache` in the one configuration object:
 * `createTierRouter({ ...options, llm: provider, cache })`.
 */
export interface TierRouterDependencies {
  /** The cheap model asked when the scorer is unsure. */
  readonly classifier?: LlmProvider;
  /** A shared cache of LLM verdicts. */
  readonly cache?: DecisionCache<Tier>;
}

/**
 * The tier router: forced tiers from model ids, prompt extraction, the 15-dimension scorer, the
 * LLM check near a boundary, the fallback, and the fallback chain, behind two calls:
 *
 * - `classify(request)`: synchronous, never does I/O. Enough for every request when no LLM check
 *   is configured, and for every confident one when it is (`needsLlm` says when it is not).
 * - `decide(request, { signal, deadlineMs })`: asynchronous; runs the LLM check when the scorer
 *   is unsure.
 *
 * Decisions are plain data. Prompt text is never logged, stored in a decision or put in an error
 * message.
 */
export class TierRouter {
  readonly options: TierOptions;
  readonly scorer: TierScorer;
  readonly #hybrid: Hybrid<ExtractedPrompt, Tier>;
  readonly #forced: (model: string | undefined) => Tier | undefined;
  readonly #llmEnabled: boolean;
  /** The fallback chain of each tier, by rank. */
  readonly #chains: readonly (readonly Tier[])[];
  /**
   * The rank of the tier of an unsure verdict no LLM checked, by the scorer's rank (see
   * `#fallbackTier`).
   */
  readonly #fallbackRanks: readonly number[];
  /** The prompt of the last `#score` call. */
  #prompt: ExtractedPrompt = {
    text: '',
    images: 0,
    context: [],
    hasSystemPrompt: false,
    steps: [],
  };

  /**
   * Builds a router from one configuration object (see {@link TierRouterConfig}). The second
   * argument is the deprecated two-argument form (`{ classifier, cache }`).
   */
  constructor(config: TierRouterConfig = {}, dependencies: TierRouterDependencies = {}) {
    const { llm: llmSetting, cache: sharedCache, ...rest } = config;
    const split = splitLlmSetting<TierLlmSettings>(llmSetting);
    this.options = tierOptions(
      split.settings === undefined ? (rest as TierOptionsInput) : { ...rest, llm: split.settings },
    );
    this.scorer = new TierScorer(this.options);
    this.#forced = compileForcedModels(this.options.forcedModels);
    this.#chains = TIERS.map((tier) => this.options.fallbackChain[tier]);
    const { fallbackTier, neverDemote } = this.options.llm;
    this.#fallbackRanks = TIERS.map((tier) =>
      tierRank(neverDemote ? maxTier(fallbackTier, tier) : fallbackTier),
    );
    const llm = this.options.llm;
    const classifier = dependencies.classifier ?? split.provider;
    this.#llmEnabled = classifier !== undefined;
    const cache =
      dependencies.cache ??
      sharedCache ??
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
        const reason = `fallback to ${tier}: ambiguous local verdict ${local.value} (confidence ${fixed2(local.confidence)}), LLM check ${FALLBACK_CAUSE_TEXT[cause]}`;
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

  /** The fallback chain of a tier (the original design's table by default). */
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
    // from prepared reasons: this is the path of every request without an LLM.
    const source = this.#hybrid.settleLocally(score.confidence);
    const confidence = clampConfidence(score.confidence);
    // Ranks, not tier names, from here on: one lookup each, where a name costs a `tierRank`.
    const localRank = score.rank;
    let rank = localRank;
    let reason: string;
    let cause: FallbackCause | null = null;
    let last: string | undefined;
    if (source === 'fallback') {
      rank = this.#fallbackRanks[localRank]!;
      cause = 'no_llm';
      reason = NO_LLM_REASONS[rank]![localRank]!;
      last = FALLBACK_LINES[rank]!.line(confidence);
    } else if (source === undefined) {
      reason = PENDING_REASONS[localRank]!;
      last = PENDING_LINES.line(confidence);
    } else if (score.ambiguous) {
      reason = KEPT_REASONS[localRank]!;
      last = KEPT_LINES.line(confidence);
    } else {
      reason = verdictReason(score, localRank);
    }
    return this.#build(
      rank,
      source ?? 'local',
      confidence,
      confidence,
      score,
      this.scorer.closeSignals(score, last),
      prompt,
      source === undefined,
      null,
      0,
      reason,
      cause,
    );
  }

  /**
   * The tier of an unsure verdict that no LLM checked: `llm.fallbackTier`, or with `neverDemote`
   * the scorer's own tier when that is higher.
   */
  #fallbackTier(local: Tier): Tier {
    return TIER_LIST[this.#fallbackRanks[tierRank(local)]!]!;
  }

  /**
   * Decides, running the LLM check under its timeout (and the caller's `deadlineMs`) when the
   * scorer is unsure. Rejects only when `signal` aborts or the request is malformed; a failing
   * LLM gives the fallback tier.
   */
  decide(request: TierRequest | string, options?: DecideOptions): Promise<TierDecision>;
  /** @deprecated Pass the signal in the options: `decide(request, { signal })`. */
  decide(request: TierRequest | string, signal: AbortSignal): Promise<TierDecision>;
  async decide(
    request: TierRequest | string,
    options?: DecideOptions | AbortSignal,
  ): Promise<TierDecision> {
    const forced = this.#forcedDecision(request);
    if (forced) return forced;
    const score = this.#score(request);
    const prompt = this.#prompt;
    // Taken before the await: the scorer's buffer is the next request's once this one waits.
    const signals = this.scorer.closeSignals(score);
    const decided = await this.#hybrid.decideFrom(prompt, toVerdict(score), options);
    return this.#decision(decided, score, signals, prompt);
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
      if (!isText) extract(request, NO_EXTRACTION); // still rejects a malformed request
      this.#prompt =
        images === 0
          ? UNREAD
          : { text: '', images, context: [], hasSystemPrompt: false, steps: [] };
      return bySize;
    }
    const prompt = extract(request, this.options.extraction);
    this.#prompt = prompt;
    return this.scorer.scoreOpen(prompt.text, prompt);
  }

  #forcedDecision(request: TierRequest | string): TierDecision | undefined {
    if (typeof request === 'string') return undefined;
    const model = request?.model;
    const tier = this.#forced(model);
    if (tier === undefined) return undefined;
    const decided = this.#hybrid.forced(tier, `model id ${model} forces ${tier}`);
    return {
      tier,
      source: decided.source,
      forced: true,
      confidence: decided.confidence,
      score: null,
      localTier: null,
      localConfidence: null,
      llmConfidence: null,
      needsLlm: false,
      signals: [`forced (model ${model})`],
      reason: decided.reason,
      fallbackCause: null,
      override: null,
      tokens: 0,
      images: 0,
      extraction: NONE,
      llmMs: 0,
      cached: false,
      fallbackChain: this.fallbackChain(tier),
    };
  }

  #decision(
    decided: HybridDecision<Tier>,
    score: TierScore,
    signals: string[],
    prompt: ExtractedPrompt,
  ): TierDecision {
    const confidence = clampConfidence(score.confidence);
    const rank = tierRank(decided.value);
    const localRank = score.rank;
    let reason = decided.reason;
    if (decided.source === 'llm' || decided.source === 'cached') {
      const how = decided.cached ? ' (cached)' : ` in ${Math.round(decided.llmMs)} ms`;
      signals.push(ambiguityLine(confidence, `LLM ${decided.value}${how}`));
    } else if (decided.source === 'fallback') {
      signals.push(FALLBACK_LINES[rank]!.line(confidence));
      if (decided.fallbackCause === 'no_llm') reason = NO_LLM_REASONS[rank]![localRank]!;
    } else if (score.ambiguous) {
      signals.push(KEPT_LINES.line(confidence));
      reason = KEPT_REASONS[localRank]!;
    } else {
      reason = verdictReason(score, localRank);
    }
    return this.#build(
      rank,
      decided.source,
      decided.confidence,
      confidence,
      score,
      signals,
      prompt,
      false,
      decided.llmConfidence,
      decided.llmMs,
      reason,
      decided.fallbackCause,
    );
  }

  /**
   * A decision on a score, as one object literal of a fixed shape (absent values `null`): the
   * hidden class V8 gives every tier decision, built in tens of nanoseconds. `rank` is the
   * decided tier's; `localConfidence` the score's, clamped.
   */
  #build(
    rank: number,
    source: DecisionSource,
    confidence: number,
    localConfidence: number,
    score: TierScore,
    signals: readonly string[],
    prompt: ExtractedPrompt,
    needsLlm: boolean,
    llmConfidence: number | null,
    llmMs: number,
    reason: string,
    fallbackCause: FallbackCause | null,
  ): TierDecision {
    return {
      tier: TIER_LIST[rank]!,
      source,
      forced: false,
      confidence,
      score: score.score ?? null,
      localTier: score.tier,
      localConfidence,
      llmConfidence,
      needsLlm,
      signals,
      reason,
      fallbackCause,
      override: score.override ?? null,
      tokens: score.tokens,
      images: prompt.images,
      extraction: prompt.steps,
      llmMs,
      cached: source === 'cached',
      fallbackChain: this.#chains[rank]!,
    };
  }
}

/**
 * Builds a tier router from one configuration object: its options, `llm` and `cache` (see
 * {@link TierRouterConfig}).
 *
 * ```ts
 * const router = createTierRouter({ llm: provider });
 * router.classify(request);                         // synchronous, local
 * await router.decide(request, { signal, deadlineMs: 300 }); // the LLM when unsure
 * ```
 */
export function createTierRouter(config?: TierRouterConfig): TierRouter;
/**
 * @deprecated The two-argument form: pass `llm` and `cache` in the configuration object,
 * `createTierRouter({ ...options, llm: classifier, cache })`.
 */
export function createTierRouter(
  options: TierOptionsInput | undefined,
  dependencies: TierRouterDependencies,
): TierRouter;
export function createTierRouter(
  config?: TierRouterConfig,
  dependencies?: TierRouterDependencies,
): TierRouter {
  return new TierRouter(config, dependencies);
}

// Module-local copies of imported bindings used on every call (see scorer.ts).
const TIER_LIST: readonly Tier[] = TIERS;
const extract: typeof extractPrompt = extractPrompt;
const sizeOf: typeof requestSize = requestSize;

/**
 * How an ambiguous verdict ended, the end of its last signal (`ambiguous (conf=0.62) → …`): the
 * fallback's tier, by rank, the verdict kept, or the LLM check still to come.
 */
const FALLBACK_LINES = TIERS.map((tier) => new AmbiguityLines(`fallback ${tier}`));
const KEPT_LINES = new AmbiguityLines('kept (LLM check off)');
const PENDING_LINES = new AmbiguityLines('needs LLM classification');

/*
 * The reasons of the local paths, written once by tier (and fallback tier): a decision's reason
 * is plain text written with the decision, and formatting numbers into it on every request would
 * cost more than scoring a short prompt. The numbers are in the decision's own fields.
 */
/** By fallback rank, then local rank. */
const NO_LLM_REASONS = TIERS.map((to) =>
  TIERS.map(
    (from) => `fallback to ${to}: ambiguous local verdict ${from}, no LLM check configured`,
  ),
);
const PENDING_REASONS = TIERS.map((tier) => `ambiguous local verdict ${tier}; LLM check pending`);
const KEPT_REASONS = TIERS.map(
  (tier) => `ambiguous local verdict ${tier} kept (no LLM check configured)`,
);
const SCORED_REASONS = TIERS.map((tier) => `scored → ${tier}`);

/** The reason of a confident local verdict (of the score's tier, `rank`). */
function verdictReason(score: TierScore, rank: number): string {
  const tier = SCORED_REASONS[rank]!;
  return score.override ? `${tier} (override: ${score.override})` : tier;
}

/** The empty list of a decision without extraction steps: no allocation per call. */
const NONE: readonly never[] = Object.freeze([]);

/** Extraction options that do no text search (validation of the request only). */
const NO_EXTRACTION: TierOptions['extraction'] = {
  currentMessageMarkers: [],
  stripEmbeddedSystemPrompt: false,
  trailingMessage: 'off',
  minChars: 1,
  maxTailChars: 1,
  personaOpeners: [],
  signOffs: [],
  backReferences: [],
};

/** The prompt of a request decided by its size, not read (a shared object: nothing writes it). */
const UNREAD: ExtractedPrompt = Object.freeze({
  text: '',
  images: 0,
  context: Object.freeze([]),
  hasSystemPrompt: false,
  steps: Object.freeze([]),
});

/** The scorer's verdict for the hybrid. */
function toVerdict(score: TierScore): LocalVerdict<Tier> {
  const reason = verdictReason(score, score.rank);
  return { value: score.tier, confidence: score.confidence, reason };
}
