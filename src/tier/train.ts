import { indicesByGroup, type Outcome, routingCurve } from '../eval/routing.js';
import type { TierRequest } from './extract.js';
import { FeatureExtractor, type PromptFeatures, untrainedOptions } from './features.js';
import { DIMENSIONS } from './keywords/index.js';
import { type TierOptions, type TierOptionsInput, tierOptions } from './options.js';
import { createTierRouter, type TierRouter } from './router.js';
import { routingScores } from './routing-score.js';
import { type Tier, tierRank } from './tiers.js';
import { type TierWeights, tierWeights } from './weights.js';

/**
 * Fits the tier scorer to labelled prompts (`triage train`): the weight of each dimension, the
 * tier boundaries, and a learned term over what the scan already produces (the prompt's words,
 * three text statistics). Deterministic: the only randomness is the held-out split, drawn from
 * `seed`; the fit itself is full-batch gradient descent (Adam) from fixed starting values.
 *
 * - Tier labels: an ordinal logistic model on the score, P(tier ≥ t) = sigmoid(k · (score −
 *   boundary_t)) with the router's own steepness k, so the fitted boundaries are the router's and
 *   its confidence (sigmoid of k × the distance to the nearest boundary) reads as the fitted
 *   probability. A row may list several acceptable tiers. Rows decided by an override are left
 *   out (the score does not decide them); the rule that SIMPLE needs a simple indicator is part
 *   of the model. The dimension weights are pulled toward their configured values (L2), so a
 *   small set refines them instead of replacing them.
 * - Outcomes (a weak and a strong model's result per prompt): least squares on the strong
 *   model's gain (strong − weak), so the score ranks prompts by the expected gain of a strong
 *   call, for a two-way `split`. The four-tier boundaries are placed so that each tier gets the
 *   share of the training prompts the untrained scorer gave it.
 */

/** One labelled prompt: tier labels or the two models' outcomes. */
export interface TrainingRow {
  readonly input: TierRequest | string;
  /** The acceptable tiers (one or more). */
  readonly tiers?: readonly Tier[];
  readonly outcome?: Outcome;
  /** A group name (e.g. a subject), for held-out figures per group. */
  readonly group?: string;
}

/** Options of {@link trainTierWeights}. */
export interface TrainOptions {
  /** Seed of the held-out split (default 1). */
  readonly seed?: number;
  /** Share of the rows held out of the fit to measure it (default 0.2; 0: fit on all). */
  readonly holdout?: number;
  /** Most words in the learned term (default 2,000; 0: no words). */
  readonly maxWords?: number;
  /** A word enters the learned term when found in at least this many training rows (20). */
  readonly minWordRows?: number;
  /** L2 penalty of the word weights (default 0.03): higher, fewer and smaller word weights. */
  readonly l2?: number;
  /** Passes of gradient descent (default 300). */
  readonly epochs?: number;
  /** The router options the weights are for (languages, keywords, extraction). */
  readonly options?: TierOptionsInput;
}

/** APGR of the trained score, the untrained one and the length-only baseline on some rows. */
export interface OutcomeFigures {
  readonly rows: number;
  readonly trained: number;
  readonly untrained: number;
  readonly length: number;
}

/** Tier accuracy, and the share decided locally with its accuracy, without an LLM check. */
export interface TierFigures {
  readonly rows: number;
  readonly trained: {
    readonly accuracy: number;
    readonly local: number;
    readonly localAccuracy: number;
  };
  readonly untrained: {
    readonly accuracy: number;
    readonly local: number;
    readonly localAccuracy: number;
  };
}

/** What a fit gives: the weights, and figures on the rows it was fitted to and on held-out rows. */
export interface TrainResult {
  readonly weights: TierWeights;
  readonly fittedTo: 'tiers' | 'outcomes';
  readonly rows: number;
  readonly trainRows: number;
  readonly heldOutRows: number;
  readonly seed: number;
  /** Words in the learned term. */
  readonly words: number;
  readonly train: OutcomeFigures | TierFigures;
  /** Absent with `holdout: 0`. */
  readonly heldOut?: OutcomeFigures | TierFigures;
  /** Held-out figures per group, when rows name groups (outcomes only). */
  readonly groups?: Readonly<Record<string, OutcomeFigures>>;
  /** Milliseconds the fit took (features, descent, figures). */
  readonly ms: number;
}

/** Fits tier weights to `rows` (all with tier labels, or all with outcomes). */
export function trainTierWeights(
  rows: readonly TrainingRow[],
  options: TrainOptions = {},
): TrainResult {
  const started = performance.now();
  const fittedTo = labelKind(rows);
  const seed = options.seed ?? 1;
  const holdout = options.holdout ?? 0.2;
  if (!(holdout >= 0 && holdout < 1)) throw new RangeError('holdout must be in [0, 1)');
  const base = tierOptions(options.options ?? {});
  const extractor = new FeatureExtractor(base);
  const features = rows.map((row) => extractor.features(row.input));
  const order = shuffled(rows.length, seed);
  const heldOutCount = Math.round(rows.length * holdout);
  const heldOut = order.slice(0, heldOutCount).sort((a, b) => a - b);
  const trainIndex = order.slice(heldOutCount).sort((a, b) => a - b);
  if (trainIndex.length === 0) throw new RangeError('no rows left to fit after the holdout');

  const vocabulary = chooseWords(
    trainIndex.map((i) => features[i]!),
    options.maxWords ?? 2_000,
    options.minWordRows ?? 20,
  );
  const design = new Design(features, vocabulary);
  const fit: Fit =
    fittedTo === 'outcomes'
      ? fitOutcomes(design, rows, trainIndex, options)
      : fitTiers(design, rows, trainIndex, base, options);
  const boundaries =
    fittedTo === 'outcomes'
      ? matchedBoundaries(design, fit, features, trainIndex, base)
      : fit.boundaries!;
  const overrides =
    fittedTo === 'outcomes'
      ? helpfulOverrides(design, fit, rows, features, trainIndex, base)
      : undefined;
  const weights = toWeights(fit, vocabulary, boundaries, fittedTo, overrides, {
    rows: trainIndex.length,
    seed,
    heldOut: heldOutCount,
  });

  const untrained = createTierRouter(untrainedOptions(base));
  const trained = createTierRouter({ ...untrainedOptions(base), weights });
  const figures = (indices: readonly number[]) =>
    fittedTo === 'outcomes'
      ? outcomeFigures(rows, indices, trained, untrained)
      : tierFigures(rows, indices, trained, untrained);
  const result: TrainResult = {
    weights,
    fittedTo,
    rows: rows.length,
    trainRows: trainIndex.length,
    heldOutRows: heldOutCount,
    seed,
    words: Object.keys(weights.learned?.words ?? {}).length,
    train: figures(trainIndex),
    ...(heldOutCount > 0 ? { heldOut: figures(heldOut) } : {}),
    ...(fittedTo === 'outcomes' && heldOutCount > 0 && rows.some((row) => row.group)
      ? { groups: groupFigures(rows, heldOut, trained, untrained) }
      : {}),
    ms: 0,
  };
  return { ...result, ms: performance.now() - started };
}

function labelKind(rows: readonly TrainingRow[]): 'tiers' | 'outcomes' {
  if (rows.length === 0) throw new RangeError('no rows to fit');
  const outcomes = rows.filter((row) => row.outcome !== undefined).length;
  const tiers = rows.filter((row) => row.tiers !== undefined && row.tiers.length > 0).length;
  if (outcomes === rows.length && tiers === 0) return 'outcomes';
  if (tiers === rows.length && outcomes === 0) return 'tiers';
  throw new RangeError(
    'every row needs the same kind of label: tier labels, or the two models’ outcomes',
  );
}

/** A permutation of 0..n-1 drawn from `seed` (mulberry32, Fisher–Yates). */
function shuffled(n: number, seed: number): number[] {
  let state = seed >>> 0;
  const random = () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
  const order = Array.from({ length: n }, (_, i) => i);
  for (let i = n - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [order[i], order[j]] = [order[j]!, order[i]!];
  }
  return order;
}

/**
 * The words a learned term may use: found in at least `minRows` training rows (rarer ones are
 * noise) and in at most half of them (a word in most prompts says nothing about one: "the", or
 * a data set's own scaffolding such as "answer"), the most frequent first, at most `max`.
 */
function chooseWords(features: readonly PromptFeatures[], max: number, minRows: number): string[] {
  if (max <= 0) return [];
  const rows = new Map<string, number>();
  for (const row of features)
    for (const word of row.words) rows.set(word, (rows.get(word) ?? 0) + 1);
  const most = features.length / 2;
  return [...rows]
    .filter(([, count]) => count >= minRows && count <= most)
    .sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1))
    .slice(0, max)
    .map(([word]) => word);
}

/** The learned features, scaled to comparable ranges for the descent (undone on output). */
const FEATURE_SCALES = { logTokens: 1 / 8, logNumbers: 1 / 3, questionMarks: 1 / 3 } as const;
const DENSE = DIMENSIONS.length + 3;
const SIMPLE = DIMENSIONS.indexOf('simpleIndicators');

/** The rows as the fit reads them: dense values and word indices. */
class Design {
  readonly dense: Float64Array[];
  readonly words: Int32Array[];
  readonly vocabulary: readonly string[];
  /** Per row: an override decided its tier; something besides length was recognised. */
  readonly overridden: boolean[];
  readonly recognized: boolean[];

  constructor(features: readonly PromptFeatures[], vocabulary: readonly string[]) {
    const index = new Map(vocabulary.map((word, i) => [word, i]));
    this.vocabulary = vocabulary;
    this.overridden = features.map((row) => row.override !== undefined);
    this.recognized = features.map((row) => row.recognized);
    this.dense = features.map((row) => {
      const x = new Float64Array(DENSE);
      x.set(row.dimensions);
      x[DIMENSIONS.length] = row.logTokens * FEATURE_SCALES.logTokens;
      x[DIMENSIONS.length + 1] = row.logNumbers * FEATURE_SCALES.logNumbers;
      x[DIMENSIONS.length + 2] = row.questionMarks * FEATURE_SCALES.questionMarks;
      return x;
    });
    this.words = features.map((row) =>
      Int32Array.from(row.words.map((word) => index.get(word) ?? -1).filter((i) => i >= 0)),
    );
  }

  /** The score of row `i` under parameters `p` (dense weights, then word weights). */
  score(i: number, p: Float64Array): number {
    const x = this.dense[i]!;
    let s = 0;
    for (let j = 0; j < DENSE; j++) s += p[j]! * x[j]!;
    const words = this.words[i]!;
    for (let k = 0; k < words.length; k++) s += p[DENSE + words[k]!]!;
    return s;
  }

  /** Adds `g` × row `i`'s values to the gradient. */
  accumulate(i: number, g: number, gradient: Float64Array): void {
    const x = this.dense[i]!;
    for (let j = 0; j < DENSE; j++) gradient[j]! += g * x[j]!;
    const words = this.words[i]!;
    for (let k = 0; k < words.length; k++) gradient[DENSE + words[k]!]! += g;
  }
}

/** Fitted parameters: dense weights, word weights, and the boundaries of a tier fit. */
interface Fit {
  readonly params: Float64Array;
  readonly boundaries?: TierWeights['boundaries'];
}

/** Adam over a parameter vector: full-batch steps from fixed starting values. */
class Adam {
  readonly #m: Float64Array;
  readonly #v: Float64Array;
  #t = 0;
  constructor(
    size: number,
    readonly rate: number,
  ) {
    this.#m = new Float64Array(size);
    this.#v = new Float64Array(size);
  }

  step(params: Float64Array, gradient: Float64Array): void {
    this.#t++;
    const c1 = 1 - 0.9 ** this.#t;
    const c2 = 1 - 0.999 ** this.#t;
    for (let j = 0; j < params.length; j++) {
      const g = gradient[j]!;
      this.#m[j] = 0.9 * this.#m[j]! + 0.1 * g;
      this.#v[j] = 0.999 * this.#v[j]! + 0.001 * g * g;
      params[j]! -= (this.rate * (this.#m[j]! / c1)) / (Math.sqrt(this.#v[j]! / c2) + 1e-8);
    }
  }
}

/** Penalties: dense weights barely (they are few), words by `l2`. */
const DENSE_L2 = 1e-4;

function fitOutcomes(
  design: Design,
  rows: readonly TrainingRow[],
  train: readonly number[],
  options: TrainOptions,
): Fit {
  const size = DENSE + design.vocabulary.length;
  // params[size] is the intercept: unpenalised, not written out (a shift of every score).
  const params = new Float64Array(size + 1);
  const gains = train.map((i) => rows[i]!.outcome!.strong - rows[i]!.outcome!.weak);
  const scale = Math.max(1e-9, ...gains.map(Math.abs));
  const target = gains.map((gain) => gain / scale);
  const l2 = options.l2 ?? 0.03;
  const adam = new Adam(size + 1, 0.05);
  const gradient = new Float64Array(size + 1);
  const n = train.length;
  for (let epoch = 0; epoch < (options.epochs ?? 300); epoch++) {
    gradient.fill(0);
    for (let k = 0; k < n; k++) {
      const i = train[k]!;
      const error = (design.score(i, params) + params[size]! - target[k]!) / n;
      design.accumulate(i, error, gradient);
      gradient[size]! += error;
    }
    for (let j = 0; j < DENSE; j++) gradient[j]! += DENSE_L2 * params[j]!;
    for (let j = DENSE; j < size; j++) gradient[j]! += l2 * params[j]!;
    adam.step(params, gradient);
  }
  return { params: params.subarray(0, size) };
}

function fitTiers(
  design: Design,
  rows: readonly TrainingRow[],
  train: readonly number[],
  base: TierOptions,
  options: TrainOptions,
): Fit {
  const size = DENSE + design.vocabulary.length;
  const params = new Float64Array(size);
  const start = new Float64Array(DENSE);
  DIMENSIONS.forEach((name, d) => {
    start[d] = base.dimensions[name].weight;
  });
  params.set(start);
  const bounds = [base.boundaries.MEDIUM, base.boundaries.COMPLEX, base.boundaries.REASONING];
  const k = base.confidence.steepness;
  const rule = base.dimensions.simpleIndicators.requiredForSimple;
  const used = train.filter((i) => !design.overridden[i]);
  const l2 = options.l2 ?? 0.03;
  const adam = new Adam(size + 3, 0.005);
  const all = new Float64Array(size + 3);
  all.set(params);
  all.set(bounds, size);
  const gradient = new Float64Array(size + 3);
  const n = Math.max(1, used.length);
  const c = [0, 0, 0];
  const g = [0, 0, 0];
  for (let epoch = 0; epoch < (options.epochs ?? 300); epoch++) {
    gradient.fill(0);
    for (const i of used) {
      const s = design.score(i, all);
      for (let t = 0; t < 3; t++) c[t] = sigmoid(k * (s - all[size + t]!));
      const noSimple = rule && design.recognized[i]! && design.dense[i]![SIMPLE] === 0;
      // P(tier) for each tier, and d(sum of the listed tiers' P)/d c_t.
      const p = [
        noSimple ? 0 : 1 - c[0]!,
        noSimple ? 1 - c[1]! : c[0]! - c[1]!,
        c[1]! - c[2]!,
        c[2]!,
      ];
      g[0] = 0;
      g[1] = 0;
      g[2] = 0;
      let mass = 0;
      for (const tier of rows[i]!.tiers!) {
        const r = tierRank(tier);
        mass += p[r]!;
        if (r === 0 && !noSimple) g[0]! -= 1;
        if (r === 1) {
          if (!noSimple) g[0]! += 1;
          g[1]! -= 1;
        }
        if (r === 2) {
          g[1]! += 1;
          g[2]! -= 1;
        }
        if (r === 3) g[2]! += 1;
      }
      const inverse = -1 / Math.max(mass, 1e-9) / n;
      let ds = 0;
      for (let t = 0; t < 3; t++) {
        const slope = k * c[t]! * (1 - c[t]!) * g[t]! * inverse;
        ds += slope;
        gradient[size + t]! -= slope;
      }
      design.accumulate(i, ds, gradient);
    }
    for (let j = 0; j < DENSE; j++) gradient[j]! += DENSE_L2 * 10 * (all[j]! - (start[j] ?? 0));
    for (let j = DENSE; j < size; j++) gradient[j]! += l2 * all[j]!;
    adam.step(all, gradient);
    // Keep the boundaries in order.
    all[size + 1] = Math.max(all[size + 1]!, all[size]!);
    all[size + 2] = Math.max(all[size + 2]!, all[size + 1]!);
  }
  return {
    params: all.slice(0, size),
    boundaries: {
      MEDIUM: round(all[size]!),
      COMPLEX: round(all[size + 1]!),
      REASONING: round(all[size + 2]!),
    },
  };
}

/**
 * Boundaries on the trained score that give each tier the share of the training prompts (those
 * no override decided) that the untrained scorer's score gave it: the outcome fit says how to
 * rank prompts, not where tiers start.
 */
function matchedBoundaries(
  design: Design,
  fit: Fit,
  features: readonly PromptFeatures[],
  train: readonly number[],
  base: TierOptions,
): TierWeights['boundaries'] {
  const used = train.filter((i) => !design.overridden[i]);
  if (used.length === 0) return { ...base.boundaries };
  const counts = [0, 0, 0, 0];
  const b = base.boundaries;
  for (const i of used) {
    const s = features[i]!.score ?? 0;
    counts[s >= b.REASONING ? 3 : s >= b.COMPLEX ? 2 : s >= b.MEDIUM ? 1 : 0]!++;
  }
  const scores = used.map((i) => design.score(i, fit.params)).sort((a, b) => a - b);
  const cut = (share: number) => {
    const at = Math.round(share * scores.length);
    if (at <= 0) return scores[0]! - 1e-3;
    if (at >= scores.length) return scores[scores.length - 1]! + 1e-3;
    return (scores[at - 1]! + scores[at]!) / 2;
  };
  const n = used.length;
  return {
    MEDIUM: round(cut(counts[0]! / n)),
    COMPLEX: round(cut((counts[0]! + counts[1]!) / n)),
    REASONING: round(cut((counts[0]! + counts[1]! + counts[2]!) / n)),
  };
}

/** Word weights smaller than this are left out of the file: they move no decision. */
const MIN_WORD_WEIGHT = 1e-3;

/**
 * Which of the reasoning and complexity overrides (on in `base`) to keep with an outcome fit: an
 * override sends its prompts to the strong tier before any score does, which helps only if they
 * gain more from the strong model than the prompts the fitted score ranks first. Each is kept
 * when the fitted rows' APGR with it is at least that without it.
 */
function helpfulOverrides(
  design: Design,
  fit: Fit,
  rows: readonly TrainingRow[],
  features: readonly PromptFeatures[],
  train: readonly number[],
  base: TierOptions,
): NonNullable<TierWeights['overrides']> {
  const scores = train.map((i) => design.score(i, fit.params));
  const outcomes = train.map((i) => rows[i]!.outcome!);
  const apgr = (kept: ReadonlySet<string>) =>
    routingCurve(
      train.map((i, k) => {
        const override = features[i]!.override;
        return override === 'huge-context' || (override !== undefined && kept.has(override))
          ? Number.POSITIVE_INFINITY
          : scores[k]!;
      }),
      outcomes,
    ).apgr;
  const kept = new Set<string>();
  if (base.overrides.reasoning.enabled) kept.add('reasoning');
  if (base.overrides.complexity.enabled) kept.add('complexity');
  for (const name of ['reasoning', 'complexity'] as const) {
    if (!kept.has(name)) continue;
    const without = new Set(kept);
    without.delete(name);
    if (apgr(without) > apgr(kept)) kept.delete(name);
  }
  return { reasoning: kept.has('reasoning'), complexity: kept.has('complexity') };
}

function toWeights(
  fit: Fit,
  vocabulary: readonly string[],
  boundaries: TierWeights['boundaries'],
  fittedTo: 'tiers' | 'outcomes',
  overrides: TierWeights['overrides'],
  training: Record<string, unknown>,
): TierWeights {
  const p = fit.params;
  const dimensions = Object.fromEntries(DIMENSIONS.map((name, d) => [name, round(p[d]!)]));
  const words: Record<string, number> = {};
  vocabulary.forEach((word, i) => {
    const value = round(p[DENSE + i]!);
    if (Math.abs(value) >= MIN_WORD_WEIGHT) words[word] = value;
  });
  const f = DIMENSIONS.length;
  return tierWeights({
    version: 1,
    fittedTo,
    dimensions,
    boundaries,
    learned: {
      features: {
        logTokens: round(p[f]! * FEATURE_SCALES.logTokens),
        logNumbers: round(p[f + 1]! * FEATURE_SCALES.logNumbers),
        questionMarks: round(p[f + 2]! * FEATURE_SCALES.questionMarks),
      },
      words,
    },
    ...(overrides ? { overrides } : {}),
    training,
  });
}

function outcomeFigures(
  rows: readonly TrainingRow[],
  indices: readonly number[],
  trained: TierRouter,
  untrained: TierRouter,
): OutcomeFigures {
  const inputs = indices.map((i) => rows[i]!.input);
  const outcomes = indices.map((i) => rows[i]!.outcome!);
  const after = routingScores(trained, inputs);
  const before = routingScores(untrained, inputs);
  return {
    rows: indices.length,
    trained: routingCurve(after.router, outcomes).apgr,
    untrained: routingCurve(before.router, outcomes).apgr,
    length: routingCurve(before.length, outcomes).apgr,
  };
}

function groupFigures(
  rows: readonly TrainingRow[],
  indices: readonly number[],
  trained: TierRouter,
  untrained: TierRouter,
): Record<string, OutcomeFigures> {
  return Object.fromEntries(
    indicesByGroup(indices.map((i) => rows[i]!.group)).map(([group, list]) => [
      group,
      outcomeFigures(
        rows,
        list.map((k) => indices[k]!),
        trained,
        untrained,
      ),
    ]),
  );
}

function tierFigures(
  rows: readonly TrainingRow[],
  indices: readonly number[],
  trained: TierRouter,
  untrained: TierRouter,
): TierFigures {
  const measure = (router: TierRouter) => {
    let correct = 0;
    let local = 0;
    let localCorrect = 0;
    for (const i of indices) {
      const decision = router.classify(rows[i]!.input);
      const right = rows[i]!.tiers!.includes(decision.tier);
      if (right) correct++;
      if (decision.source === 'local') {
        local++;
        if (right) localCorrect++;
      }
    }
    const n = Math.max(1, indices.length);
    return {
      accuracy: correct / n,
      local: local / n,
      localAccuracy: local === 0 ? 0 : localCorrect / local,
    };
  };
  return { rows: indices.length, trained: measure(trained), untrained: measure(untrained) };
}

function sigmoid(x: number): number {
  return 1 / (1 + Math.exp(-x));
}

/** Rounded to 6 decimals: the file stays short and the scores the same to a millionth. */
function round(x: number): number {
  return Math.round(x * 1e6) / 1e6;
}
