import type { Capability } from './capability.js';
import { Discriminator } from './discriminator.js';
import { describeEvidence, type Evidence, EvidenceIndex } from './evidence.js';
import { FeatureExtractor, type FeatureOptions } from './features.js';
import { type IndexPart, TfidfIndex } from './tfidf.js';

/**
 * The local pre-matcher: decides the clear cases of capability selection from the classifier
 * guides' own examples, with no model and no network, so that the LLM is asked only about the
 * capabilities it cannot rule on.
 *
 * How it reads: English words are reduced to their stems ("booking" → "book", "bought" → "buy"),
 * and also stand for the concepts they evoke ("purchase" → buy, "day off" → vacation) and the
 * entities they name (numbers, times, dates, money, capitalised names); see `features.ts`.
 *
 * How it decides, per capability:
 * - its positive examples, with its own words (name, description, instructions), are one
 *   document and its negative examples another, in one TF-IDF index over words, word pairs,
 *   concepts, entities and character n-grams (see `tfidf.ts`), compiled once;
 * - `score` is the task's cosine similarity to the positive document, `negative` to the negative
 *   one; `rank` blends the score with the probability a small discriminative model, fitted on
 *   the examples when compiling, gives the capability (see `discriminator.ts`): it orders the
 *   capabilities, the similarity alone rules them out;
 * - in the rank, a capability's score is first lowered by how much its examples resemble
 *   everything: the mean of its highest similarities to the other capabilities' examples,
 *   measured when compiling (`hubWeight`). A capability worded in common words ("what is my …")
 *   would otherwise come first for many tasks that are not its own;
 * - **no** when `score < noBelow`: nothing in the task resembles what the capability is for;
 *   also when the task is clearly closer to the counter-examples (`negative >= yesAbove` and
 *   `negative - score >= margin`);
 * - **yes** when `score >= yesAbove`, it ranks first, its score leads every other capability's
 *   and its own counter-examples' by `margin`, and the task's coverage is at least `yesCoverage`:
 *   the task is close to one capability's examples and no other's, and not mostly about
 *   something no example mentions;
 * - **uncertain** otherwise, and for every capability when the task's `coverage` (the share of
 *   its wording that appears anywhere in the examples) is below `minCoverage`: a task in another
 *   language, or in words no example uses, is not a clear mismatch but an unknown.
 *
 * Negative examples are handled with care: they can turn a would-be "yes" into "uncertain" or, when
 * the task is clearly one of them, into "no", but they never add evidence for another capability,
 * and a capability with only negative examples is never decided "yes" locally.
 *
 * The best guess of an uncertain capability (used when no LLM is configured): the best-ranked
 * capability and near ties, and a capability that explains what the best one leaves of the
 * task ("Email Bob the forecast": e-mail explains "email" and "Bob", weather explains "forecast").
 *
 * The thresholds were chosen on the validation split of CLINC150 (see docs/capabilities.md) and
 * are options: raise `noBelow` to save more LLM calls at the cost of more capabilities wrongly
 * ruled out.
 */

/** Options of {@link Prematcher}. */
export interface PrematcherOptions {
  /** Below this similarity to its examples a capability is ruled out. Default 0.06. */
  readonly noBelow?: number;
  /** At or above this similarity (with the margin) a capability is selected. Default 0.5. */
  readonly yesAbove?: number;
  /** Lead over the next capability and the counter-examples needed for "yes". Default 0.2. */
  readonly margin?: number;
  /**
   * A local "yes" also needs this share of the task's wording to appear in the examples: a
   * task that is mostly about something else ("cancel my magazine subscription" beside a
   * "cancel that" example) is left to the LLM. Default 0.7.
   */
  readonly yesCoverage?: number;
  /** Below this coverage of the task by the examples' wording, nothing is decided. Default 0.4. */
  readonly minCoverage?: number;
  /**
   * The best guess for an uncertain capability (used only when no LLM is configured) is
   * "selected" when its similarity reaches `guessAbove`, exceeds its similarity to the
   * capability's counter-examples, and its rank is within `guessWithin` of the best capability's
   * (a near tie: a task may need two). Defaults 0.2 and 0.05.
   */
  readonly guessAbove?: number;
  /** See {@link guessAbove}. */
  readonly guessWithin?: number;
  /**
   * A capability is also guessed when it explains what the best one leaves of the task: at least
   * `alsoShare` of the task's word weight is left once the best capability's words are taken
   * out, and the rest is at least `alsoAbove` similar to the capability. Defaults 0.15 and 0.35.
   */
  readonly alsoAbove?: number;
  /** See {@link alsoAbove}. */
  readonly alsoShare?: number;
  /**
   * …and its similarity to the whole task is at least `alsoRatio` times the best capability's
   * (a task that needs two capabilities resembles both about as much). Default 0.8.
   */
  readonly alsoRatio?: number;
  /** Share of words (vs character n-grams) in the similarity. Default 0.65. */
  readonly wordWeight?: number;
  /**
   * Weight of the capability's own words (name, description, instructions, reasons of its
   * examples) beside each of its positive examples (weight 1). Default 1.
   */
  readonly guideWeight?: number;
  /**
   * Share of the discriminative model's probability in the rank (the rest is the similarity);
   * 0 turns the model off (and saves compiling it). Default 0.5.
   */
  readonly discriminatorWeight?: number;
  /**
   * Share of a capability's "hubness" taken off its score in the rank: the mean of its
   * {@link HUB_NEIGHBOURS} highest similarities to other capabilities' positive examples. 0 turns
   * it off (and saves measuring it when compiling). Default 0.5.
   */
  readonly hubWeight?: number;
  /** Feature extraction (n-gram sizes, characters read, English analysis). */
  readonly features?: FeatureOptions;
}

/** How many of the other capabilities' examples a capability's hubness is the mean over. */
export const HUB_NEIGHBOURS = 10;

/** The defaults of {@link PrematcherOptions}. */
export const DEFAULT_PREMATCHER_OPTIONS = Object.freeze({
  noBelow: 0.06,
  yesAbove: 0.5,
  margin: 0.2,
  yesCoverage: 0.7,
  minCoverage: 0.4,
  guessAbove: 0.2,
  guessWithin: 0.05,
  alsoAbove: 0.35,
  alsoShare: 0.15,
  alsoRatio: 0.8,
  wordWeight: 0.65,
  guideWeight: 1,
  discriminatorWeight: 0.5,
  hubWeight: 0.5,
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
export interface PrematchMatch {
  readonly name: string;
  readonly decision: PrematchDecision;
  /** Similarity in [0, 1] of the task to the capability's positive examples. */
  readonly score: number;
  /**
   * The rank score in [0, 1] that orders the capabilities: the similarity, less the
   * capability's hubness penalty, blended with the discriminative model's probability (equal to
   * `score` when both are off).
   */
  readonly rank: number;
  /** Similarity in [0, 1] to its negative examples (0 when it has none). */
  readonly negative: number;
  /** The local verdict: the decision, or for an uncertain one the best guess. */
  readonly value: boolean;
  /** Confidence of `value`: at least {@link LOCAL_DECISION_CONFIDENCE} when decided. */
  readonly confidence: number;
  /** Why, with the evidence: which words of the task met which example. */
  readonly reason: string;
  /** The words of the task that met the capability's words, strongest first (computed on read). */
  readonly evidence: readonly Evidence[];
}

/** The pre-matcher's verdicts for one task. */
export interface PrematchResult {
  /** Share in [0, 1] of the task's wording that appears in the examples. */
  readonly coverage: number;
  /** One verdict per capability, in the order the pre-matcher was compiled with. */
  readonly matches: readonly PrematchMatch[];
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
  /** Class of each capability in the discriminative model (-1: no positive examples). */
  readonly #classOf: Int32Array;
  readonly #discriminator: Discriminator | undefined;
  /** Each capability's hubness times `hubWeight` (see {@link PrematcherOptions.hubWeight}). */
  readonly #hubPenalty: Float64Array;
  readonly #similarity: Float64Array;
  readonly #residual: Float64Array;
  readonly #probability: Float64Array;
  readonly #texts: readonly { readonly examples: string[]; readonly guide: string }[];
  readonly #features: FeatureOptions | undefined;
  #evidence: EvidenceIndex | undefined;

  constructor(capabilities: readonly Capability[], options: PrematcherOptions = {}) {
    this.options = Object.freeze({ ...DEFAULT_PREMATCHER_OPTIONS, ...definedOnly(options) });
    checkOptions(this.options);
    this.names = capabilities.map((capability) => capability.name);
    this.#features = options.features;
    const documents: IndexPart[][] = [];
    const documentOf = (parts: IndexPart[]) => {
      if (parts.length === 0) return -1;
      documents.push(parts);
      return documents.length - 1;
    };
    this.#positive = new Int32Array(capabilities.length);
    this.#negative = new Int32Array(capabilities.length);
    this.#classOf = new Int32Array(capabilities.length).fill(-1);
    const guides = guideTexts(capabilities);
    const training: { text: string; label: number }[] = [];
    let classes = 0;
    this.#texts = capabilities.map((capability, i) => {
      const examples = capability.guide?.examples ?? [];
      const queries = examples.filter((e) => e.result).map((e) => e.query);
      const positive: IndexPart[] = queries.map((text) => ({ text }));
      // What the capability says about itself backs its examples up (a capability without
      // positive examples still gets no local "yes": see #verdict).
      if (positive.length > 0) {
        positive.push({ text: guides[i]!, weight: this.options.guideWeight });
        this.#classOf[i] = classes++;
        for (const part of positive) training.push({ text: part.text, label: this.#classOf[i]! });
      }
      this.#positive[i] = documentOf(positive);
      this.#negative[i] = documentOf(
        examples.filter((e) => !e.result).map((e) => ({ text: e.query })),
      );
      return { examples: queries, guide: guides[i]! };
    });
    this.#index = new TfidfIndex(documents, new FeatureExtractor(options.features), {
      wordWeight: this.options.wordWeight,
    });
    this.#similarity = new Float64Array(documents.length);
    this.#residual = new Float64Array(documents.length);
    this.#hubPenalty = this.#hubPenalties(capabilities);
    this.#probability = new Float64Array(classes);
    if (classes >= 2 && this.options.discriminatorWeight > 0) {
      this.#discriminator = new Discriminator(this.#index, classes, training);
    }
  }

  /** Verdicts for every capability on `task`. Never throws; any string is accepted. */
  match(task: string): PrematchResult {
    const similarity = this.#similarity;
    const coverage = this.#index.similarities(task, similarity);
    const blend = this.#discriminator === undefined ? 0 : this.options.discriminatorWeight;
    if (blend > 0) this.#discriminator!.probabilities(this.#probability);
    const count = this.names.length;
    const scores = new Float64Array(count);
    const ranks = new Float64Array(count);
    const negatives = new Float64Array(count);
    let first = -1;
    let second = -1;
    let topScore = -1;
    let secondScore = 0;
    for (let i = 0; i < count; i++) {
      const p = this.#positive[i]!;
      const n = this.#negative[i]!;
      scores[i] = p < 0 ? 0 : similarity[p]!;
      negatives[i] = n < 0 ? 0 : similarity[n]!;
      if (p < 0) continue;
      ranks[i] = Math.max(
        0,
        (1 - blend) * (scores[i]! - this.#hubPenalty[i]!) +
          blend * (this.#probability[this.#classOf[i]!] ?? 0),
      );
      if (topScore < 0 || scores[i]! > scores[topScore]!) {
        secondScore = topScore < 0 ? 0 : scores[topScore]!;
        topScore = i;
      } else if (scores[i]! > secondScore) {
        secondScore = scores[i]!;
      }
      if (first < 0 || ranks[i]! > ranks[first]!) {
        second = first;
        first = i;
      } else if (second < 0 || ranks[i]! > ranks[second]!) {
        second = i;
      }
    }
    const also = this.#alsoExplaining(first, scores);
    const context = new TaskContext(this, task);
    const runnerUp = second < 0 ? 0 : ranks[second]!;
    const matches: PrematchMatch[] = new Array(count);
    for (let i = 0; i < count; i++) {
      const nextBest = i === first ? runnerUp : first < 0 ? 0 : ranks[first]!;
      const nextScore = i === topScore ? secondScore : topScore < 0 ? 0 : scores[topScore]!;
      matches[i] = this.#verdict(
        i,
        { score: scores[i]!, rank: ranks[i]!, negative: negatives[i]! },
        nextBest,
        nextScore,
        coverage,
        also.has(i),
        context,
      );
    }
    return { coverage, matches };
  }

  /**
   * How much each capability's examples resemble the other capabilities' examples (the mean of
   * its {@link HUB_NEIGHBOURS} highest similarities to them), times `hubWeight`.
   */
  #hubPenalties(capabilities: readonly Capability[]): Float64Array {
    const weight = this.options.hubWeight;
    const count = capabilities.length;
    const penalties = new Float64Array(count);
    if (weight === 0 || count < 2) return penalties;
    const nearest = capabilities.map(() => new TopValues(HUB_NEIGHBOURS));
    const similarity = this.#similarity;
    capabilities.forEach((capability, owner) => {
      for (const example of capability.guide?.examples ?? []) {
        if (!example.result) continue;
        this.#index.similarities(example.query, similarity);
        for (let i = 0; i < count; i++) {
          const p = this.#positive[i]!;
          if (i !== owner && p >= 0) nearest[i]!.add(similarity[p]!);
        }
      }
    });
    for (let i = 0; i < count; i++) penalties[i] = weight * nearest[i]!.mean();
    return penalties;
  }

  /** The evidence index, built on first use (only explanations need it). */
  evidenceIndex(): EvidenceIndex {
    this.#evidence ??= new EvidenceIndex(this.#texts, this.#features);
    return this.#evidence;
  }

  /**
   * Capabilities that explain what the best one leaves of the task: most tasks need one
   * capability, some need two ("Email Bob the forecast").
   */
  #alsoExplaining(best: number, scores: Float64Array): ReadonlySet<number> {
    if (best < 0 || scores[best]! < this.options.guessAbove) return NO_ONE;
    const residual = this.#residual;
    const left = this.#index.residualSimilarities(this.#positive[best]!, residual);
    if (left < this.options.alsoShare) return NO_ONE;
    let out: Set<number> | undefined;
    for (let i = 0; i < this.names.length; i++) {
      const p = this.#positive[i]!;
      if (i === best || p < 0 || residual[p]! < this.options.alsoAbove) continue;
      if (scores[i]! < Math.max(this.options.guessAbove, this.options.alsoRatio * scores[best]!)) {
        continue;
      }
      out ??= new Set();
      out.add(i);
    }
    return out ?? NO_ONE;
  }

  #verdict(
    i: number,
    similarity: Similarity,
    nextBest: number,
    nextScore: number,
    coverage: number,
    explainsRest: boolean,
    context: TaskContext,
  ): PrematchMatch {
    const { noBelow, yesAbove, yesCoverage, margin, minCoverage, guessAbove, guessWithin } =
      this.options;
    const { score, rank, negative } = similarity;
    const guess =
      score >= guessAbove && score > negative && (rank >= nextBest - guessWithin || explainsRest);
    let decision: PrematchDecision = 'uncertain';
    let value = guess;
    let confidence = UNCERTAIN;
    let why = Why.Between;
    let detail = 0;
    if (this.#positive[i]! < 0) {
      why = this.#negative[i]! < 0 ? Why.NoExamples : Why.OnlyNegative;
    } else if (coverage < minCoverage) {
      why = Why.Coverage;
      detail = coverage;
    } else if (score < noBelow) {
      decision = 'no';
      value = false;
      why = Why.Unlike;
      confidence = scale(1 - score / noBelow);
    } else if (negative >= yesAbove && negative - score >= margin) {
      decision = 'no';
      value = false;
      why = Why.CounterExample;
      confidence = scale((negative - yesAbove) / (1 - yesAbove));
    } else if (
      score >= yesAbove &&
      coverage >= yesCoverage &&
      rank > nextBest &&
      score - nextScore >= margin &&
      score - negative >= margin
    ) {
      decision = 'yes';
      value = true;
      why = Why.Close;
      confidence = scale((score - yesAbove) / (1 - yesAbove));
      detail = nextScore;
    } else if (guess && explainsRest && rank < nextBest - guessWithin) {
      why = Why.ExplainsRest;
    }
    return new Match(i, decision, similarity, value, confidence, why, context, detail);
  }
}

interface Similarity {
  readonly score: number;
  readonly rank: number;
  readonly negative: number;
}

const NO_ONE: ReadonlySet<number> = new Set();

/** The `size` highest values added, kept in descending order. */
class TopValues {
  readonly #values: number[] = [];
  constructor(private readonly size: number) {}

  add(value: number): void {
    const values = this.#values;
    if (values.length === this.size && value <= values[values.length - 1]!) return;
    let at = values.length;
    while (at > 0 && values[at - 1]! < value) at--;
    values.splice(at, 0, value);
    if (values.length > this.size) values.pop();
  }

  /** Mean of the values kept, 0 when none. */
  mean(): number {
    const values = this.#values;
    return values.length === 0 ? 0 : values.reduce((sum, value) => sum + value, 0) / values.length;
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
  ExplainsRest,
}

/** The task of one `match` call, read once for every capability's evidence when needed. */
class TaskContext {
  #evidence: Map<number, Evidence[]> | undefined;
  constructor(
    readonly matcher: Prematcher,
    readonly task: string,
  ) {}

  evidence(i: number): Evidence[] {
    if (this.#evidence === undefined) {
      const index = this.matcher.evidenceIndex();
      this.#evidence = index.evidence(index.read(this.task));
    }
    return this.#evidence.get(i) ?? [];
  }
}

class Match implements PrematchMatch {
  readonly name: string;
  readonly score: number;
  readonly rank: number;
  readonly negative: number;
  #evidence: Evidence[] | undefined;

  constructor(
    private readonly index: number,
    readonly decision: PrematchDecision,
    similarity: Similarity,
    readonly value: boolean,
    readonly confidence: number,
    private readonly why: Why,
    private readonly context: TaskContext,
    /** The coverage (Why.Coverage) or the next best score (Why.Close). */
    private readonly detail: number,
  ) {
    this.name = context.matcher.names[index]!;
    this.score = similarity.score;
    this.rank = similarity.rank;
    this.negative = similarity.negative;
  }

  /** ": <the evidence>", or nothing when there is none. */
  #found(): string {
    const evidence = this.evidence;
    return evidence.length > 0 ? `: ${describeEvidence(evidence)}` : '';
  }

  get evidence(): readonly Evidence[] {
    this.#evidence ??= this.why === Why.NoExamples ? [] : this.context.evidence(this.index);
    return this.#evidence;
  }

  get reason(): string {
    const { noBelow, minCoverage } = this.context.matcher.options;
    const { score, negative, detail } = this;
    const found = this.why === Why.Unlike ? '' : this.#found();
    switch (this.why) {
      case Why.NoExamples:
        return 'no examples to compare with';
      case Why.OnlyNegative:
        return `only negative examples${found}`;
      case Why.Coverage:
        return (
          `only ${percent(detail)} of the task's wording appears in the examples ` +
          `(< ${percent(minCoverage)}), similarity ${fmt(score)}${found}`
        );
      case Why.Unlike:
        // Most capabilities of a large registry end here: their reason stays cheap (the
        // evidence is still there to read, in `evidence`).
        return `unlike its examples (similarity ${fmt(score)} < ${fmt(noBelow)})`;
      case Why.CounterExample:
        return `close to its counter-examples (similarity ${fmt(negative)} vs ${fmt(score)})${found}`;
      case Why.Close:
        return `close to its examples (similarity ${fmt(score)}; next capability ${fmt(detail)})${found}`;
      case Why.ExplainsRest:
        return `explains what the best capability leaves of the task (similarity ${fmt(score)})${found}`;
      default: // Why.Between
        return (
          `similarity ${fmt(score)} is between ${fmt(noBelow)} and a clear match` +
          (negative > 0 ? ` (counter-examples ${fmt(negative)})` : '') +
          found
        );
    }
  }

  /** Plain data, with the reason and evidence, for JSON output and equality checks. */
  toJSON(): Omit<PrematchMatch, never> {
    const { name, decision, score, rank, negative, value, confidence, reason, evidence } = this;
    return { name, decision, score, rank, negative, value, confidence, reason, evidence };
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
  const key = (word: string) => word.toLowerCase().replace(/[^\p{L}\p{N}]+/gu, '');
  const shared = new Map<string, number>();
  for (const texts of words) {
    for (const word of new Set(texts.flat().map(key))) {
      shared.set(word, (shared.get(word) ?? 0) + 1);
    }
  }
  const template = (word: string) =>
    capabilities.length >= TEMPLATE_MIN_CAPABILITIES &&
    (shared.get(key(word)) ?? 0) > capabilities.length / 2;
  return words.map((texts) =>
    texts.map((text) => text.filter((word) => !template(word)).join(' ')).join(' .\n'),
  );
}

/** Registries smaller than this have no template words (one of two is not a template). */
const TEMPLATE_MIN_CAPABILITIES = 3;

function definedOnly<T extends object>(value: T): Partial<T> {
  return Object.fromEntries(
    Object.entries(value).filter(([key, v]) => v !== undefined && key !== 'features'),
  ) as Partial<T>;
}

/** Two decimals: what `toFixed(2)` gives for the scores here, without its cost. */
function fmt(value: number): string {
  const hundredths = Math.round(Math.abs(value) * 100);
  const cents = hundredths % 100;
  return `${value < 0 && hundredths > 0 ? '-' : ''}${Math.floor(hundredths / 100)}.${cents < 10 ? '0' : ''}${cents}`;
}

function percent(value: number): string {
  return `${Math.round(value * 100)}%`;
}
