import {
  estimateTextTokens,
  estimateTokens,
  type Lexicon,
  type LexiconScan,
} from '../text/index.js';
import { DIMENSIONS, type Dimension } from './keywords/index.js';
import { buildTierLexicon, type TierLexicon } from './lexicon.js';
import type { TierOptions } from './options.js';
import { ScoreParams } from './score-params.js';
import {
  plural,
  SIGNAL_LIFTED,
  SIGNAL_MULTI_STEP,
  SIGNAL_QUESTIONS,
  SIGNAL_RECOGNIZED,
  SIGNAL_SIMPLE,
  SignalWriter,
  WHY_LONG_PROMPT,
  WHY_MULTI_STEP,
  WHY_NONE,
} from './signals.js';
import { TIERS, type Tier, tierRank } from './tiers.js';

/**
 * The rule-based tier scorer of the original design: fifteen weighted dimensions summed into a score,
 * tier boundaries, three overrides, a sigmoid confidence, and human-readable signals. Local and
 * synchronous; one lexicon scan of the prompt feeds every dimension.
 */

/** Which override decided the tier, if any. */
export type TierOverride = 'huge-context' | 'reasoning' | 'complexity' | 'vision';

/** What the scorer concluded about one prompt. */
export interface TierScore {
  readonly tier: Tier;
  /** The rank of `tier`: 0 for SIMPLE up to 3 for REASONING (see `tierRank`). */
  readonly rank: number;
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
  /** Human-readable reasons, e.g. `code (function, class)` (a new array per score). */
  readonly signals: string[];
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
const TIER_LIST: readonly Tier[] = TIERS;
const SIMPLE_RANK = tierRank('SIMPLE');
const MEDIUM_RANK = tierRank('MEDIUM');
const COMPLEX_RANK = tierRank('COMPLEX');
const REASONING_RANK = tierRank('REASONING');

// Positions in DIMENSIONS of the dimensions scored by their own rules.
const REASONING = DIMENSIONS.indexOf('reasoningMarkers');
const SIMPLE = DIMENSIONS.indexOf('simpleIndicators');
const MULTI_STEP = DIMENSIONS.indexOf('multiStepPatterns');
const QUESTIONS = DIMENSIONS.indexOf('questionComplexity');

/** The `signals` of a score whose signals are still open (see `TierScorer.scoreOpen`). */
const OPEN: string[] = Object.freeze([]) as unknown as string[];

/** Scores prompts. Build once (it compiles the lexicon); `score` is cheap and reentrant-free. */
export class TierScorer {
  readonly options: TierOptions;
  readonly #lexicon: TierLexicon;
  readonly #scan: LexiconScan;
  readonly #params: ScoreParams;
  readonly #dimensionScores = new Float64Array(DIMENSION_COUNT);
  readonly #signals: SignalWriter;

  constructor(options: TierOptions, lexicon: TierLexicon = buildTierLexicon(options)) {
    this.options = options;
    this.#lexicon = lexicon;
    this.#scan = lexicon.lexicon.scan('');
    this.#signals = new SignalWriter(options, lexicon.lexicon, lexicon.index);
    this.#params = new ScoreParams(options, lexicon);
  }

  /** The lexicon it scans prompts with (for explanations, such as the console's highlights). */
  get lexicon(): Lexicon {
    return this.#lexicon.lexicon;
  }

  /** The per-dimension scores (in [-1, 1], before weighting) of the last call to `score`. */
  lastDimensionScores(): Record<Dimension, number> {
    return Object.fromEntries(
      DIMENSION_LIST.map((name, i) => [name, this.#dimensionScores[i]!]),
    ) as Record<Dimension, number>;
  }

  /** Scores `text`, the user's own words (see `extractPrompt`). */
  score(text: string, context?: ScoreContext): TierScore {
    return this.#score(text, context, false);
  }

  /**
   * @internal The router's path: {@link score}, but with the signals left open (`signals` is
   * {@link OPEN}) until {@link closeSignals} adds the router's last line, so that the decision's
   * array is allocated once, at its final length. Call `closeSignals` before scoring again.
   */
  scoreOpen(text: string, context?: ScoreContext): TierScore {
    return this.#score(text, context, true);
  }

  #score(text: string, context: ScoreContext | undefined, open: boolean): TierScore {
    const p = this.#params;
    const images = context === undefined ? 0 : (context.images ?? 0);
    const contextChars = context === undefined ? 0 : sumLengths(context.context);
    // Read once, here: `length` loads at sites that have seen many kinds of strings (the lexicon's
    // own, while it was built) are megamorphic, ~10 ns each.
    const length = text.length;
    if (p.hugeSkipScan) {
      // Every UTF-16 unit is at least a quarter token (see estimateTokens): a proven lower bound.
      const atLeast = Math.ceil(length / 4) + Math.ceil(contextChars / 4);
      if (atLeast > p.hugeMinTokens) return this.#hugeWithoutScan(atLeast, images);
    }

    const scan = this.#lexicon.lexicon.scan(text, this.#scan, 0, length);
    const stats = scan.stats;
    const hits = this.#signals;
    hits.collect(scan);
    const tokens = estimate(stats);
    const s = this.#dimensionScores;
    const weights = p.weights;
    const units = p.units;
    const categories = p.categories;

    const short = p.shortTokens;
    const long = p.longTokens;
    for (let d = 1; d < DIMENSION_COUNT; d++) s[d] = 0; // not fill(): a call into C++, ~30 ns
    s[0] = tokens < short ? -1 : tokens > long ? 1 : (tokens - short) / (long - short);
    let sum = weights[0]! * s[0];
    // A keyword dimension without a keyword found scores 0 and adds nothing to the sum (x + 0 is
    // x), so only the dimensions with a keyword, or with a rule that needs none, are visited: as
    // bits of a mask, in DIMENSIONS order (the order of the sum, so the score is the same).
    let pending = 0;
    for (let k = 0; k < scan.categoryCount; k++) pending |= p.dimensionBitOf[scan.categoryAt(k)]!;
    const numbersSpeak = stats.numbers >= p.reasoningMinNumbers;
    if (numbersSpeak) pending |= 1 << REASONING;
    const arithmetic = isArithmetic(text, length, stats.words, stats.numbers);
    if (arithmetic) pending |= 1 << SIMPLE;
    pending &= ~((1 << MULTI_STEP) | (1 << QUESTIONS));
    let recognized = false;
    while (pending !== 0) {
      const d = 31 - Math.clz32(pending & -pending);
      pending &= pending - 1;
      let weight = scan.weight(categories[d]!);
      if (d === REASONING) {
        if (numbersSpeak) weight += p.reasoningNumbersWeight;
      } else if (d === SIMPLE) {
        if (arithmetic) weight += 1;
        weight *= fade(tokens, p.simpleFullBelow, p.simpleNoneAbove);
        if (weight > 0 && hits.asksForAction) weight *= p.simpleWithAction;
      }
      const value = clamp(units[d]! * weight);
      s[d] = value;
      sum += weights[d]! * value;
      if (value !== 0) recognized = true;
    }
    s[QUESTIONS] = stats.questionMarks >= p.minQuestions ? 1 : 0;
    s[MULTI_STEP] =
      scan.weight(p.multiStepCategory) >= p.multiStepMinWeight ||
      stats.numberedLines >= p.multiStepMinNumberedLines ||
      hits.actions >= p.multiStepMinActions
        ? 1
        : 0;
    sum += weights[QUESTIONS]! * s[QUESTIONS]! + weights[MULTI_STEP]! * s[MULTI_STEP]!;
    // Trained weights' learned term: the words found (each once) and three text statistics.
    let learned = 0;
    if (p.learnedEnabled) {
      learned =
        (p.learnedCategory >= 0 ? scan.weight(p.learnedCategory) : 0) +
        p.learnedLogTokens * Math.log1p(tokens) +
        p.learnedLogNumbers * Math.log1p(stats.numbers) +
        p.learnedQuestionMarks * Math.min(stats.questionMarks, 3);
      sum += learned;
    }
    // + 0: a sum just below zero rounds to -0, which JSON writes as 0 (decisions are plain data).
    const score = Math.round(sum * 1e6) / 1e6 + 0;
    // Recognised: some dimension besides length spoke (a lone "first" or a faded "what is" is
    // not enough to know anything about a prompt).
    if (s[QUESTIONS] !== 0 || s[MULTI_STEP] !== 0) recognized = true;

    // SIMPLE only with positive evidence: a recognised prompt without a simple indicator ("Write
    // a haiku about snow") is at least MEDIUM however short, so only the boundaries above MEDIUM
    // can make it unsure.
    const split = p.splitEnabled;
    const notSimple = !split && p.simpleNeedsEvidence && recognized && s[SIMPLE] === 0;
    // Ranks until the end (a tier name is a string, and comparing two costs more).
    let rank = split
      ? score >= p.splitThreshold
        ? p.splitStrongRank
        : p.splitWeakRank
      : this.#rankOf(score);
    let liftedToMedium = false;
    if (notSimple && rank === SIMPLE_RANK) {
      rank = MEDIUM_RANK;
      liftedToMedium = true;
    }
    const distance = split
      ? Math.abs(score - p.splitThreshold)
      : this.#distanceToBoundary(score, notSimple);
    let confidence = sigmoid(p.steepness * distance);
    if (!recognized) confidence = Math.min(confidence, p.unrecognizedConfidence);
    let override: TierOverride | undefined;
    let overrideCount = 0;
    let overrideWhy = WHY_NONE;

    const reasoningWeight = scan.weight(p.reasoningCategory);
    const complexitySignals =
      scan.weight(p.technicalCategory) +
      scan.weight(p.imperativeCategory) +
      scan.weight(p.agenticCategory);
    const requestTokens = p.hugeEnabled ? this.#requestTokens(tokens, contextChars, context) : 0;
    if (p.hugeEnabled && requestTokens > p.hugeMinTokens) {
      override = 'huge-context';
      rank = COMPLEX_RANK;
      confidence = Math.max(confidence, p.hugeConfidence);
      overrideCount = requestTokens;
    } else if (p.reasoningOverride && reasoningWeight >= p.reasoningOverrideMinWeight) {
      override = 'reasoning';
      rank = REASONING_RANK;
      confidence = Math.max(confidence, p.reasoningOverrideConfidence);
      overrideCount = reasoningWeight;
    } else if (
      p.complexityOverride &&
      complexitySignals >= p.complexityMinSignals &&
      (s[MULTI_STEP] === 1 || tokens > long || complexitySignals >= p.complexityMinSignalsAlone)
    ) {
      override = 'complexity';
      rank = COMPLEX_RANK;
      confidence = Math.max(confidence, p.complexityConfidence);
      overrideCount = complexitySignals;
      overrideWhy =
        s[MULTI_STEP] === 1 ? WHY_MULTI_STEP : tokens > long ? WHY_LONG_PROMPT : WHY_NONE;
    }
    if (split && override !== undefined) rank = p.splitStrongRank;
    let raisedTo: Tier | undefined;
    if (images > 0) {
      const floor = p.visionMinTier;
      if (rank < rankOf(floor)) {
        raisedTo = floor;
        rank = rankOf(floor);
        override ??= 'vision';
      }
    }
    const tier = TIER_LIST[rank]!;
    // A split is calibrated on outcomes: its threshold decides, never the LLM check.
    const ambiguous = !split && confidence < p.llmBelow;
    const flags =
      (s[SIMPLE] !== 0 ? SIGNAL_SIMPLE : 0) |
      (s[MULTI_STEP] === 1 ? SIGNAL_MULTI_STEP : 0) |
      (s[QUESTIONS] === 1 ? SIGNAL_QUESTIONS : 0) |
      (recognized ? SIGNAL_RECOGNIZED : 0) |
      (liftedToMedium ? SIGNAL_LIFTED : 0);
    this.#signals.write(
      scan,
      tokens,
      s[0],
      flags,
      override,
      overrideCount,
      overrideWhy,
      images,
      raisedTo,
      p.learnedEnabled ? learned : undefined,
      split && override === undefined ? p.splitThreshold : undefined,
      score,
      tier,
    );
    const signals = open ? OPEN : this.#signals.take();
    return { tier, rank, score, confidence, ambiguous, recognized, override, tokens, signals };
  }

  /**
   * @internal The signals of a score from {@link scoreOpen} or {@link scoreBySize}, with `last`
   * after them when given.
   */
  closeSignals(score: TierScore, last?: string): string[] {
    if (score.signals === OPEN) return this.#signals.take(last);
    if (last !== undefined) score.signals.push(last);
    return score.signals;
  }

  /**
   * The huge-context verdict from the request's size alone, when `chars / 4` (a lower bound of
   * its tokens) is over the limit; `undefined` otherwise. Lets a caller skip extraction and the
   * scan of a prompt whose tier the override decides anyway.
   */
  scoreBySize(chars: number, images: number): TierScore | undefined {
    const p = this.#params;
    if (!p.hugeSkipScan) return undefined;
    const atLeast = Math.ceil(chars / 4);
    return atLeast > p.hugeMinTokens ? this.#hugeWithoutScan(atLeast, images) : undefined;
  }

  #hugeWithoutScan(atLeast: number, images: number): TierScore {
    const p = this.#params;
    // A split sends overrides to its strong tier, as the scanned path does.
    const rank = p.hugeRank;
    const tier = TIER_LIST[rank]!;
    const signals = [`${p.hugeLineStart}${atLeast}${p.hugeLineEnd}`];
    if (images > 0) signals.push(`vision (${plural(images, 'image')})`);
    return {
      tier,
      rank,
      confidence: p.hugeConfidence,
      ambiguous: !p.splitEnabled && p.hugeConfidence < p.llmBelow,
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
    const limit = this.#params.hugeMinTokens;
    if (contextChars === 0 || tokens + contextChars <= limit)
      return tokens + Math.ceil(contextChars / 4);
    const lower = tokens + Math.ceil(contextChars / 4);
    if (lower > limit) return lower;
    let total = tokens;
    for (const text of context?.context ?? []) total += estimateTextTokens(text);
    return total;
  }

  #rankOf(score: number): number {
    const p = this.#params;
    if (score >= p.boundaryReasoning) return REASONING_RANK;
    if (score >= p.boundaryComplex) return COMPLEX_RANK;
    if (score >= p.boundaryMedium) return MEDIUM_RANK;
    return SIMPLE_RANK;
  }

  /** Distance to the nearest tier boundary; `aboveMedium`: to COMPLEX's or REASONING's only. */
  #distanceToBoundary(score: number, aboveMedium: boolean): number {
    const p = this.#params;
    const upper = Math.min(
      Math.abs(score - p.boundaryComplex),
      Math.abs(score - p.boundaryReasoning),
    );
    return aboveMedium ? upper : Math.min(Math.abs(score - p.boundaryMedium), upper);
  }
}

/**
 * A bare arithmetic expression ("3+1", "12 * (4 - 1) = ?"): the document's own example of a
 * SIMPLE prompt, which has no keyword to find. Only short texts are tested.
 */
const ARITHMETIC = /^[\s\d.,+\-*/×÷^%()=?]*\d\s*[+\-*/×÷^%]\s*[\d(][\s\d.,+\-*/×÷^%()=?]*$/;

function isArithmetic(text: string, length: number, words: number, numbers: number): boolean {
  // Every word of an arithmetic expression is a number (a letter would fail the pattern): most
  // prompts are ruled out without running it.
  return numbers > 0 && words === numbers && length <= 64 && ARITHMETIC.test(text);
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
