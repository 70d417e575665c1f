import type { Capability } from './capability.js';
import { FeatureExtractor, type FeatureOptions } from './features.js';
import { type IndexPart, TfidfIndex } from './tfidf.js';

/**
 * The local pre-matcher (beyond document 002): decides the clear cases of capability selection
 * from the classifier guides' own examples, with no model and no network, so that the LLM is
 * asked only about the capabilities it cannot rule on.
 *
 * How it decides, per capability:
 * - its positive examples are one document and its negative examples another, in one TF-IDF
 *   index over words, word pairs and character n-grams (see `tfidf.ts`), compiled once;
 * - `score` is the task's cosine similarity to the positive document, `negative` to the negative
 *   one;
 * - **no** when `score < noBelow`: nothing in the task resembles what the capability is for;
 *   also when the task is clearly closer to the counter-examples (`negative >= yesAbove` and
 *   `negative - score >= margin`);
 * - **yes** when `score >= yesAbove` and it leads every other capability and its own
 *   counter-examples by `margin`: the task is close to one capability's examples and no other's;
 * - **uncertain** otherwise, and for every capability when the task's `coverage` (the share of
 *   its wording that appears anywhere in the examples) is below `minCoverage`: a task in another
 *   language, or in words no example uses, is not a clear mismatch but an unknown.
 *
 * Negative examples are handled with care: they can turn a would-be "yes" into "uncertain" or, when
 * the task is clearly one of them, into "no", but they never add evidence for another capability,
 * and a capability with only negative examples is never decided "yes" locally.
 *
 * The thresholds were chosen on the validation split of CLINC150 (see docs/capabilities.md) and
 * are options: raise `noBelow` to save more LLM calls at the cost of more capabilities wrongly
 * ruled out.
 */

/** Options of {@link Prematcher}. */
export interface PrematcherOptions {
  /** Below this similarity to its examples a capability is ruled out. Default 0.06. */
  readonly noBelow?: number;
  /** At or above this similarity (with the margin) a capability is selected. Default 0.45. */
  readonly yesAbove?: number;
  /** Lead over the next capability and the counter-examples needed for "yes". Default 0.15. */
  readonly margin?: number;
  /** Below this coverage of the task by the examples' wording, nothing is decided. Default 0.5. */
  readonly minCoverage?: number;
  /**
   * The best guess for an uncertain capability (used only when no LLM is configured) is
   * "selected" when its similarity reaches `guessAbove`, is within `guessWithin` of the best
   * capability's, and exceeds its similarity to the capability's counter-examples. Defaults 0.2 and 0.05: the best match, and any near tie (a task may need two).
   */
  readonly guessAbove?: number;
  /** See {@link guessAbove}. */
  readonly guessWithin?: number;
  /** Share of words (vs character n-grams) in the similarity. Default 0.65. */
  readonly wordWeight?: number;
  /**
   * Weight of the capability's own words (name, description, instructions, reasons of its
   * examples) beside each of its positive examples (weight 1). Default 1.
   */
  readonly guideWeight?: number;
  /** Feature extraction (n-gram sizes, characters read). */
  readonly features?: FeatureOptions;
}

/** The defaults of {@link PrematcherOptions}. */
export const DEFAULT_PREMATCHER_OPTIONS = Object.freeze({
  noBelow: 0.06,
  yesAbove: 0.45,
  margin: 0.15,
  minCoverage: 0.5,
  guessAbove: 0.2,
  guessWithin: 0.05,
  wordWeight: 0.65,
  guideWeight: 1,
});

/**
 * The confidence at which a local verdict is used without asking the LLM. Clear verdicts carry a
 * confidence in [0.75, 1] (higher the further past the threshold), uncertain ones 0.5.
 */
export const LOCAL_DECISION_CONFIDENCE = 0.75;
const UNCERTAIN = 0.5;

/** What the pre-matcher concluded about one capability. */
export type PrematchDecision = 'yes' | 'no' | 'uncertain';

/** The pre-matcher's verdict on one capability for one task. */
export interface CapabilityMatch {
  readonly name: string;
  readonly decision: PrematchDecision;
  /** Similarity in [0, 1] of the task to the capability's positive examples. */
  readonly score: number;
  /** Similarity in [0, 1] to its negative examples (0 when it has none). */
  readonly negative: number;
  /** The local verdict: the decision, or for an uncertain one the best guess. */
  readonly value: boolean;
  /** Confidence of `value`: at least {@link LOCAL_DECISION_CONFIDENCE} when decided. */
  readonly confidence: number;
  readonly reason: string;
}

/** The pre-matcher's verdicts for one task. */
export interface PrematchResult {
  /** Share in [0, 1] of the task's wording that appears in the examples. */
  readonly coverage: number;
  /** One verdict per capability, in the order the pre-matcher was compiled with. */
  readonly matches: readonly CapabilityMatch[];
}

/** A compiled pre-matcher over a fixed set of capabilities. */
export class Prematcher {
  readonly options: Readonly<Required<Omit<PrematcherOptions, 'features'>>>;
  /** The capabilities it decides on, in order. */
  readonly names: readonly string[];
  readonly #index: TfidfIndex;
  /** Document of each capability's positive and negative examples (-1: none). */
  readonly #positive: Int32Array;
  readonly #negative: Int32Array;
  readonly #similarity: Float64Array;

  constructor(capabilities: readonly Capability[], options: PrematcherOptions = {}) {
    this.options = Object.freeze({ ...DEFAULT_PREMATCHER_OPTIONS, ...definedOnly(options) });
    checkOptions(this.options);
    this.names = capabilities.map((capability) => capability.name);
    const documents: IndexPart[][] = [];
    const documentOf = (parts: IndexPart[]) => {
      if (parts.length === 0) return -1;
      documents.push(parts);
      return documents.length - 1;
    };
    this.#positive = new Int32Array(capabilities.length);
    this.#negative = new Int32Array(capabilities.length);
    const guides = guideTexts(capabilities);
    capabilities.forEach((capability, i) => {
      const examples = capability.guide?.examples ?? [];
      const positive: IndexPart[] = examples
        .filter((e) => e.result)
        .map((e) => ({ text: e.query }));
      // What the capability says about itself backs its examples up (a capability without
      // positive examples still gets no local "yes": see #verdict).
      if (positive.length > 0) {
        positive.push({ text: guides[i]!, weight: this.options.guideWeight });
      }
      this.#positive[i] = documentOf(positive);
      this.#negative[i] = documentOf(
        examples.filter((e) => !e.result).map((e) => ({ text: e.query })),
      );
    });
    this.#index = new TfidfIndex(documents, new FeatureExtractor(options.features), {
      wordWeight: this.options.wordWeight,
    });
    this.#similarity = new Float64Array(documents.length);
  }

  /** Verdicts for every capability on `task`. Never throws; any string is accepted. */
  match(task: string): PrematchResult {
    const similarity = this.#similarity;
    const coverage = this.#index.similarities(task, similarity);
    const count = this.names.length;
    const scores = new Float64Array(count);
    const negatives = new Float64Array(count);
    let first = -1;
    let second = -1;
    for (let i = 0; i < count; i++) {
      const p = this.#positive[i]!;
      const n = this.#negative[i]!;
      scores[i] = p < 0 ? 0 : similarity[p]!;
      negatives[i] = n < 0 ? 0 : similarity[n]!;
      if (p < 0) continue;
      if (first < 0 || scores[i]! > scores[first]!) {
        second = first;
        first = i;
      } else if (second < 0 || scores[i]! > scores[second]!) {
        second = i;
      }
    }
    const runnerUp = second < 0 ? 0 : scores[second]!;
    const matches: CapabilityMatch[] = new Array(count);
    for (let i = 0; i < count; i++) {
      const nextBest = i === first ? runnerUp : first < 0 ? 0 : scores[first]!;
      matches[i] = this.#verdict(i, scores[i]!, negatives[i]!, nextBest, coverage);
    }
    return { coverage, matches };
  }

  #verdict(
    i: number,
    score: number,
    negative: number,
    nextBest: number,
    coverage: number,
  ): CapabilityMatch {
    const { noBelow, yesAbove, margin, minCoverage, guessAbove, guessWithin } = this.options;
    const name = this.names[i]!;
    const guess = score >= guessAbove && score > negative && score >= nextBest - guessWithin;
    if (this.#positive[i]! < 0) {
      const why = this.#negative[i]! < 0 ? Why.NoExamples : Why.OnlyNegative;
      return new Match(name, 'uncertain', score, negative, guess, UNCERTAIN, why, this, 0);
    }
    if (coverage < minCoverage) {
      return new Match(
        name,
        'uncertain',
        score,
        negative,
        guess,
        UNCERTAIN,
        Why.Coverage,
        this,
        coverage,
      );
    }
    if (score < noBelow) {
      const confidence = scale(1 - score / noBelow);
      return new Match(name, 'no', score, negative, false, confidence, Why.Unlike, this, 0);
    }
    if (negative >= yesAbove && negative - score >= margin) {
      const confidence = scale((negative - yesAbove) / (1 - yesAbove));
      return new Match(name, 'no', score, negative, false, confidence, Why.CounterExample, this, 0);
    }
    if (score >= yesAbove && score - nextBest >= margin && score - negative >= margin) {
      const confidence = scale((score - yesAbove) / (1 - yesAbove));
      return new Match(name, 'yes', score, negative, true, confidence, Why.Close, this, nextBest);
    }
    return new Match(name, 'uncertain', score, negative, guess, UNCERTAIN, Why.Between, this, 0);
  }
}

/** Why a verdict was reached; the reason text is built only when someone reads it. */
enum Why {
  NoExamples,
  OnlyNegative,
  Coverage,
  Unlike,
  CounterExample,
  Close,
  Between,
}

class Match implements CapabilityMatch {
  constructor(
    readonly name: string,
    readonly decision: PrematchDecision,
    readonly score: number,
    readonly negative: number,
    readonly value: boolean,
    readonly confidence: number,
    private readonly why: Why,
    private readonly matcher: Prematcher,
    /** The coverage (Why.Coverage) or the next best score (Why.Close). */
    private readonly detail: number,
  ) {}

  get reason(): string {
    const { noBelow, minCoverage } = this.matcher.options;
    const { score, negative, detail } = this;
    switch (this.why) {
      case Why.NoExamples:
        return 'no examples to compare with';
      case Why.OnlyNegative:
        return 'only negative examples';
      case Why.Coverage:
        return `only ${percent(detail)} of the task's wording appears in the examples (< ${percent(minCoverage)})`;
      case Why.Unlike:
        return `unlike its examples (similarity ${fmt(score)} < ${fmt(noBelow)})`;
      case Why.CounterExample:
        return `close to its counter-examples (similarity ${fmt(negative)} vs ${fmt(score)})`;
      case Why.Close:
        return `close to its examples (similarity ${fmt(score)}; next capability ${fmt(detail)})`;
      default: // Why.Between
        return (
          `similarity ${fmt(score)} is between ${fmt(noBelow)} and a clear match` +
          (negative > 0 ? ` (counter-examples ${fmt(negative)})` : '')
        );
    }
  }

  /** Plain data, with the reason, for JSON output and equality checks. */
  toJSON(): Omit<CapabilityMatch, never> {
    const { name, decision, score, negative, value, confidence, reason } = this;
    return { name, decision, score, negative, value, confidence, reason };
  }
}

/** Maps "how far past the threshold" in [0, 1] to a confidence in [0.75, 1]. */
function scale(past: number): number {
  const clamped = Math.min(1, Math.max(0, past));
  return LOCAL_DECISION_CONFIDENCE + (1 - LOCAL_DECISION_CONFIDENCE) * clamped;
}

function checkOptions(options: Required<Omit<PrematcherOptions, 'features'>>): void {
  for (const [key, value] of Object.entries(options)) {
    if (!(typeof value === 'number' && value >= 0 && value <= 1)) {
      throw new RangeError(`pre-matcher option ${key} must be in [0, 1], got ${String(value)}`);
    }
  }
  if (!(options.noBelow < options.yesAbove)) {
    throw new RangeError(
      `pre-matcher noBelow (${options.noBelow}) must be below yesAbove (${options.yesAbove})`,
    );
  }
}

/**
 * Each capability's own words: its name ("send_email" → "send email"), description,
 * instructions and the reasons of its positive examples; one part of its document, beside the
 * examples. Words that most capabilities' texts share ("Activate when the user asks about …")
 * are template, not meaning, and are left out.
 */
function guideTexts(capabilities: readonly Capability[]): string[] {
  const words = capabilities.map((capability) => {
    const examples = capability.guide?.examples ?? [];
    const name = capability.name.replace(/[_.:-]+/g, ' ').replace(/([a-z])([A-Z])/g, '$1 $2');
    const reasons = examples.filter((e) => e.result && e.reason).map((e) => e.reason!);
    const texts = [name, capability.description, capability.guide?.instructions ?? '', ...reasons];
    return texts.map((text) => text.split(/\s+/).filter((word) => word !== ''));
  });
  const shared = new Map<string, number>();
  for (const texts of words) {
    for (const word of new Set(texts.flat().map((w) => w.toLowerCase()))) {
      shared.set(word, (shared.get(word) ?? 0) + 1);
    }
  }
  const template = (word: string) =>
    capabilities.length >= TEMPLATE_MIN_CAPABILITIES &&
    (shared.get(word.toLowerCase()) ?? 0) > capabilities.length / 2;
  return words.map((texts) =>
    texts.map((text) => text.filter((word) => !template(word)).join(' ')).join(' .\n'),
  );
}

/** Registries smaller than this have no template words (two of three is not a template). */
const TEMPLATE_MIN_CAPABILITIES = 6;

function definedOnly<T extends object>(value: T): Partial<T> {
  return Object.fromEntries(
    Object.entries(value).filter(([key, v]) => v !== undefined && key !== 'features'),
  ) as Partial<T>;
}

function fmt(value: number): string {
  return value.toFixed(2);
}

function percent(value: number): string {
  return `${Math.round(value * 100)}%`;
}
