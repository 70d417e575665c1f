import type { ContextModeSpec, FeatureSpec } from './schema.js';

/**
 * The original design's weighted scores, compiled from the mode table into flat arrays so that scoring a
 * question is a few dozen multiply-adds with no allocation:
 *
 *     feature  = base + Σ weight(signal)            for each matched signal, once (a departure from the original design)
 *     score    = Σ factor × feature                 (or factor × max(0, feature − over))
 *              + Σ add                              for each bonus whose conditions all hold
 */
export class ModeScorer {
  /** Mode names, in table order (the index of a score). */
  readonly modes: readonly string[];
  /** Feature names (the index of a feature value). */
  readonly features: readonly string[];
  readonly #featureBase: Float64Array;
  readonly #featureStart: Int32Array;
  readonly #featureSignal: Int32Array;
  readonly #featureWeight: Float64Array;
  readonly #termStart: Int32Array;
  readonly #termFeature: Int32Array;
  readonly #termFactor: Float64Array;
  /** NaN where the term is linear. */
  readonly #termOver: Float64Array;
  readonly #bonusStart: Int32Array;
  readonly #bonusAdd: Float64Array;
  readonly #bonusSignalStart: Int32Array;
  readonly #bonusSignal: Int32Array;
  readonly #bonusAboveStart: Int32Array;
  readonly #bonusAboveFeature: Int32Array;
  readonly #bonusAboveValue: Float64Array;
  readonly #values: Float64Array;

  /**
   * Compiles validated tables; `signalIndex` maps a signal name to its flag index. Names are
   * assumed to be cross-checked (see `contextRouterConfig`).
   */
  constructor(
    features: Readonly<Record<string, FeatureSpec>>,
    modes: Readonly<Record<string, ContextModeSpec>>,
    signalIndex: ReadonlyMap<string, number>,
  ) {
    this.features = Object.keys(features);
    this.modes = Object.keys(modes);
    const featureIndex = new Map(this.features.map((name, i) => [name, i]));
    const lookup = (map: ReadonlyMap<string, number>, name: string) => {
      const index = map.get(name);
      if (index === undefined) throw new RangeError(`unknown name in context scores: ${name}`);
      return index;
    };

    const featureSpecs = Object.values(features);
    this.#featureBase = Float64Array.from(featureSpecs, (f) => f.base);
    const weights = featureSpecs.map((f) => Object.entries(f.weights));
    this.#featureStart = offsets(weights);
    this.#featureSignal = Int32Array.from(weights.flat(), ([signal]) =>
      lookup(signalIndex, signal),
    );
    this.#featureWeight = Float64Array.from(weights.flat(), ([, weight]) => weight);

    const scores = Object.values(modes).map((mode) => mode.score);
    const terms = scores.map((score) => score.terms);
    this.#termStart = offsets(terms);
    this.#termFeature = Int32Array.from(terms.flat(), (t) => lookup(featureIndex, t.feature));
    this.#termFactor = Float64Array.from(terms.flat(), (t) => t.factor);
    this.#termOver = Float64Array.from(terms.flat(), (t) => t.over ?? Number.NaN);

    const bonuses = scores.map((score) => score.bonuses);
    const allBonuses = bonuses.flat();
    this.#bonusStart = offsets(bonuses);
    this.#bonusAdd = Float64Array.from(allBonuses, (b) => b.add);
    const bonusSignals = allBonuses.map((b) => b.signals);
    this.#bonusSignalStart = offsets(bonusSignals);
    this.#bonusSignal = Int32Array.from(bonusSignals.flat(), (name) => lookup(signalIndex, name));
    const above = allBonuses.map((b) => Object.entries(b.above));
    this.#bonusAboveStart = offsets(above);
    this.#bonusAboveFeature = Int32Array.from(above.flat(), ([name]) => lookup(featureIndex, name));
    this.#bonusAboveValue = Float64Array.from(above.flat(), ([, value]) => value);
    this.#values = new Float64Array(this.features.length);
  }

  /** Writes each mode's score for the matched `flags` into `out` (indexed like {@link modes}). */
  score(flags: Uint8Array, out: Float64Array): void {
    const values = this.#values;
    for (let f = 0; f < values.length; f++) {
      let value = this.#featureBase[f]!;
      for (let t = this.#featureStart[f]!; t < this.#featureStart[f + 1]!; t++) {
        if (flags[this.#featureSignal[t]!] === 1) value += this.#featureWeight[t]!;
      }
      values[f] = value;
    }
    for (let m = 0; m < this.modes.length; m++) {
      let score = 0;
      for (let t = this.#termStart[m]!; t < this.#termStart[m + 1]!; t++) {
        const value = values[this.#termFeature[t]!]!;
        const over = this.#termOver[t]!;
        if (Number.isNaN(over)) score += this.#termFactor[t]! * value;
        else if (value > over) score += this.#termFactor[t]! * (value - over);
      }
      for (let b = this.#bonusStart[m]!; b < this.#bonusStart[m + 1]!; b++) {
        if (this.#bonusHolds(b, flags, values)) score += this.#bonusAdd[b]!;
      }
      out[m] = score;
    }
  }

  /** The value of each feature from the last {@link score} call (a copy). */
  lastFeatures(): Record<string, number> {
    return Object.fromEntries(this.features.map((name, f) => [name, this.#values[f]!]));
  }

  #bonusHolds(b: number, flags: Uint8Array, values: Float64Array): boolean {
    for (let s = this.#bonusSignalStart[b]!; s < this.#bonusSignalStart[b + 1]!; s++) {
      if (flags[this.#bonusSignal[s]!] !== 1) return false;
    }
    for (let a = this.#bonusAboveStart[b]!; a < this.#bonusAboveStart[b + 1]!; a++) {
      if (!(values[this.#bonusAboveFeature[a]!]! > this.#bonusAboveValue[a]!)) return false;
    }
    return true;
  }
}

/**
 * The original design's `_confidence`: 0.5 plus the normalised margin between the two best scores,
 * capped at 0.99. When the second score is not positive: 0.99 if the best one is, else 0.34.
 * (The router itself treats "no signal matched" as low confidence before calling this.)
 */
export function confidenceFromScores(top: number, second: number): number {
  if (second <= 0) return top > 0 ? 0.99 : 0.34;
  const margin = (top - second) / (top + second + 1e-6);
  return Math.min(0.99, Math.max(0, 0.5 + margin));
}

function offsets(groups: readonly (readonly unknown[])[]): Int32Array {
  const out = new Int32Array(groups.length + 1);
  groups.forEach((group, i) => {
    out[i + 1] = out[i]! + group.length;
  });
  return out;
}
