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
const LABELS: Readonly<Record<KeywordDimension, string>> = {
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

/** What one score's signals are written from, besides its scan. */
export interface SignalFacts {
  readonly tokens: number;
  /** The token-count dimension's score: below 0 short, 1 long. */
  readonly length: number;
  /** The simple-indicators dimension spoke (a keyword, or arithmetic). */
  readonly simple: boolean;
  readonly multiStep: boolean;
  readonly questions: boolean;
  readonly override: TierOverride | undefined;
  /** The override's count: request tokens, reasoning weight or complexity signals. */
  readonly overrideCount: number;
  /** What joined the complexity signals (` + multi-step`, ` + long prompt` or nothing). */
  readonly overrideWhy: string;
  readonly images: number;
  /** The tier vision raised the verdict to, if it did. */
  readonly raisedTo: Tier | undefined;
  readonly recognized: boolean;
}

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
  /** By lexicon entry id: its signal when it is its dimension's only label, `code (python)`. */
  readonly #alone: readonly string[];
  /** `short (N tokens)` for the token counts a short prompt can have. */
  readonly #short: readonly string[];
  /** Per call: the labels found in each slot, as entry ids (`MAX_LABELS` per slot), and how many. */
  readonly #ids: Int32Array;
  readonly #count: Int32Array;

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
    this.#labelOf = entries.map((entry) => entry.label);
    this.#openers = KEYWORD_DIMENSIONS.map((name) => `${LABELS[name]} (`);
    this.#alone = entries.map((entry, id) => {
      const slot = this.#slotOf[id]!;
      return slot < 0 ? '' : `${this.#openers[slot]!}${entry.label})`;
    });
    this.#short = Array.from(
      { length: options.dimensions.tokenCount.short + 1 },
      (_, tokens) => `short (${plural(tokens, 'token')})`,
    );
    this.#ids = new Int32Array(KEYWORD_DIMENSIONS.length * MAX_LABELS);
    this.#count = new Int32Array(KEYWORD_DIMENSIONS.length);
  }

  /** The signals of a score, in a fixed order: length, keyword dimensions, counts, override. */
  write(scan: LexiconScan, facts: SignalFacts, numberedLines: number, numbers: number): string[] {
    const signals: string[] = [];
    if (facts.length < 0) {
      const short = this.#short;
      const tokens = facts.tokens;
      signals.push(tokens < short.length ? short[tokens]! : `short (${plural(tokens, 'token')})`);
    } else if (facts.length === 1) signals.push(`long (${plural(facts.tokens, 'token')})`);
    this.#keywordSignals(scan, facts, signals);
    if (facts.multiStep && numberedLines >= this.#minNumberedLines) {
      signals.push(`multi-step (${numberedLines} numbered lines)`);
    }
    if (numbers >= this.#minNumbers) signals.push(`numbers (${numbers})`);
    if (facts.questions) signals.push(`questions (${scan.stats.questionMarks})`);
    const { override } = facts;
    if (override === 'huge-context') {
      const { minTokens } = this.#options.overrides.hugeContext;
      signals.push(`override: >${minTokens} tokens (≈${facts.overrideCount}) → COMPLEX`);
    } else if (override === 'reasoning') {
      signals.push(`override: ${fmtCount(facts.overrideCount)} reasoning markers → REASONING`);
    } else if (override === 'complexity') {
      const count = fmtCount(facts.overrideCount);
      signals.push(`override: ${count} complexity signals${facts.overrideWhy} → COMPLEX`);
    }
    if (facts.images > 0) {
      const raised = facts.raisedTo ? ` → ${facts.raisedTo}` : '';
      signals.push(`vision (${plural(facts.images, 'image')})${raised}`);
    }
    if (!facts.recognized) signals.push('no recognised signal');
    return signals;
  }

  /** `code (python, function)`, … for every keyword dimension with a hit, in dimension order. */
  #keywordSignals(scan: LexiconScan, facts: SignalFacts, signals: string[]): void {
    const hitCount = scan.hitCount;
    const count = this.#count;
    const ids = this.#ids;
    const slotOf = this.#slotOf;
    const labelOf = this.#labelOf;
    const limit = this.#limit;
    let used = 0; // bit set of the slots with a label
    for (let k = 0; k < hitCount; k++) {
      const id = scan.hitId(k);
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
    if (facts.simple && (used & SIMPLE_BIT) === 0) {
      used |= SIMPLE_BIT;
      count[SIMPLE_SLOT] = 0; // written as `simple (arithmetic)`
    }
    if (!facts.multiStep) used &= ~MULTI_STEP_BIT;
    for (let slot = 0; used !== 0; slot++, used >>>= 1) {
      if ((used & 1) === 0) continue;
      const n = count[slot]!;
      const first = ids[slot * MAX_LABELS]!;
      if (n === 1) signals.push(this.#alone[first]!);
      else if (n === 0) signals.push(ARITHMETIC);
      else {
        let text = `${this.#openers[slot]!}${labelOf[first]!}`;
        for (let i = 1; i < n; i++) text += `, ${labelOf[ids[slot * MAX_LABELS + i]!]!}`;
        signals.push(`${text})`);
      }
    }
  }
}

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
