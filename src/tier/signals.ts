import type { Lexicon } from '../text/index.js';
import type { KeywordDimension } from './keywords/index.js';
import type { TierOptions } from './options.js';
import type { TierOverride, TierScore } from './scorer.js';
import type { Tier } from './tiers.js';

/**
 * The human-readable signals of a score (`short (8 tokens)`, `code (python, function)`,
 * `override: 2 reasoning markers → REASONING`), written on first access: formatting them costs
 * more than scoring a short prompt, and a routing server rarely reads them. The scorer keeps the
 * few facts they are written from (copied, since its scan is reused by the next call).
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

/** What a scorer's signals need that does not change between calls. */
export interface SignalSource {
  readonly options: TierOptions;
  readonly lexicon: Lexicon;
  /** The keyword dimensions, in signal order, with their lexicon categories. */
  readonly dimensions: readonly { readonly name: KeywordDimension; readonly category: number }[];
}

/** The facts of one score that its signals are written from. */
export interface SignalFacts {
  /** The token-count dimension's score: below 0 short, 1 long. */
  readonly length: number;
  /** Entry ids of the keywords found, in order of detection. */
  readonly hits: readonly number[];
  /** The simple-indicators dimension spoke (a keyword, or arithmetic). */
  readonly simple: boolean;
  readonly multiStep: boolean;
  readonly questions: boolean;
  readonly numberedLines: number;
  readonly numbers: number;
  readonly questionMarks: number;
  /** The override's count: request tokens, reasoning weight or complexity signals. */
  readonly overrideCount: number;
  /** What joined the complexity signals (` + multi-step`, ` + long prompt` or nothing). */
  readonly overrideWhy: string;
  readonly images: number;
  /** The tier vision raised the verdict to, if it did. */
  readonly raisedTo: Tier | undefined;
  /** The score was in SIMPLE's range, but no simple indicator was found: MEDIUM. */
  readonly liftedToMedium: boolean;
  /** What trained weights' learned term added to the score (absent without one). */
  readonly learned: number | undefined;
  /** The threshold of a two-way split (absent with four tiers). */
  readonly splitAt: number | undefined;
}

/** A score whose signals are written on first access (its JSON is that of a plain object). */
export class LazyScore implements TierScore {
  readonly tier: Tier;
  readonly score: number;
  readonly confidence: number;
  readonly ambiguous: boolean;
  readonly recognized: boolean;
  readonly override: TierOverride | undefined;
  readonly tokens: number;
  readonly #source: SignalSource;
  readonly #facts: SignalFacts;
  #signals: string[] | undefined;

  constructor(
    source: SignalSource,
    facts: SignalFacts,
    tier: Tier,
    score: number,
    confidence: number,
    ambiguous: boolean,
    recognized: boolean,
    override: TierOverride | undefined,
    tokens: number,
  ) {
    this.#source = source;
    this.#facts = facts;
    this.tier = tier;
    this.score = score;
    this.confidence = confidence;
    this.ambiguous = ambiguous;
    this.recognized = recognized;
    this.override = override;
    this.tokens = tokens;
  }

  /** The signals (one array per score: the router appends its own line to it). */
  get signals(): string[] {
    this.#signals ??= writeSignals(this.#source, this.#facts, this);
    return this.#signals;
  }

  toJSON(): TierScore {
    return {
      tier: this.tier,
      score: this.score,
      confidence: this.confidence,
      ambiguous: this.ambiguous,
      recognized: this.recognized,
      override: this.override,
      tokens: this.tokens,
      signals: this.signals,
    };
  }
}

function writeSignals(source: SignalSource, facts: SignalFacts, score: TierScore): string[] {
  const { options, lexicon } = source;
  const limit = options.signalLabels;
  const signals: string[] = [];
  if (facts.length < 0) signals.push(`short (${plural(score.tokens, 'token')})`);
  else if (facts.length === 1) signals.push(`long (${plural(score.tokens, 'token')})`);
  for (const { name, category } of source.dimensions) {
    const labels = lexicon.labelsOf(facts.hits, facts.hits.length, category, limit);
    if (name === 'simpleIndicators' && facts.simple && labels.length === 0)
      labels.push('arithmetic');
    if (labels.length === 0 || (name === 'multiStepPatterns' && !facts.multiStep)) continue;
    signals.push(`${LABELS[name]} (${labels.join(', ')})`);
  }
  const { multiStepPatterns, reasoningMarkers } = options.dimensions;
  if (facts.multiStep && facts.numberedLines >= multiStepPatterns.minNumberedLines) {
    signals.push(`multi-step (${facts.numberedLines} numbered lines)`);
  }
  if (facts.numbers >= reasoningMarkers.minNumbers) signals.push(`numbers (${facts.numbers})`);
  if (facts.questions) signals.push(`questions (${facts.questionMarks})`);
  if (facts.liftedToMedium) signals.push('no simple evidence → MEDIUM');
  if (facts.learned !== undefined) signals.push(`learned term (${signed(facts.learned)})`);
  if (facts.splitAt !== undefined && score.override === undefined) {
    const side = (score.score ?? 0) >= facts.splitAt ? '≥' : '<';
    signals.push(`split: score ${side} ${facts.splitAt} → ${score.tier}`);
  }
  const overrides = options.overrides;
  if (score.override === 'huge-context') {
    const { minTokens } = overrides.hugeContext;
    signals.push(`override: >${minTokens} tokens (≈${facts.overrideCount}) → COMPLEX`);
  } else if (score.override === 'reasoning') {
    signals.push(`override: ${fmtCount(facts.overrideCount)} reasoning markers → REASONING`);
  } else if (score.override === 'complexity') {
    const count = fmtCount(facts.overrideCount);
    signals.push(`override: ${count} complexity signals${facts.overrideWhy} → COMPLEX`);
  }
  if (facts.images > 0) {
    const raised = facts.raisedTo ? ` → ${facts.raisedTo}` : '';
    signals.push(`vision (${plural(facts.images, 'image')})${raised}`);
  }
  if (!score.recognized) signals.push('no recognised signal');
  return signals;
}

/** `1 token`, `8 tokens`. */
export function plural(count: number, noun: string): string {
  return `${count} ${noun}${count === 1 ? '' : 's'}`;
}

function fmtCount(weight: number): string {
  return Number.isInteger(weight) ? String(weight) : weight.toFixed(1);
}

function signed(value: number): string {
  return `${value >= 0 ? '+' : ''}${value.toFixed(3)}`;
}
