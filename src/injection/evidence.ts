import { clearArray } from '../core/arrays.js';
import type { InjectionSignal, SignalKind } from './types.js';

/**
 * Collects signals: across a whole text (the evidence) and within one section (for the section's
 * score). A signal counts once: one with the same label, or of the same kind over overlapping
 * words ("ai assistant: ignore" and "assistant: ignore"), is merged into the first, keeping the
 * higher weight and the wider span.
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
    clearArray(this.#list);
  }

  /** Adds a signal, or merges it into the one it repeats. */
  add(kind: SignalKind, label: string, start: number, end: number, weight: number): void {
    const list = this.#list;
    if (mergeInto(list, kind, label, start, end, weight)) return;
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
  readonly #signals: MutableSignal[] = [];
  readonly #persona: MutableSignal[] = [];
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
    return this.#signals.length === 0 && this.#persona.length === 0;
  }

  /** True when the section has a persona signal. */
  get hasPersona(): boolean {
    return this.#persona.length > 0;
  }

  reset(): void {
    clearArray(this.#signals);
    clearArray(this.#persona);
    this.personaStart = -1;
    this.#personaBest = 0;
    this.noLimits = 0;
    this.roleHeaders = 0;
    this.roleHeaderStart = -1;
    clearArray(this.#roleHeaderIds);
  }

  /** Counts a signal once (see the module comment). */
  add(kind: SignalKind, label: string, start: number, end: number, weight: number): void {
    if (!mergeInto(this.#signals, kind, label, start, end, weight)) {
      this.#signals.push({ kind, label, start, end, weight });
    }
  }

  /** Counts a persona signal (capped together at {@link PERSONA_CAP}). */
  addPersona(kind: SignalKind, label: string, start: number, end: number, weight: number): void {
    if (!mergeInto(this.#persona, kind, label, start, end, weight)) {
      this.#persona.push({ kind, label, start, end, weight });
    }
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
    const keep = product(this.#signals);
    const persona = Math.min(PERSONA_CAP, 1 - product(this.#persona));
    return 1 - keep * (1 - persona);
  }
}

/**
 * Merges a signal into the one of `list` it repeats (same label, or same kind over overlapping
 * words); returns false when it repeats none.
 */
function mergeInto(
  list: MutableSignal[],
  kind: SignalKind,
  label: string,
  start: number,
  end: number,
  weight: number,
): boolean {
  for (const known of list) {
    const overlaps = known.kind === kind && start < known.end && known.start < end;
    if (known.label !== label && !overlaps) continue;
    if (known.label !== label && end - start > known.end - known.start) known.label = label;
    if (overlaps) {
      known.start = Math.min(known.start, start);
      known.end = Math.max(known.end, end);
    } else if (weight > known.weight) {
      known.start = start;
      known.end = end;
    }
    known.weight = Math.max(known.weight, weight);
    return true;
  }
  return false;
}

/** The product of (1 − weight), each weight capped at 0.99 so one signal never decides alone. */
function product(signals: readonly MutableSignal[]): number {
  let keep = 1;
  for (const signal of signals) keep *= 1 - Math.min(signal.weight, 0.99);
  return keep;
}

function round(value: number): number {
  return Math.round(value * 1000) / 1000;
}
