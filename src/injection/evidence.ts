import type { InjectionSignal, SignalKind } from './types.js';

/**
 * Collects signals: across a whole text (the evidence, deduplicated by label, the strongest
 * occurrence kept) and within one section (for the section's score).
 */

/** A signal being collected. */
interface MutableSignal {
  kind: SignalKind;
  label: string;
  start: number;
  end: number;
  weight: number;
}

/** Most distinct signals kept per text; beyond it only stronger ones replace weaker ones. */
const MAX_KEPT = 256;

/** The evidence of one text. */
export class SignalSet {
  readonly #list: MutableSignal[] = [];

  get size(): number {
    return this.#list.length;
  }

  clear(): void {
    this.#list.length = 0;
  }

  /** Adds a signal, or raises the weight of the one with the same label. */
  add(kind: SignalKind, label: string, start: number, end: number, weight: number): void {
    const list = this.#list;
    for (const known of list) {
      if (known.label === label) {
        if (weight > known.weight) {
          known.weight = weight;
          known.start = start;
          known.end = end;
        }
        return;
      }
    }
    if (list.length < MAX_KEPT) {
      list.push({ kind, label, start, end, weight });
      return;
    }
    let weakest = 0;
    for (let i = 1; i < list.length; i++) if (list[i]!.weight < list[weakest]!.weight) weakest = i;
    if (list[weakest]!.weight < weight) list[weakest] = { kind, label, start, end, weight };
  }

  /** The strongest signal, if any. */
  strongest(): InjectionSignal | undefined {
    let best: MutableSignal | undefined;
    for (const signal of this.#list) if (!best || signal.weight > best.weight) best = signal;
    return best;
  }

  /** The signals, strongest first (ties: earliest first), at most `limit`. */
  top(limit: number): InjectionSignal[] {
    return [...this.#list]
      .sort((a, b) => b.weight - a.weight || a.start - b.start)
      .slice(0, limit)
      .map((s) => ({
        kind: s.kind,
        label: s.label,
        start: s.start,
        end: s.end,
        weight: round(s.weight),
      }));
  }
}

/**
 * The most persona signals add up to in one section: "act as", "pretend to be", "stay in
 * character" describe ordinary role-play too, so on their own they never make a text suspicious;
 * combined with "no limits" signals they do (see the analyzer's combinations).
 */
export const PERSONA_CAP = 0.3;

/** The signals of one section of a text (a chat message is one section). */
export class Section {
  readonly #labels: string[] = [];
  readonly #weights: number[] = [];
  readonly #personaLabels: string[] = [];
  readonly #personaWeights: number[] = [];
  /** Where the strongest persona signal was. */
  personaStart = -1;
  #personaBest = 0;
  /** Strongest "no limits" signal (unrestricted, jailbreak). */
  noLimits = 0;
  /** Distinct role headers (`System:`, `Assistant:`) at line starts, and where the first was. */
  roleHeaders = 0;
  roleHeaderStart = -1;
  readonly #roleHeaderIds: number[] = [];

  get empty(): boolean {
    return this.#labels.length === 0 && this.#personaLabels.length === 0;
  }

  /** True when the section has a persona signal. */
  get hasPersona(): boolean {
    return this.#personaLabels.length > 0;
  }

  reset(): void {
    this.#labels.length = 0;
    this.#weights.length = 0;
    this.#personaLabels.length = 0;
    this.#personaWeights.length = 0;
    this.personaStart = -1;
    this.#personaBest = 0;
    this.noLimits = 0;
    this.roleHeaders = 0;
    this.roleHeaderStart = -1;
    this.#roleHeaderIds.length = 0;
  }

  /** Counts a signal once per label (the strongest occurrence). */
  add(label: string, weight: number): void {
    addOnce(this.#labels, this.#weights, label, weight);
  }

  /** Counts a persona signal (capped together at {@link PERSONA_CAP}). */
  addPersona(label: string, weight: number, start: number): void {
    addOnce(this.#personaLabels, this.#personaWeights, label, weight);
    if (weight > this.#personaBest) {
      this.#personaBest = weight;
      this.personaStart = start;
    }
  }

  /** Records a role header entry (distinct entries are counted). */
  addRoleHeader(entryId: number, start: number): void {
    if (this.#roleHeaderIds.includes(entryId)) return;
    this.#roleHeaderIds.push(entryId);
    this.roleHeaders++;
    if (this.roleHeaderStart < 0) this.roleHeaderStart = start;
  }

  /** The noisy-or of the section's signals. */
  score(): number {
    const keep = product(this.#weights);
    const persona = Math.min(PERSONA_CAP, 1 - product(this.#personaWeights));
    return 1 - keep * (1 - persona);
  }
}

function addOnce(labels: string[], weights: number[], label: string, weight: number): void {
  const at = labels.indexOf(label);
  if (at < 0) {
    labels.push(label);
    weights.push(weight);
  } else if (weight > weights[at]!) weights[at] = weight;
}

/** The product of (1 − weight), each weight capped at 0.99 so one signal never decides alone. */
function product(weights: readonly number[]): number {
  let keep = 1;
  for (const weight of weights) keep *= 1 - Math.min(weight, 0.99);
  return keep;
}

function round(value: number): number {
  return Math.round(value * 1000) / 1000;
}
