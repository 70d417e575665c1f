import { estimateTextTokens, estimateTokens, type LexiconScan } from '../text/index.js';
import {
  DIMENSIONS,
  type Dimension,
  KEYWORD_DIMENSIONS,
  type KeywordDimension,
} from './keywords/index.js';
import { buildTierLexicon, type TierLexicon } from './lexicon.js';
import type { TierOptions } from './options.js';
import { LazyScore, plural, type SignalSource } from './signals.js';
import { type Tier, tierRank } from './tiers.js';

/**
 * The rule-based tier scorer of document 000: fifteen weighted dimensions summed into a score,
 * tier boundaries, three overrides, a sigmoid confidence, and human-readable signals. Local and
 * synchronous; one lexicon scan of the prompt feeds every dimension.
 */

/** Which override decided the tier, if any. */
export type TierOverride = 'huge-context' | 'reasoning' | 'complexity' | 'vision';

/** What the scorer concluded about one prompt. */
export interface TierScore {
  readonly tier: Tier;
  /** The weighted sum; absent when the huge-context override decided without a scan. */
  readonly score?: number;
  /** In [0.5, 1): sigmoid of the distance to the nearest boundary, raised by overrides. */
  readonly confidence: number;
  /** Below the LLM threshold: the LLM check (or the fallback) should decide. */
  readonly ambiguous: boolean;
  /** Whether any keyword, list or question pattern was found (not only the length). */
  readonly recognized: boolean;
  readonly override?: TierOverride;
  /** Estimated tokens of the scored text. */
  readonly tokens: number;
  /** Human-readable reasons, e.g. `code (function, class)`. */
  readonly signals: readonly string[];
}

/** What the scorer needs besides the text. */
export interface ScoreContext {
  /** Image parts in the scored message. */
  readonly images?: number;
  /**
   * The rest of the request (system prompt, earlier turns, text removed by extraction): not
   * scored, but counted for the huge-context override, since the model has to read it all.
   */
  readonly context?: readonly string[];
}

// Module-local copies of imported bindings used on every call: some loaders (tsx, vitest) turn
// imports into property getters, which would cost a call each time (see text/lexicon.ts).
const DIMENSION_LIST: readonly Dimension[] = DIMENSIONS;
const DIMENSION_COUNT = DIMENSIONS.length;
const estimate: typeof estimateTokens = estimateTokens;
const rankOf: typeof tierRank = tierRank;

// Positions in DIMENSIONS of the dimensions scored by their own rules.
const REASONING = DIMENSIONS.indexOf('reasoningMarkers');
const SIMPLE = DIMENSIONS.indexOf('simpleIndicators');
const MULTI_STEP = DIMENSIONS.indexOf('multiStepPatterns');
const QUESTIONS = DIMENSIONS.indexOf('questionComplexity');

/** Scores prompts. Build once (it compiles the lexicon); `score` is cheap and reentrant-free. */
export class TierScorer {
  readonly options: TierOptions;
  readonly #lexicon: TierLexicon;
  readonly #scan: LexiconScan;
  readonly #dimensionScores = new Float64Array(DIMENSION_COUNT);
  // Per dimension (in DIMENSIONS order): weight, score per unit of keyword weight, category.
  readonly #weights = new Float64Array(DIMENSION_COUNT);
  readonly #units = new Float64Array(DIMENSION_COUNT);
  readonly #categories = new Int32Array(DIMENSION_COUNT).fill(-1);
  readonly #signalSource: SignalSource;

  constructor(options: TierOptions, lexicon: TierLexicon = buildTierLexicon(options)) {
    this.options = options;
    this.#lexicon = lexicon;
    this.#scan = lexicon.lexicon.scan('');
    this.#signalSource = {
      options,
      lexicon: lexicon.lexicon,
      dimensions: KEYWORD_DIMENSIONS.map((name: KeywordDimension) => ({
        name,
        category: lexicon.index[name],
      })),
    };
    DIMENSIONS.forEach((name, d) => {
      this.#weights[d] = options.dimensions[name].weight;
    });
    for (const name of KEYWORD_DIMENSIONS) {
      const d = DIMENSIONS.indexOf(name);
      this.#units[d] = options.dimensions[name].unit;
      this.#categories[d] = lexicon.index[name];
    }
  }

  /** The per-dimension scores (in [-1, 1], before weighting) of the last call to `score`. */
  lastDimensionScores(): Record<Dimension, number> {
    return Object.fromEntries(
      DIMENSION_LIST.map((name, i) => [name, this.#dimensionScores[i]!]),
    ) as Record<Dimension, number>;
  }

  /**
   * Scores `text`, the user's own words (see `extractPrompt`). The result's `signals` are written
   * on first access.
   */
  score(text: string, context?: ScoreContext): TierScore {
    const options = this.options;
    const images = context?.images ?? 0;
    const huge = options.overrides.hugeContext;
    const contextChars = sumLengths(context?.context);
    if (huge.enabled && huge.skipScan) {
      // Every UTF-16 unit is at least a quarter token (see estimateTokens): a proven lower bound.
      const atLeast = Math.ceil(text.length / 4) + Math.ceil(contextChars / 4);
      if (atLeast > huge.minTokens) return this.#hugeWithoutScan(atLeast, images);
    }

    const { lexicon, index } = this.#lexicon;
    const scan = lexicon.scan(text, this.#scan);
    const stats = scan.stats;
    const tokens = estimate(stats);
    const dims = options.dimensions;
    const s = this.#dimensionScores;
    const weights = this.#weights;
    const units = this.#units;
    const categories = this.#categories;

    const { short, long } = dims.tokenCount;
    s[0] = tokens < short ? -1 : tokens > long ? 1 : (tokens - short) / (long - short);
    let sum = weights[0]! * s[0];
    // Keyword dimensions, read from arrays built once (options objects are slow to index by name).
    for (let d = 1; d < DIMENSION_COUNT; d++) {
      if (d === QUESTIONS || d === MULTI_STEP) continue;
      let weight = scan.weight(categories[d]!);
      if (d === REASONING && stats.numbers >= dims.reasoningMarkers.minNumbers) {
        weight += dims.reasoningMarkers.numbersWeight;
      } else if (d === SIMPLE) {
        const simple = dims.simpleIndicators;
        if (isArithmetic(text, stats.words, stats.numbers)) weight += 1;
        weight *= fade(tokens, simple.fullBelow, simple.noneAbove);
        if (weight > 0 && this.#asksForAction(scan)) weight *= simple.withAction;
      }
      s[d] = clamp(units[d]! * weight);
      sum += weights[d]! * s[d]!;
    }
    s[QUESTIONS] = stats.questionMarks >= dims.questionComplexity.minQuestions ? 1 : 0;
    const multi = dims.multiStepPatterns;
    s[MULTI_STEP] =
      scan.weight(index.multiStepPatterns) >= multi.minWeight ||
      stats.numberedLines >= multi.minNumberedLines ||
      this.#actions(scan) >= multi.minActions
        ? 1
        : 0;
    sum += weights[QUESTIONS]! * s[QUESTIONS]! + weights[MULTI_STEP]! * s[MULTI_STEP]!;
    const score = Math.round(sum * 1e6) / 1e6;
    // Recognised: some dimension besides length spoke (a lone "first" or a faded "what is" is
    // not enough to know anything about a prompt).
    let recognized = false;
    for (let d = 1; d < DIMENSION_COUNT; d++) if (s[d] !== 0) recognized = true;

    let tier = this.#tierOf(score);
    let confidence = sigmoid(options.confidence.steepness * this.#distanceToBoundary(score));
    if (!recognized) confidence = Math.min(confidence, options.confidence.unrecognized);
    let override: TierOverride | undefined;
    let overrideCount = 0;
    let overrideWhy = '';

    const overrides = options.overrides;
    const reasoningWeight = scan.weight(index.reasoningMarkers);
    const complexitySignals =
      scan.weight(index.technicalTerms) +
      scan.weight(index.imperativeVerbs) +
      scan.weight(index.agenticTask);
    const requestTokens = huge.enabled ? this.#requestTokens(tokens, contextChars, context) : 0;
    if (huge.enabled && requestTokens > huge.minTokens) {
      override = 'huge-context';
      tier = 'COMPLEX';
      confidence = Math.max(confidence, huge.confidence);
      overrideCount = requestTokens;
    } else if (overrides.reasoning.enabled && reasoningWeight >= overrides.reasoning.minWeight) {
      override = 'reasoning';
      tier = 'REASONING';
      confidence = Math.max(confidence, overrides.reasoning.confidence);
      overrideCount = reasoningWeight;
    } else if (
      overrides.complexity.enabled &&
      complexitySignals >= overrides.complexity.minSignals &&
      (s[MULTI_STEP] === 1 ||
        tokens > long ||
        complexitySignals >= overrides.complexity.minSignalsAlone)
    ) {
      override = 'complexity';
      tier = 'COMPLEX';
      confidence = Math.max(confidence, overrides.complexity.confidence);
      overrideCount = complexitySignals;
      overrideWhy = s[MULTI_STEP] === 1 ? ' + multi-step' : tokens > long ? ' + long prompt' : '';
    }
    let raisedTo: Tier | undefined;
    if (images > 0) {
      const floor = options.vision.minTier;
      if (rankOf(tier) < rankOf(floor)) {
        raisedTo = floor;
        tier = floor;
        override ??= 'vision';
      }
    }
    const ambiguous = confidence < options.confidence.llmBelow;
    const facts = {
      length: s[0],
      hits: scan.hitIds(),
      simple: s[SIMPLE] !== 0,
      multiStep: s[MULTI_STEP] === 1,
      questions: s[QUESTIONS] === 1,
      numberedLines: stats.numberedLines,
      numbers: stats.numbers,
      questionMarks: stats.questionMarks,
      overrideCount,
      overrideWhy,
      images,
      raisedTo,
    };
    return new LazyScore(
      this.#signalSource,
      facts,
      tier,
      score,
      confidence,
      ambiguous,
      recognized,
      override,
      tokens,
    );
  }

  /** Whether a non-weak imperative keyword was found. */
  #asksForAction(scan: LexiconScan): boolean {
    const imperative = this.#lexicon.index.imperativeVerbs;
    for (let k = 0; k < scan.hitCount; k++) {
      const entry = scan.hitEntry(k);
      if (entry.categoryIndex === imperative && entry.weight >= 1) return true;
    }
    return false;
  }

  /** Distinct places where a non-weak imperative or agentic keyword was found. */
  #actions(scan: LexiconScan): number {
    const { index } = this.#lexicon;
    let count = 0;
    let previous = -1;
    for (let k = 0; k < scan.hitCount; k++) {
      const entry = scan.hitEntry(k);
      if (entry.weight < 1) continue;
      if (
        entry.categoryIndex !== index.imperativeVerbs &&
        entry.categoryIndex !== index.agenticTask
      ) {
        continue;
      }
      // Hits come in text order per first occurrence; the same word in both categories is found
      // at the same place, one after the other.
      const at = scan.hitIndex(k);
      if (at !== previous) count++;
      previous = at;
    }
    return count;
  }

  /**
   * The huge-context verdict from the request's size alone, when `chars / 4` (a lower bound of
   * its tokens) is over the limit; `undefined` otherwise. Lets a caller skip extraction and the
   * scan of a prompt whose tier the override decides anyway.
   */
  scoreBySize(chars: number, images: number): TierScore | undefined {
    const huge = this.options.overrides.hugeContext;
    if (!huge.enabled || !huge.skipScan) return undefined;
    const atLeast = Math.ceil(chars / 4);
    return atLeast > huge.minTokens ? this.#hugeWithoutScan(atLeast, images) : undefined;
  }

  #hugeWithoutScan(atLeast: number, images: number): TierScore {
    const huge = this.options.overrides.hugeContext;
    const signals = [`override: >${huge.minTokens} tokens (≥${atLeast}) → COMPLEX`];
    if (images > 0) signals.push(`vision (${plural(images, 'image')})`);
    return {
      tier: 'COMPLEX',
      confidence: huge.confidence,
      ambiguous: huge.confidence < this.options.confidence.llmBelow,
      recognized: true,
      override: 'huge-context',
      tokens: atLeast,
      signals,
    };
  }

  /**
   * Estimated tokens of the whole request. The context is scanned only when its size cannot
   * settle the question: at most one token per UTF-16 unit, at least a quarter.
   */
  #requestTokens(tokens: number, contextChars: number, context?: ScoreContext): number {
    const limit = this.options.overrides.hugeContext.minTokens;
    if (contextChars === 0 || tokens + contextChars <= limit)
      return tokens + Math.ceil(contextChars / 4);
    const lower = tokens + Math.ceil(contextChars / 4);
    if (lower > limit) return lower;
    let total = tokens;
    for (const text of context?.context ?? []) total += estimateTextTokens(text);
    return total;
  }

  #tierOf(score: number): Tier {
    const b = this.options.boundaries;
    if (score >= b.REASONING) return 'REASONING';
    if (score >= b.COMPLEX) return 'COMPLEX';
    if (score >= b.MEDIUM) return 'MEDIUM';
    return 'SIMPLE';
  }

  #distanceToBoundary(score: number): number {
    const b = this.options.boundaries;
    return Math.min(
      Math.abs(score - b.MEDIUM),
      Math.abs(score - b.COMPLEX),
      Math.abs(score - b.REASONING),
    );
  }
}

/**
 * A bare arithmetic expression ("3+1", "12 * (4 - 1) = ?"): the document's own example of a
 * SIMPLE prompt, which has no keyword to find. Only short texts are tested.
 */
const ARITHMETIC = /^[\s\d.,+\-*/×÷^%()=?]*\d\s*[+\-*/×÷^%]\s*[\d(][\s\d.,+\-*/×÷^%()=?]*$/;

function isArithmetic(text: string, words: number, numbers: number): boolean {
  // Every word of an arithmetic expression is a number (a letter would fail the pattern): most
  // prompts are ruled out without running it.
  return numbers > 0 && words === numbers && text.length <= 64 && ARITHMETIC.test(text);
}

/** 1 up to `full`, 0 from `none`, linear in between. */
function fade(value: number, full: number, none: number): number {
  return value <= full ? 1 : value >= none ? 0 : (none - value) / (none - full);
}

function sigmoid(x: number): number {
  return 1 / (1 + Math.exp(-x));
}

function clamp(x: number): number {
  return Math.max(-1, Math.min(1, x));
}

function sumLengths(texts: readonly string[] | undefined): number {
  let total = 0;
  if (texts) for (let t = 0; t < texts.length; t++) total += texts[t]!.length;
  return total;
}
