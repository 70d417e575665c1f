import type { Lexicon, LexiconScan } from '../text/index.js';
import { KEYWORD_DIMENSIONS, type KeywordDimension } from './keywords/index.js';
import type { TierOptions } from './options.js';
import type { TierOverride } from './scorer.js';
import type { Tier } from './tiers.js';

/**
 * The human-readable signals of a score (`short (8 tokens)`, `code (python, function)`,
 * `override: 2 reasoning markers → REASONING`), written with every score: a decision is plain
 * data, so they cannot wait for a first access. They are written from the scan in one pass over
 * its hits, with every fixed piece of text prepared when the scorer is built: concatenating a few
 * strings costs tens of nanoseconds, formatting numbers (`toFixed`) and joining arrays costs
 * hundreds.
 */

/** How each keyword dimension is named in signals. */
export const LABELS: Readonly<Record<KeywordDimension, string>> = {
  codePresence: 'code',
  reasoningMarkers: 'reasoning',
  technicalTerms: 'technical',
  creativeMarkers: 'creative',
  simpleIndicators: 'simple',
  multiStepPatterns: 'multi-step',
  imperativeVerbs: 'imperative',
  constraintCount: 'constraints',
  outputFormat: 'format',
  referenceComplexity: 'references',
  negationComplexity: 'negation',
  domainSpecificity: 'domain',
  agenticTask: 'agentic',
};

const SIMPLE_SLOT = KEYWORD_DIMENSIONS.indexOf('simpleIndicators');
const MULTI_STEP_SLOT = KEYWORD_DIMENSIONS.indexOf('multiStepPatterns');
const SIMPLE_BIT = 1 << SIMPLE_SLOT;
const MULTI_STEP_BIT = 1 << MULTI_STEP_SLOT;
const ARITHMETIC = `${LABELS.simpleIndicators} (arithmetic)`;
/** Most labels listed per signal (`signalLabels` is capped to it). */
const MAX_LABELS = 16;

/** Flags of a score that its signals tell (bits of `write`'s `flags`). */
export const SIGNAL_SIMPLE = 1; // the simple-indicators dimension spoke (a keyword, or arithmetic)
export const SIGNAL_MULTI_STEP = 2;
export const SIGNAL_QUESTIONS = 4;
export const SIGNAL_RECOGNIZED = 8; // some dimension besides length spoke
export const SIGNAL_LIFTED = 16; // in SIMPLE's range without a simple indicator: MEDIUM

/** Writes signals for one scorer (one lexicon, one set of options). Not reentrant. */
export class SignalWriter {
  readonly #options: TierOptions;
  readonly #minNumberedLines: number;
  readonly #minNumbers: number;
  readonly #limit: number;
  /** By lexicon entry id: its signal slot (position in KEYWORD_DIMENSIONS), -1 for none. */
  readonly #slotOf: Int8Array;
  /** By lexicon entry id: its label. */
  readonly #labelOf: readonly string[];
  /** `code (`, `reasoning (`, … by slot. */
  readonly #openers: readonly string[];
  /**
   * By lexicon entry id: its signal when it is its dimension's only label, `code (python)`,
   * written on first use (thousands of entries, a few of which most traffic finds: writing them
   * all cost a cold start ~2 ms).
   */
  readonly #alone: (string | undefined)[];
  /** `short (N tokens)` for the token counts a short prompt can have. */
  readonly #short: readonly string[];
  /**
   * Signals of two labels (`code (python, function)`), by pair of entry ids, written on first
   * use and kept (at most {@link MAX_PAIRS}): common pairs are written once, not per score.
   */
  readonly #pairs = new Map<number, string>();
  readonly #entryCount: number;
  /** By lexicon entry id: 1 for a non-weak imperative keyword, 2 for a non-weak agentic one. */
  readonly #actionOf: Uint8Array;
  /** Per score: the labels found in each slot, as entry ids (`MAX_LABELS` per slot), and how many. */
  readonly #ids: Int32Array;
  readonly #count: Int32Array;
  /** Per score: the slots with a label (a bit set). */
  #used = 0;
  /** Per score: whether a non-weak imperative keyword was found. */
  asksForAction = false;
  /** Per score: distinct places where a non-weak imperative or agentic keyword was found. */
  actions = 0;

  constructor(
    options: TierOptions,
    lexicon: Lexicon,
    categoryOf: Readonly<Record<KeywordDimension, number>>,
  ) {
    this.#options = options;
    this.#minNumberedLines = options.dimensions.multiStepPatterns.minNumberedLines;
    this.#minNumbers = options.dimensions.reasoningMarkers.minNumbers;
    this.#limit = Math.min(options.signalLabels, MAX_LABELS);
    // Per entry, not per entry object: the entries' shapes vary, and reading their fields on
    // every hit costs an inline-cache miss each.
    const slotOfCategory = new Map(
      KEYWORD_DIMENSIONS.map((name, slot) => [categoryOf[name], slot]),
    );
    const entries = lexicon.entries;
    this.#slotOf = Int8Array.from(
      entries,
      (entry) => slotOfCategory.get(entry.categoryIndex) ?? -1,
    );
    const imperative = categoryOf.imperativeVerbs;
    const agentic = categoryOf.agenticTask;
    this.#actionOf = Uint8Array.from(entries, (entry) => {
      if (entry.weight < 1) return 0;
      return entry.categoryIndex === imperative ? 1 : entry.categoryIndex === agentic ? 2 : 0;
    });
    this.#labelOf = entries.map((entry) => entry.label);
    this.#entryCount = entries.length;
    this.#openers = KEYWORD_DIMENSIONS.map((name) => `${LABELS[name]} (`);
    this.#alone = new Array<string | undefined>(entries.length).fill(undefined);
    this.#short = Array.from(
      { length: options.dimensions.tokenCount.short + 1 },
      (_, tokens) => `short (${plural(tokens, 'token')})`,
    );
    this.#ids = new Int32Array(KEYWORD_DIMENSIONS.length * MAX_LABELS);
    this.#count = new Int32Array(KEYWORD_DIMENSIONS.length);
  }

  /**
   * The signals of a score (whose scan {@link collect} read), in a fixed order: length, keyword
   * dimensions, counts, override, vision. Arguments rather than an object: this runs on every score, and an object of facts
   * would be one more allocation each time.
   */
  write(
    scan: LexiconScan,
    tokens: number,
    length: number,
    flags: number,
    override: TierOverride | undefined,
    overrideCount: number,
    overrideWhy: string,
    images: number,
    raisedTo: Tier | undefined,
    learned: number | undefined,
    splitAt: number | undefined,
    score: number,
    tier: Tier,
  ): string[] {
    const signals: string[] = [];
    if (length < 0) {
      const short = this.#short;
      signals.push(tokens < short.length ? short[tokens]! : `short (${plural(tokens, 'token')})`);
    } else if (length === 1) signals.push(`long (${plural(tokens, 'token')})`);
    this.#keywordSignals(flags, signals);
    const stats = scan.stats;
    if (flags & SIGNAL_MULTI_STEP && stats.numberedLines >= this.#minNumberedLines) {
      signals.push(`multi-step (${stats.numberedLines} numbered lines)`);
    }
    if (stats.numbers >= this.#minNumbers) signals.push(`numbers (${stats.numbers})`);
    if (flags & SIGNAL_QUESTIONS) signals.push(`questions (${stats.questionMarks})`);
    if (flags & SIGNAL_LIFTED) signals.push('no simple evidence → MEDIUM');
    if (learned !== undefined) signals.push(`learned term (${signed(learned)})`);
    if (splitAt !== undefined) {
      signals.push(`split: score ${score >= splitAt ? '≥' : '<'} ${splitAt} → ${tier}`);
    }
    if (override === 'huge-context') {
      const { minTokens } = this.#options.overrides.hugeContext;
      signals.push(`override: >${minTokens} tokens (≈${overrideCount}) → COMPLEX`);
    } else if (override === 'reasoning') {
      signals.push(`override: ${fmtCount(overrideCount)} reasoning markers → REASONING`);
    } else if (override === 'complexity') {
      const count = fmtCount(overrideCount);
      signals.push(`override: ${count} complexity signals${overrideWhy} → COMPLEX`);
    }
    if (images > 0) {
      const raised = raisedTo ? ` → ${raisedTo}` : '';
      signals.push(`vision (${plural(images, 'image')})${raised}`);
    }
    if (!(flags & SIGNAL_RECOGNIZED)) signals.push('no recognised signal');
    return signals;
  }

  /** `code (python)`, the signal of an entry alone in its slot, written once. */
  #writeAlone(slot: number, id: number): string {
    const text = `${this.#openers[slot]!}${this.#labelOf[id]!})`;
    this.#alone[id] = text;
    return text;
  }

  /** `code (python, function)` for two entries of one slot. */
  #pair(slot: number, first: number, second: number): string {
    const n = this.#entryCount;
    // A small-integer key while n² fits in one (tens of thousands of entries).
    const key = n < 30_000 ? first * n + second : -1;
    let text = key < 0 ? undefined : this.#pairs.get(key);
    if (text === undefined) {
      const labelOf = this.#labelOf;
      text = `${this.#openers[slot]!}${labelOf[first]!}, ${labelOf[second]!})`;
      if (key >= 0 && this.#pairs.size < MAX_PAIRS) this.#pairs.set(key, text);
    }
    return text;
  }

  /**
   * Reads a scan's hits once, for the signals and for the scorer: the labels of each keyword
   * dimension, whether an imperative was found, and the places of actions (`asksForAction`,
   * `actions`). Call before {@link write}, once per scan.
   */
  collect(scan: LexiconScan): void {
    const hitCount = scan.hitCount;
    const count = this.#count;
    const ids = this.#ids;
    const slotOf = this.#slotOf;
    const labelOf = this.#labelOf;
    const actionOf = this.#actionOf;
    const limit = this.#limit;
    const hits = scan.hitIdBuffer();
    let used = 0; // bit set of the slots with a label
    let asks = false;
    let actions = 0;
    let previous = -1;
    for (let k = 0; k < hitCount; k++) {
      const id = hits[k]!;
      const action = actionOf[id]!;
      if (action !== 0) {
        if (action === 1) asks = true;
        // Hits come in text order per first occurrence; the same word in both categories is
        // found at the same place, one after the other.
        const at = scan.hitIndexBuffer()[k]!;
        if (at !== previous) actions++;
        previous = at;
      }
      const slot = slotOf[id]!;
      if (slot < 0) continue;
      const bit = 1 << slot;
      if ((used & bit) === 0) {
        used |= bit;
        count[slot] = 1;
        ids[slot * MAX_LABELS] = id;
        continue;
      }
      const n = count[slot]!;
      if (n >= limit) continue;
      if (hasLabel(ids, labelOf, slot * MAX_LABELS, n, labelOf[id]!)) continue;
      ids[slot * MAX_LABELS + n] = id;
      count[slot] = n + 1;
    }
    this.#used = used;
    this.asksForAction = asks;
    this.actions = actions;
  }

  #keywordSignals(flags: number, signals: string[]): void {
    const count = this.#count;
    const ids = this.#ids;
    const labelOf = this.#labelOf;
    let used = this.#used;
    if (flags & SIGNAL_SIMPLE && (used & SIMPLE_BIT) === 0) {
      used |= SIMPLE_BIT;
      count[SIMPLE_SLOT] = 0; // written as `simple (arithmetic)`
    }
    if (!(flags & SIGNAL_MULTI_STEP)) used &= ~MULTI_STEP_BIT;
    for (let slot = 0; used !== 0; slot++, used >>>= 1) {
      if ((used & 1) === 0) continue;
      const n = count[slot]!;
      const first = ids[slot * MAX_LABELS]!;
      if (n === 1) signals.push(this.#alone[first] ?? this.#writeAlone(slot, first));
      else if (n === 0) signals.push(ARITHMETIC);
      else if (n === 2) signals.push(this.#pair(slot, first, ids[slot * MAX_LABELS + 1]!));
      else {
        let text = `${this.#openers[slot]!}${labelOf[first]!}`;
        for (let i = 1; i < n; i++) text += `, ${labelOf[ids[slot * MAX_LABELS + i]!]!}`;
        signals.push(`${text})`);
      }
    }
  }
}

/** Most two-label signals a writer keeps. */
const MAX_PAIRS = 50_000;

/** Whether one of the `count` entries listed from `at` has the label `label`. */
function hasLabel(
  ids: Int32Array,
  labelOf: readonly string[],
  at: number,
  count: number,
  label: string,
): boolean {
  for (let i = 0; i < count; i++) if (labelOf[ids[at + i]!] === label) return true;
  return false;
}

/** `+0.125`, `-0.040`: a learned term's share of the score (only with trained weights). */
function signed(value: number): string {
  return `${value >= 0 ? '+' : ''}${value.toFixed(3)}`;
}

/** `1 token`, `8 tokens`. */
export function plural(count: number, noun: string): string {
  return `${count} ${noun}${count === 1 ? '' : 's'}`;
}

function fmtCount(weight: number): string {
  return Number.isInteger(weight) ? String(weight) : weight.toFixed(1);
}

/**
 * The last signal of an ambiguous verdict, `ambiguous (conf=0.62) → fallback MEDIUM`, for an
 * outcome fixed in advance: written once per (outcome, hundredth of confidence) and kept, since
 * ambiguous verdicts are common and their line would otherwise be formatted on every one.
 */
export class AmbiguityLines {
  readonly #outcome: string;
  readonly #lines: (string | undefined)[] = new Array(101).fill(undefined);

  constructor(outcome: string) {
    this.#outcome = outcome;
  }

  /** The line for a confidence in [0, 1] (as `fixed2` writes it). */
  line(confidence: number): string {
    const hundredths = Math.round(Math.min(1, Math.max(0, confidence)) * 100);
    let line = this.#lines[hundredths];
    if (line === undefined) {
      line = ambiguityLine(confidence, this.#outcome);
      this.#lines[hundredths] = line;
    }
    return line;
  }
}

/** `ambiguous (conf=0.62) → <outcome>`. */
export function ambiguityLine(confidence: number, outcome: string): string {
  return `ambiguous (conf=${fixed2(confidence)}) → ${outcome}`;
}

/**
 * A number in [0, 1] with two decimals (`0.62`), as `toFixed(2)` writes it for such numbers but
 * several times faster: an integer and a string concatenation. Values outside [0, 1] are clamped.
 */
export function fixed2(value: number): string {
  const hundredths = Math.round(Math.min(1, Math.max(0, value)) * 100);
  if (hundredths >= 100) return '1.00';
  return hundredths < 10 ? `0.0${hundredths}` : `0.${hundredths}`;
}
