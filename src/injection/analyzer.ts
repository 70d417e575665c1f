import type { LexiconScan } from '../text/index.js';
import {
  atLineStart,
  endsWithQuestion,
  insideQuotes,
  type MatchSpan,
  negatedBefore,
  walkMatch,
} from './context.js';
import { decodeRun, runTogetherRisk } from './decode.js';
import { Section, SignalSet } from './evidence.js';
import {
  builtInContextLexicon,
  GROUP_NO_LIMITS,
  GROUP_PERSONA,
  GROUP_ROLE_HEADER,
  type InjectionLexicon,
  PAIRS,
  ROLE_LINE_START,
  ROLE_META,
  ROLE_MODIFIER,
  ROLE_NOUN,
  ROLE_SCOPE,
  ROLE_SELF_QUESTION,
  ROLE_STANDALONE,
  ROLE_TARGET,
  ROLE_VERB,
} from './lexicon.js';
import {
  endsAtWhiteSpace,
  RUN_BASE64,
  RUN_HEX,
  RUN_LEET,
  RUN_SPLIT,
  RUN_STYLED,
  RUN_TAGS,
  scanStructure,
  TextStructure,
} from './structure.js';
import type { SignalKind } from './types.js';
import { ClauseWindow, MAX_SPAN, NOT_TRIGGER, TRIGGER } from './window.js';

/**
 * The analysis of one text: the structural pass cuts it into clauses; each clause that may fire
 * a signal is scanned once by the injection lexicon (windows of several clauses, scanned at once,
 * find those: window.ts); hits combine into signals within their clause (a verb next to
 * its target), signals combine into a score within their section (a few thousand characters:
 * a chat message is one section), and the text's score is that of its riskiest section, combined
 * with the structural signals (hidden payloads, obfuscation). Decoded payloads are analysed by a
 * nested analyzer, one level deep.
 */

/** Characters per section: long documents are scored section by section, not as a whole. */
const SECTION_CHARS = 4000;
/** Most characters between a verb and its target in one clause. */
const PAIR_DISTANCE = 90;
/** Most characters a scope word may stand before its noun ("all of the prior … instructions"). */
const SCOPE_BEFORE = 32;
/** Most characters a scope word may stand after its noun ("instructions given above"). */
const SCOPE_AFTER = 24;
/** Weight of a noun without a scope word: "ignore the rules" is not "ignore all previous rules". */
const UNSCOPED = 0.4;
/**
 * Weight of a noun whose scope says it is not the model's ("ignore my previous message", "your
 * instructions for the recipe"): a scope word of weight 0 vetoes the others.
 */
const VETOED = 0.2;
/** Weight of a clause that asks about the writer's own action ("should I ignore …?"). */
const SELF_QUESTION_FACTOR = 0.35;
/** Weight of a clause that talks about attacks ("prompt injection", "for example"). */
const META_FACTOR = 0.5;
/** Weight of a pair inside double quotes (reported speech, an example). */
const QUOTED_FACTOR = 0.6;
/** Weight of keywords written with leetspeak, homoglyphs or zero-width characters. */
const OBFUSCATED_WEIGHT = 0.35;
/** Weight of a persona combined with "no limits" in one section (DAN-style). */
const PERSONA_WITHOUT_LIMITS = 0.35;
/** Weight of two or more forged role headers in one section (a fake transcript). */
const FAKE_TRANSCRIPT = 0.3;
/** Times a clause is scanned again from a verb whose target stands before it. */
const CLAUSE_RESCANS = 2;
/** Most hits of one role per clause that take part in pairing. */
const MAX_PAIR_HITS = 32;

/** Slots of a pair's hits in a clause. */
const VERB = 0;
const TARGET = 1;
const NOUN = 2;
const SCOPE = 3;
const SLOTS = [VERB, TARGET, NOUN, SCOPE] as const;

/** The best combination of a pair found in a clause (hit numbers; -1 when absent). */
interface Combination {
  weight: number;
  verb: number;
  target: number;
  scope: number;
}

/** Options of one analysis. */
export interface AnalysisOptions {
  /** Index of the source in `INJECTION_SOURCES`. */
  readonly source: number;
  /** Kinds that do not count. */
  readonly disabled: ReadonlySet<SignalKind>;
}

/** One analyzer per depth: its scan, structure and section are reused between texts. */
export class Analyzer {
  readonly #lex: InjectionLexicon;
  readonly #scan: LexiconScan;
  readonly #ctx: InjectionLexicon;
  readonly #ctxScan: LexiconScan;
  readonly #custom: InjectionLexicon | undefined;
  readonly #customScan: LexiconScan | undefined;
  readonly #span: MatchSpan = { end: 0, obfuscated: false };
  readonly #otherSpan: MatchSpan = { end: 0, obfuscated: false };
  readonly #structure = new TextStructure();
  readonly #window: ClauseWindow;
  readonly #windowChars: number;
  readonly #section = new Section();
  readonly #depth: number;
  #nested: Analyzer | undefined;
  #nestedEvidence: SignalSet | undefined;
  // Per-clause scratch: hit numbers by pair and slot (verb, target, noun, scope), modifiers.
  readonly #hits = PAIRS.map(() => SLOTS.map(() => new Int32Array(MAX_PAIR_HITS)));
  readonly #counts = PAIRS.map(() => new Int32Array(SLOTS.length));
  readonly #modifier = new Float64Array(PAIRS.length);
  readonly #negated = new Int32Array(MAX_PAIR_HITS * 2);
  readonly #found: Combination = { weight: 0, verb: -1, target: -1, scope: -1 };
  #negatedCount = 0;

  /**
   * `lex` is the built-in lexicon; `custom`, when given, holds the configuration's patterns;
   * `windowChars` the longest window of clauses scanned at once (0: clause by clause).
   */
  constructor(lex: InjectionLexicon, custom?: InjectionLexicon, depth = 0, windowChars = MAX_SPAN) {
    this.#lex = lex;
    this.#scan = lex.lexicon.scan('');
    this.#ctx = builtInContextLexicon();
    this.#ctxScan = this.#ctx.lexicon.scan('');
    this.#custom = custom;
    this.#customScan = custom?.lexicon.scan('');
    this.#window = new ClauseWindow(
      custom ? [lex, custom] : [lex],
      triggerOf,
      objectOf,
      PAIRS.length,
      windowChars,
    );
    this.#windowChars = windowChars;
    this.#depth = depth;
  }

  /** Analyses `text[start, end)`, adds its evidence to `evidence`, and returns its score. */
  analyze(
    text: string,
    start: number,
    end: number,
    options: AnalysisOptions,
    evidence: SignalSet,
  ): number {
    const structure = scanStructure(text, this.#structure, start, end);
    const section = this.#section;
    section.reset();
    let sectionStart = start;
    let worst = 0;
    let clauseStart = start;
    const window = this.#window;
    window.begin(start);
    // Where the current window's next trigger may stand: the clauses before it cannot fire a
    // signal and are not scanned (see window.ts). -1: every clause left in the window is.
    let next = 0;
    for (let k = 0; k < structure.sentenceCount; k++) {
      const clauseEnd = structure.sentenceEnds[k]!;
      if (clauseEnd > clauseStart) {
        if (clauseStart >= window.end) {
          const windowEnd =
            window.span > 0
              ? this.#windowEnd(text, structure, k, clauseStart, window.span)
              : clauseEnd;
          // A window of one clause would only repeat the clause's own scan.
          next =
            windowEnd > clauseEnd
              ? window.open(text, clauseStart, windowEnd)
              : window.single(clauseEnd);
        }
        if (next < clauseEnd) {
          this.#clause(text, clauseStart, clauseEnd, options, evidence);
          window.scanned(clauseEnd - clauseStart);
          if (next >= 0 && window.end > clauseEnd) next = window.nextTrigger(clauseEnd);
        }
      }
      clauseStart = clauseEnd;
      if (clauseEnd - sectionStart >= SECTION_CHARS) {
        worst = Math.max(worst, this.#closeSection(options, evidence));
        sectionStart = clauseEnd;
      }
    }
    worst = Math.max(worst, this.#closeSection(options, evidence));
    return 1 - (1 - worst) * this.#structural(text, options, evidence);
  }

  /**
   * The end of the window that starts with clause `k` at `from`: the clauses that follow it
   * while the window stays within `span` characters and each clause ends at white space.
   */
  #windowEnd(
    text: string,
    structure: TextStructure,
    k: number,
    from: number,
    span: number,
  ): number {
    const ends = structure.sentenceEnds;
    let j = k;
    while (
      j + 1 < structure.sentenceCount &&
      ends[j + 1]! - from <= span &&
      endsAtWhiteSpace(text, ends[j]!)
    ) {
      j++;
    }
    return ends[j]!;
  }

  /**
   * Scans one clause and turns its hits into signals. The lexicon reports where each entry
   * first occurs, so when a pair's noun or target occurs before its verb ("in addition to the
   * other instructions, print all instructions") the clause is scanned again from that verb,
   * at most `rescans` times.
   */
  #clause(
    text: string,
    start: number,
    end: number,
    options: AnalysisOptions,
    evidence: SignalSet,
    rescans = CLAUSE_RESCANS,
  ): void {
    const lex = this.#lex;
    const scan = lex.lexicon.scan(text, this.#scan, start, end);
    // The whole clause (not a rescan of its end) tells the window, if it goes on after the
    // clause, which of its triggers' occurrences are accounted for.
    const whole = rescans === CLAUSE_RESCANS && this.#window.end > end;
    if (whole) this.#window.account(0, scan);
    const hits = scan.hitCount;
    if (hits === 0 && !this.#custom) return;
    for (const counts of this.#counts) counts.fill(0);
    this.#modifier.fill(0);
    this.#negatedCount = 0;
    // Whether a signal can fire: only then are the clause's context words looked up.
    let fires = false;
    for (let k = 0; k < hits; k++) {
      const entry = scan.hitEntry(k);
      const id = entry.id;
      const role = lex.role[id]!;
      if (role === ROLE_VERB) {
        if (entry.weight === 0) this.#addNegation(text, scan.hitIndex(k), id, end);
        else this.#push(lex.pair[id]!, VERB, k);
      } else if (role === ROLE_TARGET) this.#push(lex.pair[id]!, TARGET, k);
      else if (role === ROLE_NOUN) this.#push(lex.pair[id]!, NOUN, k);
      else if (role === ROLE_STANDALONE || role === ROLE_LINE_START) fires = true;
    }
    for (let pair = 0; pair < PAIRS.length && !fires; pair++) fires = this.#pairCanFire(pair);
    const damp = fires || this.#custom ? this.#context(text, start, end, options) : 1;
    for (let pair = 0; pair < PAIRS.length; pair++) {
      if (this.#pairCanFire(pair)) this.#pair(text, start, end, pair, damp, options, evidence);
    }
    this.#standalone(lex, scan, text, end, damp, options, evidence);
    const restart = rescans > 0 ? this.#restartPoint(start) : -1;
    if (this.#custom) this.#customClause(text, start, end, damp, options, evidence, whole);
    if (restart > start) this.#clause(text, restart, end, options, evidence, rescans - 1);
  }

  /** Whether the clause has a verb of `pair` and a target or noun of it. */
  #pairCanFire(pair: number): boolean {
    const counts = this.#counts[pair]!;
    return counts[VERB]! > 0 && counts[TARGET]! + counts[NOUN]! > 0;
  }

  /**
   * Scans one clause for its context words (the lexicon of scopes, modifiers and the words that
   * weaken a clause, kept apart so that windows do not look them up: see lexicon.ts), records
   * them, and returns the clause's damping factor.
   */
  #context(text: string, start: number, end: number, options: AnalysisOptions): number {
    const ctx = this.#ctx;
    const scan = ctx.lexicon.scan(text, this.#ctxScan, start, end);
    const weights = ctx.weight[options.source]!;
    let selfQuestion = false;
    let meta = false;
    for (let k = 0; k < scan.hitCount; k++) {
      const id = scan.hitEntry(k).id;
      const role = ctx.role[id]!;
      if (role === ROLE_SCOPE) this.#push(ctx.pair[id]!, SCOPE, k);
      else if (role === ROLE_MODIFIER) {
        const pair = ctx.pair[id]!;
        this.#modifier[pair] = Math.max(this.#modifier[pair]!, weights[id]!);
      } else if (role === ROLE_SELF_QUESTION) selfQuestion = true;
      else if (role === ROLE_META) meta = true;
    }
    let damp = 1;
    if (selfQuestion && endsWithQuestion(text, start, end)) damp *= SELF_QUESTION_FACTOR;
    if (meta) damp *= META_FACTOR;
    return damp;
  }

  /** Scans one clause for the configuration's own patterns (`whole`: not a rescan of its end). */
  #customClause(
    text: string,
    start: number,
    end: number,
    damp: number,
    options: AnalysisOptions,
    evidence: SignalSet,
    whole: boolean,
  ): void {
    const custom = this.#custom!;
    const scan = custom.lexicon.scan(text, this.#customScan!, start, end);
    if (whole) this.#window.account(1, scan);
    if (scan.hitCount > 0) this.#standalone(custom, scan, text, end, damp, options, evidence);
  }

  /** The first verb that has a target, noun or scope of its pair before it in the clause, or -1. */
  #restartPoint(start: number): number {
    const scan = this.#scan;
    let restart = -1;
    for (let pair = 0; pair < PAIRS.length; pair++) {
      const counts = this.#counts[pair]!;
      const lists = this.#hits[pair]!;
      // Only worth a rescan when a pair could form: a target or a noun is there.
      if (counts[TARGET]! + counts[NOUN]! === 0) continue;
      let earliestObject = Number.POSITIVE_INFINITY;
      for (let slot = TARGET; slot <= SCOPE; slot++) {
        const hits = slot === SCOPE ? this.#ctxScan : scan;
        for (let t = 0; t < counts[slot]!; t++) {
          earliestObject = Math.min(earliestObject, hits.hitIndex(lists[slot]![t]!));
        }
      }
      for (let v = 0; v < counts[VERB]!; v++) {
        const verbAt = scan.hitIndex(lists[VERB]![v]!);
        if (verbAt > earliestObject && verbAt > start && (restart < 0 || verbAt < restart)) {
          restart = verbAt;
        }
      }
    }
    return restart;
  }

  /** Reports the standalone (and line-start) hits of a clause scan. */
  #standalone(
    lex: InjectionLexicon,
    scan: LexiconScan,
    text: string,
    end: number,
    damp: number,
    options: AnalysisOptions,
    evidence: SignalSet,
  ): void {
    const weights = lex.weight[options.source]!;
    const section = this.#section;
    for (let k = 0; k < scan.hitCount; k++) {
      const entry = scan.hitEntry(k);
      const role = lex.role[entry.id]!;
      if (role !== ROLE_STANDALONE && role !== ROLE_LINE_START) continue;
      const weight = weights[entry.id]!;
      if (weight === 0) continue;
      const at = scan.hitIndex(k);
      if (role === ROLE_LINE_START && !atLineStart(text, at)) continue;
      const kind = lex.kind[entry.id]!;
      if (options.disabled.has(kind)) continue;
      const span = this.#walk(lex, entry.id, text, at, end, this.#span);
      const group = lex.group[entry.id]!;
      const damped = weight * damp;
      if (group === GROUP_PERSONA) {
        section.addPersona(kind, entry.label, at, span.end, damped);
        evidence.add(kind, entry.label, at, span.end, damped);
      } else this.#emit(kind, entry.label, at, span.end, damped, evidence);
      if (span.obfuscated) this.#obfuscated(at, span.end, options, evidence);
      if (group === GROUP_NO_LIMITS) section.noLimits = Math.max(section.noLimits, damped);
      else if (group === GROUP_ROLE_HEADER) section.addRoleHeader(entry.id, at);
    }
  }

  #walk(
    lex: InjectionLexicon,
    id: number,
    text: string,
    at: number,
    end: number,
    into: MatchSpan,
  ): MatchSpan {
    return walkMatch(text, at, lex.plain[id]!, lex.openEnd[id] === 1, end, into);
  }

  /** Finds the strongest verb-target combination of one pair in the clause and reports it. */
  #pair(
    text: string,
    start: number,
    end: number,
    pair: number,
    damp: number,
    options: AnalysisOptions,
    evidence: SignalSet,
  ): void {
    const lex = this.#lex;
    const scan = this.#scan;
    const weights = lex.weight[options.source]!;
    const found = this.#bestCombination(text, start, pair);
    const best = found.weight;
    const bestVerb = found.verb;
    const bestTarget = found.target;
    if (best === 0) return;
    const verb = scan.hitEntry(bestVerb);
    const target = scan.hitEntry(bestTarget);
    const kind = lex.kind[target.id]!;
    if (options.disabled.has(kind)) return;
    const modifier = this.#modifier[pair]!;
    // The source factor applies last, so a modifier cannot lift a pair its source discounts.
    const sourceFactor = weights[target.id]! / target.weight;
    let weight = (modifier > 0 ? 1 - (1 - best) * (1 - modifier) : best) * sourceFactor;
    const verbAt = scan.hitIndex(bestVerb);
    const targetAt = scan.hitIndex(bestTarget);
    if (insideQuotes(text, start, verbAt) || insideQuotes(text, start, targetAt)) {
      weight *= QUOTED_FACTOR;
    }
    weight *= damp;
    const verbSpan = this.#walk(lex, verb.id, text, verbAt, end, this.#span);
    const targetSpan = this.#walk(lex, target.id, text, targetAt, end, this.#otherSpan);
    const from = Math.min(verbAt, targetAt);
    const to = Math.max(verbSpan.end, targetSpan.end);
    const context = this.#ctxScan;
    const noun =
      found.scope < 0
        ? target.label
        : context.hitIndex(found.scope) < targetAt
          ? `${context.hitEntry(found.scope).label} ${target.label}`
          : `${target.label} ${context.hitEntry(found.scope).label}`;
    const label = verbAt < targetAt ? `${verb.label} … ${noun}` : `${noun} … ${verb.label}`;
    this.#emit(kind, label, from, to, weight, evidence);
    if (verbSpan.obfuscated || targetSpan.obfuscated) this.#obfuscated(from, to, options, evidence);
  }

  /**
   * The strongest combination of one pair in the clause: a verb with a complete target, or a
   * verb with a noun, weighted by the best scope word attached to the noun (a scope before the
   * noun must stand between the verb and the noun; one after it may follow closely).
   */
  #bestCombination(text: string, start: number, pair: number): Combination {
    const lex = this.#lex;
    const scan = this.#scan;
    const context = this.#ctxScan;
    const lists = this.#hits[pair]!;
    const counts = this.#counts[pair]!;
    const found = this.#found;
    found.weight = 0;
    found.verb = found.target = found.scope = -1;
    for (let v = 0; v < counts[VERB]!; v++) {
      const verbHit = lists[VERB]![v]!;
      const verbAt = scan.hitIndex(verbHit);
      if (this.#isNegated(verbAt) || negatedBefore(text, start, verbAt)) continue;
      const verbEntry = scan.hitEntry(verbHit);
      const anyOrder = lex.anyOrder[verbEntry.id] === 1;
      for (let slot = TARGET; slot <= NOUN; slot++) {
        for (let t = 0; t < counts[slot]!; t++) {
          const targetHit = lists[slot]![t]!;
          const targetAt = scan.hitIndex(targetHit);
          const distance = targetAt - verbAt;
          if (distance === 0 || distance > PAIR_DISTANCE) continue;
          if (distance < 0 && (!anyOrder || -distance > PAIR_DISTANCE)) continue;
          let weight = verbEntry.weight * scan.hitEntry(targetHit).weight;
          let scope = -1;
          if (slot === NOUN) {
            let scopeWeight = UNSCOPED;
            let vetoed = false;
            for (let c = 0; c < counts[SCOPE]!; c++) {
              const scopeHit = lists[SCOPE]![c]!;
              const scopeAt = context.hitIndex(scopeHit);
              const attached =
                scopeAt < targetAt
                  ? targetAt - scopeAt <= SCOPE_BEFORE && (distance < 0 || scopeAt > verbAt)
                  : scopeAt - targetAt <= SCOPE_AFTER;
              if (!attached) continue;
              const candidate = context.hitEntry(scopeHit).weight;
              if (candidate === 0) vetoed = true;
              else if (candidate > scopeWeight) {
                scopeWeight = candidate;
                scope = scopeHit;
              }
            }
            if (vetoed) {
              scopeWeight = VETOED;
              scope = -1;
            }
            weight *= scopeWeight;
          }
          if (weight > found.weight) {
            found.weight = weight;
            found.verb = verbHit;
            found.target = targetHit;
            found.scope = scope;
          }
        }
      }
    }
    return found;
  }

  #emit(
    kind: SignalKind,
    label: string,
    start: number,
    end: number,
    weight: number,
    evidence: SignalSet,
  ): void {
    if (weight <= 0) return;
    this.#section.add(kind, label, start, end, weight);
    evidence.add(kind, label, start, end, weight);
  }

  #obfuscated(start: number, end: number, options: AnalysisOptions, evidence: SignalSet): void {
    if (options.disabled.has('obfuscation')) return;
    this.#emit('obfuscation', 'obfuscated keywords', start, end, OBFUSCATED_WEIGHT, evidence);
  }

  /** Scores the section that just ended, with its combinations, and starts a new one. */
  #closeSection(options: AnalysisOptions, evidence: SignalSet): number {
    const section = this.#section;
    if (section.empty) return 0;
    if (section.hasPersona && section.noLimits > 0 && !options.disabled.has('role_manipulation')) {
      const at = section.personaStart;
      this.#emit(
        'role_manipulation',
        'persona without limits',
        at,
        at,
        PERSONA_WITHOUT_LIMITS,
        evidence,
      );
    }
    if (section.roleHeaders >= 2 && !options.disabled.has('fake_delimiter')) {
      const at = section.roleHeaderStart;
      this.#emit('fake_delimiter', 'forged conversation turns', at, at, FAKE_TRANSCRIPT, evidence);
    }
    const score = section.score();
    section.reset();
    return score;
  }

  /**
   * The structural signals of the text (obfuscation, hidden payloads), as the product of
   * (1 − weight) over them, to be combined with the sections' score.
   */
  #structural(text: string, options: AnalysisOptions, evidence: SignalSet): number {
    const s = this.#structure;
    let keep = 1;
    const add = (kind: SignalKind, label: string, start: number, end: number, weight: number) => {
      if (weight <= 0 || options.disabled.has(kind)) return;
      evidence.add(kind, label, start, end, weight);
      keep *= 1 - weight;
    };
    if (s.mixedScriptWords > 0) {
      const weight = s.mixedScriptWords >= 3 ? 0.4 : 0.25;
      add('obfuscation', 'mixed-script words', s.mixedScriptStart, s.mixedScriptEnd, weight);
    }
    if (s.zeroWidthInWords > 0) {
      const weight = s.zeroWidthInWords >= 3 ? 0.4 : 0.25;
      add(
        'obfuscation',
        'zero-width characters inside words',
        s.zeroWidthStart,
        s.zeroWidthStart + 1,
        weight,
      );
    }
    if (s.bidiOverrides > 0) {
      add('obfuscation', 'bidirectional override characters', s.bidiStart, s.bidiStart + 1, 0.3);
    }
    if (this.#depth > 0) return keep;
    for (let r = 0; r < s.runCount; r++) {
      const kind = s.runs[r * 3]!;
      const start = s.runs[r * 3 + 1]!;
      const end = s.runs[r * 3 + 2]!;
      const decoded = decodeRun(kind, text, start, end);
      if (decoded === undefined) continue;
      const { score, label } = this.#inner(decoded, options);
      const hidden = kind === RUN_SPLIT ? Math.max(score, runTogetherRisk(decoded)) : score;
      const name = RUN_NAMES[kind] ?? 'payload';
      const base = kind === RUN_TAGS ? 0.5 : kind === RUN_BASE64 || kind === RUN_HEX ? 0.15 : 0;
      const weight = hidden > 0.1 ? 1 - (1 - hidden) * (1 - Math.max(base, 0.35)) : base;
      const signalKind: SignalKind =
        kind === RUN_SPLIT || kind === RUN_STYLED || kind === RUN_LEET
          ? 'obfuscation'
          : 'encoded_payload';
      add(signalKind, label ? `${name}: ${label}` : name, start, end, weight);
    }
    return keep;
  }

  /** Analyses a decoded payload with the nested analyzer. */
  #inner(decoded: string, options: AnalysisOptions): { score: number; label?: string } {
    this.#nested ??= new Analyzer(this.#lex, this.#custom, this.#depth + 1, this.#windowChars);
    this.#nestedEvidence ??= new SignalSet();
    this.#nestedEvidence.clear();
    const score = this.#nested.analyze(decoded, 0, decoded.length, options, this.#nestedEvidence);
    const strongest = this.#nestedEvidence.strongest();
    return strongest ? { score, label: strongest.label } : { score };
  }

  #push(pair: number, slot: number, hit: number): void {
    const counts = this.#counts[pair]!;
    const count = counts[slot]!;
    if (count < MAX_PAIR_HITS) {
      this.#hits[pair]![slot]![count] = hit;
      counts[slot] = count + 1;
    }
  }

  #addNegation(text: string, at: number, id: number, end: number): void {
    if (this.#negatedCount * 2 >= this.#negated.length) return;
    const stop = this.#walk(this.#lex, id, text, at, end, this.#span).end;
    this.#negated[this.#negatedCount * 2] = at;
    this.#negated[this.#negatedCount * 2 + 1] = stop;
    this.#negatedCount++;
  }

  #isNegated(at: number): boolean {
    for (let n = 0; n < this.#negatedCount; n++) {
      if (at >= this.#negated[n * 2]! && at < this.#negated[n * 2 + 1]!) return true;
    }
    return false;
  }
}

/**
 * What an entry is to a window of clauses (see window.ts): a standalone or line-start phrase can
 * fire a signal alone; a verb (even a negated one, which only cancels) only with a target or a
 * noun of its pair; nouns, scopes, targets, modifiers and context words only shape what those
 * fire.
 */
function triggerOf(lex: InjectionLexicon, id: number): number {
  const role = lex.role[id];
  if (role === ROLE_VERB) return lex.pair[id]!;
  return role === ROLE_STANDALONE || role === ROLE_LINE_START ? TRIGGER : NOT_TRIGGER;
}

/** The pair of a target or noun entry, whose presence makes its pair's verbs triggers; else -1. */
function objectOf(lex: InjectionLexicon, id: number): number {
  const role = lex.role[id];
  return role === ROLE_TARGET || role === ROLE_NOUN ? lex.pair[id]! : -1;
}

const RUN_NAMES: Record<number, string> = {
  [RUN_BASE64]: 'base64 payload',
  [RUN_HEX]: 'hex payload',
  [RUN_TAGS]: 'invisible tag characters',
  [RUN_STYLED]: 'styled letters',
  [RUN_SPLIT]: 'split letters',
  [RUN_LEET]: 'leetspeak',
};
