import { lruDecisionCache } from '../core/decision-cache.js';
import {
  type DecisionCache,
  type DecisionSource,
  Hybrid,
  type HybridDecision,
  type HybridStats,
  type LocalVerdict,
} from '../core/hybrid.js';
import type { LlmProvider } from '../llm/types.js';
import {
  type ExtractedPrompt,
  type ExtractionStep,
  extractPrompt,
  requestSize,
  type TierRequest,
} from './extract.js';
import { compileForcedModels } from './forced.js';
import { tierCacheKey, tierLlmDecider } from './llm.js';
import { type TierOptions, type TierOptionsInput, tierOptions } from './options.js';
import { type TierOverride, type TierScore, TierScorer } from './scorer.js';
import { maxTier, type Tier } from './tiers.js';

/** A tier decision, with everything a routing server, a log line or a user needs to see. */
export interface TierDecision {
  readonly tier: Tier;
  /** `local` (the scorer), `llm` (the LLM check), `fallback` or `forced` (by the model id). */
  readonly source: DecisionSource;
  /** The model id forced the tier; nothing was classified. */
  readonly forced: boolean;
  /** Confidence of `tier` in [0, 1]. */
  readonly confidence: number;
  /** The scorer's weighted sum (absent when forced, or when a huge prompt was not scanned). */
  readonly score?: number;
  /** The scorer's own tier and confidence (absent when forced). */
  readonly localTier?: Tier;
  readonly localConfidence?: number;
  /**
   * From {@link TierRouter.classify} only: the scorer is unsure and an LLM check is configured,
   * so `tier` is provisional; call {@link TierRouter.decide} for the checked decision.
   */
  readonly needsLlm: boolean;
  /** Why, in short phrases: `short (8 tokens)`, `code (function, class)`, … */
  readonly signals: readonly string[];
  /** One sentence: how the decision was reached. */
  readonly reason: string;
  readonly override?: TierOverride;
  /** Estimated tokens of the scored text. */
  readonly tokens: number;
  /** Image parts in the user's message. */
  readonly images: number;
  /** Which extraction cases applied to find the user's text. */
  readonly extraction: readonly ExtractionStep[];
  /** Milliseconds spent waiting for the LLM check (0 when it did not run). */
  readonly llmMs: number;
  /** The LLM verdict came from the cache. */
  readonly cached?: boolean;
  /**
   * The tiers to try, in order, if the provider of `tier` fails (starting with `tier`). A server
   * may move down this chain only before the first byte of a response reached the client
   * (SPEC-NOTES: a streamed response must never be followed by a second one).
   */
  readonly fallbackChain: readonly Tier[];
}

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

  constructor(options: TierOptionsInput = {}, dependencies: TierRouterDependencies = {}) {
    this.options = tierOptions(options);
    this.scorer = new TierScorer(this.options);
    this.#forced = compileForcedModels(this.options.forcedModels);
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
      minConfidence: this.options.confidence.llmBelow,
      timeoutMs: llm.timeoutMs,
      withoutLlm: llm.whenOff,
      fallback: ({ local, cause }) => {
        const tier = llm.neverDemote ? maxTier(llm.fallbackTier, local.value) : llm.fallbackTier;
        const why = cause === 'no_llm' ? 'no LLM check configured' : `LLM check ${cause}`;
        return {
          value: tier,
          confidence: local.confidence,
          reason: `fallback to ${tier}: ambiguous local verdict ${local.value} (confidence ${local.confidence.toFixed(2)}), ${why}`,
        };
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
    return this.options.fallbackChain[tier];
  }

  /**
   * Decides without I/O. When the scorer is unsure and an LLM check is configured, the decision
   * has `needsLlm: true` and the scorer's tier; {@link decide} then gives the checked one.
   * Throws `TierRequestError` for a malformed request.
   */
  classify(request: TierRequest | string): TierDecision {
    const forced = this.#forcedDecision(request);
    if (forced) return forced;
    const { prompt, score } = this.#score(request);
    const decided = this.#hybrid.decideLocally(prompt, toVerdict(score));
    if (decided) return this.#decision(decided, score, prompt);
    const signals = score.signals as string[];
    signals.push(ambiguity(score, 'needs LLM classification'));
    return decision(score.tier, 'local', false, score.confidence, score, prompt, true, {
      signals,
      reason: `ambiguous local verdict ${score.tier} (confidence ${score.confidence.toFixed(2)}); LLM check pending`,
      llmMs: 0,
      cached: undefined,
      fallbackChain: this.fallbackChain(score.tier),
    });
  }

  /**
   * Decides, running the LLM check under its timeout when the scorer is unsure. Rejects only
   * when `signal` aborts or the request is malformed; a failing LLM gives the fallback tier.
   */
  async decide(request: TierRequest | string, signal?: AbortSignal): Promise<TierDecision> {
    const forced = this.#forcedDecision(request);
    if (forced) return forced;
    const { prompt, score } = this.#score(request);
    const decided = await this.#hybrid.decideFrom(prompt, toVerdict(score), signal);
    return this.#decision(decided, score, prompt);
  }

  /**
   * Extracts and scores. A request provably over the huge-context limit is decided by its size
   * (extraction only moves text between scored and unscored, so it cannot change the total).
   */
  #score(request: TierRequest | string): { prompt: ExtractedPrompt; score: TierScore } {
    const size = sizeOf(request);
    const bySize = this.scorer.scoreBySize(size.chars, size.images);
    if (bySize) {
      extract(request, NO_EXTRACTION); // still rejects a malformed request
      return {
        prompt: { text: '', images: size.images, context: [], hasSystemPrompt: false, steps: [] },
        score: bySize,
      };
    }
    const prompt = extract(request, this.options.extraction);
    return { prompt, score: this.scorer.score(prompt.text, prompt) };
  }

  #forcedDecision(request: TierRequest | string): TierDecision | undefined {
    if (typeof request === 'string') return undefined;
    const model = request?.model;
    const tier = this.#forced(model);
    if (tier === undefined) return undefined;
    const decided = this.#hybrid.forced(tier, `model id ${model} forces ${tier}`);
    return decision(tier, decided.source, true, decided.confidence, undefined, undefined, false, {
      signals: [`forced (model ${model})`],
      reason: decided.reason,
      llmMs: 0,
      cached: undefined,
      fallbackChain: this.fallbackChain(tier),
    });
  }

  #decision(
    decided: HybridDecision<Tier>,
    score: TierScore,
    prompt: ExtractedPrompt,
  ): TierDecision {
    const signals = score.signals as string[];
    if (decided.source === 'llm') {
      const how = decided.cached ? ' (cached)' : ` in ${Math.round(decided.llmMs)} ms`;
      signals.push(ambiguity(score, `LLM ${decided.value}${how}`));
    } else if (decided.source === 'fallback') {
      signals.push(ambiguity(score, `fallback ${decided.value}`));
    } else if (score.ambiguous) {
      signals.push(ambiguity(score, 'kept (LLM check off)'));
    }
    return decision(
      decided.value,
      decided.source,
      false,
      decided.confidence,
      score,
      prompt,
      false,
      {
        signals,
        reason: decided.reason,
        llmMs: decided.llmMs,
        cached: decided.cached ? true : undefined,
        fallbackChain: this.fallbackChain(decided.value),
      },
    );
  }
}

/**
 * Builds a decision with every field present (absent ones `undefined`), so that all decisions
 * share one object shape: cheaper to build and to read on the hot path than spreads.
 */
function decision(
  tier: Tier,
  source: DecisionSource,
  forced: boolean,
  confidence: number,
  score: TierScore | undefined,
  prompt: ExtractedPrompt | undefined,
  needsLlm: boolean,
  rest: Pick<TierDecision, 'signals' | 'reason' | 'llmMs' | 'cached' | 'fallbackChain'>,
): TierDecision {
  return {
    tier,
    source,
    forced,
    confidence,
    score: score?.score,
    localTier: score?.tier,
    localConfidence: score?.confidence,
    needsLlm,
    signals: rest.signals,
    reason: rest.reason,
    override: score?.override,
    tokens: score?.tokens ?? 0,
    images: prompt?.images ?? 0,
    extraction: prompt?.steps ?? [],
    llmMs: rest.llmMs,
    cached: rest.cached,
    fallbackChain: rest.fallbackChain,
  };
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

/** Extraction options that do no text search (validation of the request only). */
const NO_EXTRACTION: TierOptions['extraction'] = {
  currentMessageMarkers: [],
  stripEmbeddedSystemPrompt: false,
  trailingMessage: 'off',
  minChars: 1,
  maxTailChars: 1,
  personaOpeners: [],
};

function toVerdict(score: TierScore): LocalVerdict<Tier> {
  return {
    value: score.tier,
    confidence: score.confidence,
    reason: `scored ${score.score?.toFixed(3) ?? 'without scan'} → ${score.tier}${score.override ? ` (override: ${score.override})` : ''}`,
  };
}

function ambiguity(score: TierScore, outcome: string): string {
  return `ambiguous (conf=${score.confidence.toFixed(2)}) → ${outcome}`;
}
