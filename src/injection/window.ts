import type { LexiconScan } from '../text/index.js';
import type { InjectionLexicon } from './lexicon.js';

/**
 * A window of several clauses scanned with one lexicon call, to find the clauses where a signal
 * can fire without scanning each clause (a call costs about as much as scanning 40 characters,
 * and most clauses of a document have nothing).
 *
 * Only _trigger_ entries matter: a signal needs a verb (of a pair), a standalone phrase or a
 * line-start phrase in its clause; nouns, scopes, targets and modifiers never fire alone, and
 * some of them (`the`, `previous`) occur in nearly every clause of a document. A verb fires only
 * with a target or a noun of its pair in its clause, so in a window without any (a document that
 * says "email" or "return" but never "instructions" or "system prompt") it is no trigger.
 *
 * Why a window tells the truth about its clauses: the analyzer joins clauses into a window only
 * where a clause ends at white space, which the lexicon reads as a separator. A phrase found in
 * a clause scanned alone is then found at the same offset in the window (the white space bounds
 * it as the clause end did, and the text before the clause does not change where its words
 * start). So a clause wholly before the window's earliest trigger has no trigger of its own.
 * The lexicon reports an entry's first offset and its number of occurrences; after the analyzer
 * scans the clause of a trigger, the next trigger is the earliest first offset after that clause
 * as long as every occurrence of the entries found so far is accounted for by the clauses
 * scanned; otherwise a later occurrence is unknown and the rest of the window is scanned again.
 * A window may report a phrase spanning two clauses, which no clause scan finds: the analyzer
 * then scans a clause for nothing, which costs time, never accuracy.
 */
/**
 * Most characters of a window: long enough to amortise a call, short enough that a trigger
 * seldom occurs twice in it (which makes the window fall back to scanning clause by clause).
 * Measured on the 100 KB bench document: 768 is 3% faster than 512; 2048 is 35% slower (a
 * verb that occurs every 1,400 characters falls back in most windows).
 */
export const MAX_SPAN = 768;
/** The length of the first window tried after a fallback. */
const RETRY_SPAN = 128;
/** Clauses scanned one by one after a first fallback (doubling at each further one). */
const MIN_BACKOFF = 4;
const MAX_BACKOFF = 256;

/** What an entry is to a window: never a trigger, always one, or a verb (its pair, 0 or more). */
export const NOT_TRIGGER = -2;
export const TRIGGER = -1;

export class ClauseWindow {
  readonly #lexicons: readonly InjectionLexicon[];
  readonly #scans: LexiconScan[];
  /** Per lexicon, per entry: NOT_TRIGGER, TRIGGER, or for a verb its pair. */
  readonly #trigger: Int8Array[];
  /** Per lexicon, per entry: the pair of a target or noun, else -1. */
  readonly #object: Int8Array[];
  /**
   * Per lexicon, per entry: the protection bits an entry needs to mean anything (a word that
   * names a secret only where a system prompt guards one), else 0.
   */
  readonly #needs: Uint8Array[];
  /** What the current text's system prompt protects (see {@link begin}). */
  #protects = 0;
  /** Per pair: whether the current window holds a target or noun of it. */
  readonly #live: Uint8Array;
  /** Per lexicon, per entry: occurrences found by the clause scans of this window so far. */
  readonly #seen: Int32Array[];
  /** Where the window ends (exclusive). */
  end = 0;
  /** Most characters of the next window; 0 while clauses are scanned one by one. */
  span: number;
  /** Clauses left to scan one by one before a window is tried again. */
  #wait = 0;
  /** Clauses to scan one by one after the next fallback. */
  #backoff = MIN_BACKOFF;
  /** The current window has fallen back to scanning its clauses one by one. */
  #fellBack = false;
  /** Characters of the current window in clauses that were scanned. */
  #scanned = 0;
  #start = 0;
  #windowed = false;

  readonly #maxSpan: number;

  /**
   * `lexicons`: the built-in one and the configuration's; `triggerOf` says what an entry is to a
   * window (see {@link NOT_TRIGGER}), `objectOf` the pair of a target or noun (-1 otherwise),
   * `needsOf` the protection an entry needs to count (0: none), `pairs` how many pairs there
   * are; `maxSpan` is the longest window (0: every clause is scanned on its own, as the tests
   * compare).
   */
  constructor(
    lexicons: readonly InjectionLexicon[],
    triggerOf: (lex: InjectionLexicon, id: number) => number,
    objectOf: (lex: InjectionLexicon, id: number) => number,
    needsOf: (lex: InjectionLexicon, id: number) => number,
    pairs: number,
    maxSpan = MAX_SPAN,
  ) {
    this.#maxSpan = maxSpan;
    this.span = maxSpan;
    this.#lexicons = lexicons;
    this.#scans = lexicons.map((lex) => lex.lexicon.scan(''));
    this.#trigger = lexicons.map((lex) =>
      Int8Array.from(lex.lexicon.entries, (entry) => triggerOf(lex, entry.id)),
    );
    this.#object = lexicons.map((lex) =>
      Int8Array.from(lex.lexicon.entries, (entry) => objectOf(lex, entry.id)),
    );
    this.#needs = lexicons.map((lex) =>
      Uint8Array.from(lex.lexicon.entries, (entry) => needsOf(lex, entry.id)),
    );
    this.#live = new Uint8Array(pairs);
    this.#seen = lexicons.map((lex) => new Int32Array(lex.lexicon.entries.length));
  }

  /**
   * Starts a text at `start`, sent against a system prompt that protects `protects` (bits):
   * entries that need a protection the prompt does not have are neither triggers nor objects.
   */
  begin(start: number, protects = 0): void {
    this.#protects = protects;
    this.end = start;
    this.span = this.#maxSpan;
    this.#wait = 0;
    this.#backoff = MIN_BACKOFF;
    this.#windowed = false;
  }

  /**
   * Scans `text[start, end)` with every lexicon and returns where its first trigger may stand
   * (see {@link nextTrigger}).
   */
  open(text: string, start: number, end: number): number {
    this.#settle();
    const live = this.#live;
    live.fill(0);
    for (let i = 0; i < this.#scans.length; i++) {
      const scan = this.#lexicons[i]!.lexicon.scan(text, this.#scans[i], start, end);
      const seen = this.#seen[i]!;
      const object = this.#object[i]!;
      const needs = this.#needs[i]!;
      for (let k = 0; k < scan.hitCount; k++) {
        const id = scan.hitEntry(k).id;
        seen[id] = 0;
        const pair = object[id]!;
        if (pair >= 0 && (needs[id] === 0 || (needs[id]! & this.#protects) !== 0)) live[pair] = 1;
      }
    }
    this.#start = start;
    this.end = end;
    this.#windowed = true;
    this.#fellBack = false;
    this.#scanned = 0;
    return this.nextTrigger(start);
  }

  /**
   * Scans the rest of the text clause by clause (no windows): for a text whose every clause
   * matters, even one without a trigger (a short text sent against a guarded secret, where
   * "Password:" alone is a request).
   */
  clauseByClause(): void {
    this.span = 0;
    this.#wait = Number.MAX_SAFE_INTEGER;
  }

  /** A clause ending at `end` scanned on its own; returns -1 (it must be scanned). */
  single(end: number): number {
    this.#settle();
    this.end = end;
    this.#windowed = false;
    if (this.#wait > 0 && --this.#wait === 0) this.span = Math.min(RETRY_SPAN, this.#maxSpan);
    return -1;
  }

  /** Notes that a clause of `chars` characters of the window was scanned. */
  scanned(chars: number): void {
    this.#scanned += chars;
  }

  /**
   * After a window: one that spared most of its clauses a scan lets the next be longer; while
   * windows do not (they fall back, or most clauses hold a trigger), they are tried less and
   * less often, so that a text dense with triggers is scanned clause by clause, as it would be
   * without windows, at a small cost.
   */
  #settle(): void {
    if (!this.#windowed) return;
    if (this.#fellBack || this.#scanned * 2 > this.end - this.#start) {
      this.span = 0;
      this.#wait = this.#backoff;
      this.#backoff = Math.min(this.#backoff * 2, MAX_BACKOFF);
    } else {
      this.span = Math.min(this.span * 2, this.#maxSpan);
      this.#backoff = MIN_BACKOFF;
    }
    this.#windowed = false;
  }

  /** Counts the occurrences a clause scan of lexicon `i` found (the whole clause, once). */
  account(i: number, clause: LexiconScan): void {
    const trigger = this.#trigger[i]!;
    const seen = this.#seen[i]!;
    for (let k = 0; k < clause.hitCount; k++) {
      const id = clause.hitEntry(k).id;
      if (trigger[id] !== NOT_TRIGGER) seen[id]! += clause.hitOccurrences(k);
    }
  }

  /**
   * The earliest offset at or after `from` where a trigger may stand (+∞ when none is left), or
   * -1 when an occurrence of a trigger found before `from` is not accounted for by the clauses
   * scanned: the rest of the window must then be scanned again.
   */
  nextTrigger(from: number): number {
    let earliest = Number.POSITIVE_INFINITY;
    const live = this.#live;
    for (let i = 0; i < this.#scans.length; i++) {
      const scan = this.#scans[i]!;
      const trigger = this.#trigger[i]!;
      const seen = this.#seen[i]!;
      const needs = this.#needs[i]!;
      for (let k = 0; k < scan.hitCount; k++) {
        const id = scan.hitEntry(k).id;
        const role = trigger[id]!;
        if (role === NOT_TRIGGER || (role >= 0 && live[role] === 0)) continue;
        if (needs[id] !== 0 && (needs[id]! & this.#protects) === 0) continue;
        const at = scan.hitIndex(k);
        if (at >= from) {
          if (at < earliest) earliest = at;
        } else if (scan.hitOccurrences(k) > seen[id]!) {
          this.#fellBack = true;
          return -1;
        }
      }
    }
    return earliest;
  }
}
