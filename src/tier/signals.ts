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
  /**
   * By lexicon entry id, what a hit on it tells, in one byte so that a hit costs one table load:
   * its signal slot plus one (position in KEYWORD_DIMENSIONS; 0 for none) in the low four bits,
   * and {@link ACTION_IMPERATIVE} or {@link ACTION_AGENTIC} for a non-weak action keyword.
   */
  readonly #infoOf: Uint8Array;
  /** By lexicon entry id: its label. */
  readonly #labelOf: readonly string[];
  /**
   * By lexicon entry id: a number per distinct label, so that a label listed twice (entries of
   * several languages share one) is found by comparing integers, not strings.
   */
  readonly #labelIdOf: Int32Array;
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
   * Signals of two to {@link MAX_LISTED} labels (`code (python, function)`), by their entry ids,
   * written on first use and kept in a direct-mapped table of {@link LIST_SLOTS} (a list evicts
   * another only when both hash to one slot): common lists are written once, not per score, and
   * a lookup is a few multiplies and loads, where a `Map` lookup cost a call into a builtin and
   * writing the text a string allocation per label. The ids of slot k are at
   * `k * MAX_LISTED`, followed by -1 when fewer.
   */
  readonly #listIds = new Int32Array(LIST_SLOTS * MAX_LISTED).fill(-1);
  readonly #listTexts: string[] = new Array<string>(LIST_SLOTS).fill('');
  /** `numbers (6)`, `questions (2)`, the override lines: by count, written once each. */
  readonly #numbers = new CountedLines((count) => `numbers (${count})`);
  readonly #questions = new CountedLines((count) => `questions (${count})`);
  readonly #numberedLines = new CountedLines((count) => `multi-step (${count} numbered lines)`);
  readonly #reasoningOverride = new CountedLines(
    (count) => `override: ${fmtCount(count)} reasoning markers → REASONING`,
  );
  /** By {@link COMPLEXITY_WHY}: the override line with each reason. */
  readonly #complexityOverride = COMPLEXITY_WHY.map(
    (why) =>
      new CountedLines(
        (count) => `override: ${fmtCount(count)} complexity signals${why} → COMPLEX`,
      ),
  );
  /**
   * Per score: the labels found in each slot, as entry ids, in blocks of `1 + MAX_LABELS`: how
   * many, then the ids (one typed array: each one read costs V8 a map, detach and bounds check).
   */
  readonly #found: Int32Array;
  /** Per score: the slots with a label (a bit set). */
  #used = 0;
  /**
   * Per score: the signals written so far, in a buffer kept between scores, copied out once into
   * an array of the exact length ({@link take}): pushing onto a new array grew its backing store
   * on the first push, a call into a builtin and a 17-slot allocation per decision.
   */
  readonly #out: string[] = new Array<string>(MAX_SIGNALS).fill('');
  #n = 0;
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
    const imperative = categoryOf.imperativeVerbs;
    const agentic = categoryOf.agenticTask;
    this.#infoOf = Uint8Array.from(entries, (entry) => {
      const slot = slotOfCategory.get(entry.categoryIndex) ?? -1;
      let action = 0;
      if (entry.weight >= 1) {
        if (entry.categoryIndex === imperative) action = ACTION_IMPERATIVE;
        else if (entry.categoryIndex === agentic) action = ACTION_AGENTIC;
      }
      return slot + 1 + action;
    });
    this.#labelOf = entries.map((entry) => entry.label);
    const labelIds = new Map<string, number>();
    this.#labelIdOf = Int32Array.from(entries, ({ label }) => {
      let id = labelIds.get(label);
      if (id === undefined) {
        id = labelIds.size;
        labelIds.set(label, id);
      }
      return id;
    });
    this.#openers = KEYWORD_DIMENSIONS.map((name) => `${LABELS[name]} (`);
    this.#alone = new Array<string | undefined>(entries.length).fill(undefined);
    this.#short = Array.from(
      { length: options.dimensions.tokenCount.short + 1 },
      (_, tokens) => `short (${plural(tokens, 'token')})`,
    );
    this.#found = new Int32Array(KEYWORD_DIMENSIONS.length * BLOCK);
  }

  /**
   * Writes the signals of a score (whose scan {@link collect} read), in a fixed order: length,
   * keyword dimensions, counts, override, vision; {@link take} returns them. Arguments rather
   * than an object: this runs on every score, and an object of facts would be one more
   * allocation each time.
   */
  write(
    scan: LexiconScan,
    tokens: number,
    length: number,
    flags: number,
    override: TierOverride | undefined,
    overrideCount: number,
    overrideWhy: number,
    images: number,
    raisedTo: Tier | undefined,
    learned: number | undefined,
    splitAt: number | undefined,
    score: number,
    tier: Tier,
  ): void {
    const out = this.#out;
    let n = 0;
    if (length < 0) {
      const short = this.#short;
      out[n++] = tokens < short.length ? short[tokens]! : `short (${plural(tokens, 'token')})`;
    } else if (length === 1) out[n++] = `long (${plural(tokens, 'token')})`;
    n = this.#keywordSignals(flags, out, n);
    const stats = scan.stats;
    if (flags & SIGNAL_MULTI_STEP && stats.numberedLines >= this.#minNumberedLines) {
      out[n++] = this.#numberedLines.line(stats.numberedLines);
    }
    if (stats.numbers >= this.#minNumbers) out[n++] = this.#numbers.line(stats.numbers);
    if (flags & SIGNAL_QUESTIONS) out[n++] = this.#questions.line(stats.questionMarks);
    if (flags & SIGNAL_LIFTED) out[n++] = 'no simple evidence → MEDIUM';
    if (learned !== undefined) out[n++] = `learned term (${signed(learned)})`;
    if (splitAt !== undefined) {
      out[n++] = `split: score ${score >= splitAt ? '≥' : '<'} ${splitAt} → ${tier}`;
    }
    // Tested for undefined first: comparing a string with a value that may be undefined is a
    // generic comparison (a builtin call) where two strings compare inline.
    if (override !== undefined) {
      if (override === 'huge-context') {
        const { minTokens } = this.#options.overrides.hugeContext;
        out[n++] = `override: >${minTokens} tokens (≈${overrideCount}) → COMPLEX`;
      } else if (override === 'reasoning') {
        out[n++] = this.#reasoningOverride.line(overrideCount);
      } else if (override === 'complexity') {
        out[n++] = this.#complexityOverride[overrideWhy]!.line(overrideCount);
      }
    }
    if (images > 0) {
      const raised = raisedTo ? ` → ${raisedTo}` : '';
      out[n++] = `vision (${plural(images, 'image')})${raised}`;
    }
    if (!(flags & SIGNAL_RECOGNIZED)) out[n++] = 'no recognised signal';
    this.#n = n;
  }

  /** Starts the signals of a score written line by line ({@link add}), not by {@link write}. */
  begin(): void {
    this.#n = 0;
  }

  /** Adds a line to the signals being written. */
  add(line: string): void {
    this.#out[this.#n++] = line;
  }

  /**
   * The signals written since the last {@link write} or {@link begin}, and `last` after them
   * when given (the router's line on how an ambiguous verdict ended), as a new array of the
   * exact length.
   */
  take(last?: string): string[] {
    const out = this.#out;
    let n = this.#n;
    if (last !== undefined) out[n++] = last;
    // Literals up to six lines (most decisions): allocated inline, where `slice` is a call.
    switch (n) {
      case 0:
        return [];
      case 1:
        return [out[0]!];
      case 2:
        return [out[0]!, out[1]!];
      case 3:
        return [out[0]!, out[1]!, out[2]!];
      case 4:
        return [out[0]!, out[1]!, out[2]!, out[3]!];
      case 5:
        return [out[0]!, out[1]!, out[2]!, out[3]!, out[4]!];
      case 6:
        return [out[0]!, out[1]!, out[2]!, out[3]!, out[4]!, out[5]!];
      default:
        return out.slice(0, n);
    }
  }

  /** `code (python)`, the signal of an entry alone in its slot, written once. */
  #writeAlone(slot: number, id: number): string {
    const text = `${this.#openers[slot]!}${this.#labelOf[id]!})`;
    this.#alone[id] = text;
    return text;
  }

  /** `code (python, function, class)`: the `count` labels listed in `#found` from `block`. */
  #list(slot: number, block: number, count: number): string {
    const found = this.#found;
    if (count > MAX_LISTED) return this.#writeList(slot, block, count);
    let hash = count;
    for (let i = 1; i <= count; i++) hash = Math.imul(hash ^ found[block + i]!, 0x9e3779b1);
    const at = (hash >>> LIST_SHIFT) * MAX_LISTED;
    const ids = this.#listIds;
    let same = count === MAX_LISTED || ids[at + count] === -1;
    for (let i = 0; same && i < count; i++) same = ids[at + i] === found[block + 1 + i];
    if (same) return this.#listTexts[at / MAX_LISTED]!;
    const text = this.#writeList(slot, block, count);
    for (let i = 0; i < MAX_LISTED; i++) ids[at + i] = i < count ? found[block + 1 + i]! : -1;
    this.#listTexts[at / MAX_LISTED] = text;
    return text;
  }

  #writeList(slot: number, block: number, count: number): string {
    const found = this.#found;
    const labelOf = this.#labelOf;
    let text = `${this.#openers[slot]!}${labelOf[found[block + 1]!]!}`;
    for (let i = 1; i < count; i++) text += `, ${labelOf[found[block + 1 + i]!]!}`;
    return `${text})`;
  }

  /**
   * Reads a scan's hits once, for the signals and for the scorer: the labels of each keyword
   * dimension, whether an imperative was found, and the places of actions (`asksForAction`,
   * `actions`). Call before {@link write}, once per scan.
   */
  collect(scan: LexiconScan): void {
    const hitCount = scan.hitCount;
    const found = this.#found;
    const infoOf = this.#infoOf;
    const labelIdOf = this.#labelIdOf;
    const limit = this.#limit;
    const hits = scan.hitIdBuffer();
    const places = scan.hitIndexBuffer();
    let used = 0; // bit set of the slots with a label
    let asks = false;
    let actions = 0;
    let previous = -1;
    for (let k = 0; k < hitCount; k++) {
      const id = hits[k]!;
      const info = infoOf[id]!;
      if (info === 0) continue;
      if (info > SLOT_MASK) {
        if ((info & ~SLOT_MASK) === ACTION_IMPERATIVE) asks = true;
        // Hits come in text order per first occurrence; the same word in both categories is
        // found at the same place, one after the other.
        const at = places[k]!;
        if (at !== previous) actions++;
        previous = at;
      }
      const slot = (info & SLOT_MASK) - 1;
      if (slot < 0) continue;
      const bit = 1 << slot;
      const block = slot * BLOCK;
      if ((used & bit) === 0) {
        used |= bit;
        found[block] = 1;
        found[block + 1] = id;
        continue;
      }
      const n = found[block]!;
      if (n >= limit) continue;
      if (hasLabel(found, labelIdOf, block + 1, n, labelIdOf[id]!)) continue;
      found[block + 1 + n] = id;
      found[block] = n + 1;
    }
    this.#used = used;
    this.asksForAction = asks;
    this.actions = actions;
  }

  /** Writes the keyword dimensions' signals into `out` from `n`; returns the new count. */
  #keywordSignals(flags: number, out: string[], n: number): number {
    const found = this.#found;
    let used = this.#used;
    if (flags & SIGNAL_SIMPLE && (used & SIMPLE_BIT) === 0) {
      used |= SIMPLE_BIT;
      found[SIMPLE_SLOT * BLOCK] = 0; // written as `simple (arithmetic)`
    }
    if (!(flags & SIGNAL_MULTI_STEP)) used &= ~MULTI_STEP_BIT;
    // The set bits only, lowest first (slot order).
    while (used !== 0) {
      const slot = 31 - Math.clz32(used & -used);
      used &= used - 1;
      const block = slot * BLOCK;
      const count = found[block]!;
      if (count === 1) {
        const first = found[block + 1]!;
        out[n++] = this.#alone[first] ?? this.#writeAlone(slot, first);
      } else if (count === 0) out[n++] = ARITHMETIC;
      else out[n++] = this.#list(slot, block, count);
    }
    return n;
  }
}

/** Per slot in `#found`: the count, then up to {@link MAX_LABELS} entry ids. */
const BLOCK = 1 + MAX_LABELS;
/** The slot-plus-one bits of an entry's info byte, and its action bits. */
const SLOT_MASK = 15;
const ACTION_IMPERATIVE = 16;
const ACTION_AGENTIC = 32;
/**
 * Most signals of one decision: length, the keyword dimensions, five counts and notes, an
 * override, vision, `no recognised signal`, and the router's last line (with room to spare).
 */
const MAX_SIGNALS = 32;

/** Slots of a writer's table of label lists (a power of two: 2^(32 - LIST_SHIFT)). */
const LIST_SHIFT = 21;
const LIST_SLOTS = 1 << (32 - LIST_SHIFT);
/** Most labels of a list kept in that table (longer lists are rare, and written each time). */
const MAX_LISTED = 4;
/** What a complexity override gives after its count, by the scorer's reason (`WHY_…`). */
const COMPLEXITY_WHY = ['', ' + multi-step', ' + long prompt'];
/** The reasons of a complexity override, for `write`'s `overrideWhy`. */
export const WHY_NONE = 0;
export const WHY_MULTI_STEP = 1;
export const WHY_LONG_PROMPT = 2;
/** Counts below this many tenths have their lines kept by {@link CountedLines}. */
const COUNTED_TENTHS = 1024;

/**
 * Lines that differ only by a count (`numbers (6)`, `override: 2.5 reasoning markers → …`),
 * each written on first use and kept: for counts that are a whole number of tenths under
 * {@link COUNTED_TENTHS} (the weights' sums; any other count is written each time), since
 * formatting a number costs more than the rest of a signal. Internal (exported for its tests).
 */
export class CountedLines {
  readonly #write: (count: number) => string;
  readonly #lines: (string | undefined)[] = new Array(COUNTED_TENTHS).fill(undefined);

  constructor(write: (count: number) => string) {
    this.#write = write;
  }

  line(count: number): string {
    const tenths = Math.round(count * 10);
    // Exactly the count whose line is kept at `tenths` (`tenths / 10` is one double).
    if (tenths / 10 !== count || !(tenths >= 0 && tenths < COUNTED_TENTHS)) {
      return this.#write(count);
    }
    let line = this.#lines[tenths];
    if (line === undefined) {
      line = this.#write(count);
      this.#lines[tenths] = line;
    }
    return line;
  }
}

/** Whether one of the `count` entries listed from `at` has the label numbered `label`. */
function hasLabel(
  ids: Int32Array,
  labelIdOf: Int32Array,
  at: number,
  count: number,
  label: number,
): boolean {
  for (let i = 0; i < count; i++) if (labelIdOf[ids[at + i]!] === label) return true;
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
  /** By hundredth of confidence (the line shows two decimals, so a hundredth decides it). */
  readonly #lines: CountedLines;

  constructor(outcome: string) {
    this.#lines = new CountedLines((hundredths) => ambiguityLine(hundredths / 100, outcome));
  }

  /** The line for a confidence in [0, 1] (as `fixed2` writes it). */
  line(confidence: number): string {
    return this.#lines.line(Math.round(Math.min(1, Math.max(0, confidence)) * 100));
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
