import { DIMENSIONS, KEYWORD_DIMENSIONS } from './keywords/index.js';
import type { TierLexicon } from './lexicon.js';
import type { TierOptions } from './options.js';
import { TIERS, type Tier, tierRank } from './tiers.js';

/**
 * The options `TierScorer.score` reads on every call, copied once into fields of one object
 * shape and into typed arrays. Validated options are nested objects whose shapes vary with the
 * input they were built from (defaults are filled in place), so reading them on the hot path
 * meant megamorphic property loads; these are plain field loads.
 */
export class ScoreParams {
  /** Per dimension (in DIMENSIONS order): its weight in the sum. */
  readonly weights = new Float64Array(DIMENSIONS.length);
  /** Per keyword dimension: the score per unit of keyword weight found (0 for the others). */
  readonly units = new Float64Array(DIMENSIONS.length);
  /** Per keyword dimension: its lexicon category (-1 for the others). */
  readonly categories = new Int32Array(DIMENSIONS.length).fill(-1);
  /** Per lexicon category: the bit (1 << position in DIMENSIONS) of its keyword dimension. */
  readonly dimensionBitOf: Int32Array;

  readonly shortTokens: number;
  readonly longTokens: number;

  readonly reasoningCategory: number;
  readonly reasoningUnit: number;
  readonly reasoningMinNumbers: number;
  readonly reasoningNumbersWeight: number;

  readonly simpleCategory: number;
  readonly simpleUnit: number;
  readonly simpleFullBelow: number;
  readonly simpleNoneAbove: number;
  readonly simpleWithAction: number;
  readonly simpleNeedsEvidence: boolean;

  readonly imperativeCategory: number;
  readonly agenticCategory: number;
  readonly technicalCategory: number;
  readonly multiStepCategory: number;
  readonly multiStepMinWeight: number;
  readonly multiStepMinNumberedLines: number;
  readonly multiStepMinActions: number;
  readonly minQuestions: number;

  readonly boundaryMedium: number;
  readonly boundaryComplex: number;
  readonly boundaryReasoning: number;
  readonly steepness: number;
  readonly llmBelow: number;
  readonly unrecognizedConfidence: number;

  /** Two-way split (`split` option): its threshold and tiers; `splitEnabled` false without. */
  readonly splitEnabled: boolean;
  readonly splitThreshold: number;
  readonly splitWeak: Tier;
  readonly splitStrong: Tier;
  readonly splitWeakRank: number;
  readonly splitStrongRank: number;

  /** Trained weights' learned term: its word category (-1: none) and feature weights. */
  readonly learnedEnabled: boolean;
  readonly learnedCategory: number;
  readonly learnedLogTokens: number;
  readonly learnedLogNumbers: number;
  readonly learnedQuestionMarks: number;

  readonly hugeEnabled: boolean;
  readonly hugeSkipScan: boolean;
  readonly hugeMinTokens: number;
  /** The tier (rank) of the huge-context override: COMPLEX, or a split's strong tier. */
  readonly hugeRank: number;
  /** The line of the huge-context override decided by size, before and after the count. */
  readonly hugeLineStart: string;
  readonly hugeLineEnd: string;
  readonly hugeConfidence: number;
  readonly reasoningOverride: boolean;
  readonly reasoningOverrideMinWeight: number;
  readonly reasoningOverrideConfidence: number;
  readonly complexityOverride: boolean;
  readonly complexityMinSignals: number;
  readonly complexityMinSignalsAlone: number;
  readonly complexityConfidence: number;
  readonly visionMinTier: Tier;

  constructor(options: TierOptions, lexicon: TierLexicon) {
    const dims = options.dimensions;
    const index = lexicon.index;
    const trained = options.weights;
    DIMENSIONS.forEach((name, d) => {
      this.weights[d] = trained?.dimensions[name] ?? dims[name].weight;
    });
    this.dimensionBitOf = new Int32Array(lexicon.lexicon.categories.length);
    for (const name of KEYWORD_DIMENSIONS) {
      const d = DIMENSIONS.indexOf(name);
      this.units[d] = dims[name].unit;
      this.categories[d] = index[name];
      this.dimensionBitOf[index[name]] = 1 << d;
    }

    this.shortTokens = dims.tokenCount.short;
    this.longTokens = dims.tokenCount.long;

    this.reasoningCategory = index.reasoningMarkers;
    this.reasoningUnit = dims.reasoningMarkers.unit;
    this.reasoningMinNumbers = dims.reasoningMarkers.minNumbers;
    this.reasoningNumbersWeight = dims.reasoningMarkers.numbersWeight;

    this.simpleCategory = index.simpleIndicators;
    this.simpleUnit = dims.simpleIndicators.unit;
    this.simpleFullBelow = dims.simpleIndicators.fullBelow;
    this.simpleNoneAbove = dims.simpleIndicators.noneAbove;
    this.simpleWithAction = dims.simpleIndicators.withAction;
    this.simpleNeedsEvidence = dims.simpleIndicators.requiredForSimple;

    this.imperativeCategory = index.imperativeVerbs;
    this.agenticCategory = index.agenticTask;
    this.technicalCategory = index.technicalTerms;
    this.multiStepCategory = index.multiStepPatterns;
    this.multiStepMinWeight = dims.multiStepPatterns.minWeight;
    this.multiStepMinNumberedLines = dims.multiStepPatterns.minNumberedLines;
    this.multiStepMinActions = dims.multiStepPatterns.minActions;
    this.minQuestions = dims.questionComplexity.minQuestions;

    const boundaries = trained?.boundaries ?? options.boundaries;
    this.boundaryMedium = boundaries.MEDIUM;
    this.boundaryComplex = boundaries.COMPLEX;
    this.boundaryReasoning = boundaries.REASONING;
    const split = options.split;
    this.splitEnabled = split !== undefined;
    this.splitThreshold = split?.threshold ?? 0;
    this.splitWeak = split?.weak ?? 'SIMPLE';
    this.splitStrong = split?.strong ?? 'COMPLEX';
    this.splitWeakRank = tierRank(this.splitWeak);
    this.splitStrongRank = tierRank(this.splitStrong);
    // A split sends overrides to its strong tier.
    this.hugeRank = this.splitEnabled ? this.splitStrongRank : tierRank('COMPLEX');
    this.hugeLineEnd = `) → ${TIERS[this.hugeRank]}`;
    const learned = trained?.learned;
    this.learnedEnabled = learned !== undefined;
    this.learnedCategory = lexicon.learned;
    this.learnedLogTokens = learned?.features.logTokens ?? 0;
    this.learnedLogNumbers = learned?.features.logNumbers ?? 0;
    this.learnedQuestionMarks = learned?.features.questionMarks ?? 0;
    this.steepness = options.confidence.steepness;
    this.llmBelow = options.confidence.llmBelow;
    this.unrecognizedConfidence = options.confidence.unrecognized;

    const { hugeContext, reasoning, complexity } = options.overrides;
    this.hugeEnabled = hugeContext.enabled;
    this.hugeSkipScan = hugeContext.enabled && hugeContext.skipScan;
    this.hugeMinTokens = hugeContext.minTokens;
    this.hugeLineStart = `override: >${hugeContext.minTokens} tokens (≥`;
    this.hugeConfidence = hugeContext.confidence;
    this.reasoningOverride = trained?.overrides?.reasoning ?? reasoning.enabled;
    this.reasoningOverrideMinWeight = reasoning.minWeight;
    this.reasoningOverrideConfidence = reasoning.confidence;
    this.complexityOverride = trained?.overrides?.complexity ?? complexity.enabled;
    this.complexityMinSignals = complexity.minSignals;
    this.complexityMinSignalsAlone = complexity.minSignalsAlone;
    this.complexityConfidence = complexity.confidence;
    this.visionMinTier = options.vision.minTier;
  }
}
