import { charTables, SKIP, WORD } from '../text/chars.js';
import { textStats } from '../text/index.js';
import { extractPrompt, type TierRequest } from './extract.js';
import { DIMENSIONS } from './keywords/index.js';
import { tierFoldTable } from './lexicon.js';
import type { TierOptions } from './options.js';
import { type TierOverride, TierScorer } from './scorer.js';
import { isLearnableWord } from './weights.js';

/**
 * What the trainer learns from, for one prompt: what the scorer's single lexicon scan already
 * produces (the fifteen dimension scores, the text statistics) and the words of the prompt as
 * the scan sees them (folded, whole words), from which a learned term may pick some.
 */
export interface PromptFeatures {
  /** The dimension scores, in DIMENSIONS order. */
  readonly dimensions: Float64Array;
  /** ln(1 + estimated tokens), ln(1 + numbers), min(question marks, 3): the learned features. */
  readonly logTokens: number;
  readonly logNumbers: number;
  readonly questionMarks: number;
  /** The distinct learnable words, folded as the lexicon folds them. */
  readonly words: readonly string[];
  /** The override that decided the tier, if any (the score then did not). */
  readonly override: TierOverride | undefined;
  /** Some dimension besides length spoke (the scorer's `recognized`). */
  readonly recognized: boolean;
  /** The untrained scorer's score (absent when a huge prompt was decided by its size). */
  readonly score: number | undefined;
  /** Characters of the scored text (the length-only baseline). */
  readonly chars: number;
}

/** Shortest word a learned term uses: one and two letters are answer letters and particles. */
export const MIN_LEARNED_WORD = 3;

/** Extracts {@link PromptFeatures} with the extraction and scorer of `options`. */
export class FeatureExtractor {
  readonly #options: TierOptions;
  readonly #scorer: TierScorer;

  /** `options` without trained weights: features are what the untrained scorer sees. */
  constructor(options: TierOptions) {
    const base = untrainedOptions(options);
    this.#options = base;
    this.#scorer = new TierScorer(base);
  }

  /** The features of one prompt or chat request. Throws `TierRequestError` for a bad request. */
  features(input: TierRequest | string): PromptFeatures {
    const prompt = extractPrompt(input, this.#options.extraction);
    const score = this.#scorer.score(prompt.text, prompt);
    // A prompt decided by its size alone was not scanned: its dimensions are unknown (0).
    const scores = score.score === undefined ? undefined : this.#scorer.lastDimensionScores();
    const stats = textStats(prompt.text);
    return {
      dimensions: Float64Array.from(DIMENSIONS, (name) => scores?.[name] ?? 0),
      logTokens: Math.log1p(score.tokens),
      logNumbers: Math.log1p(stats.numbers),
      questionMarks: Math.min(stats.questionMarks, 3),
      words: learnableWords(prompt.text),
      override: score.override,
      recognized: score.recognized,
      score: score.score,
      chars: prompt.text.length,
    };
  }
}

/**
 * The distinct words of `text` a learned term can use: runs of word characters, folded like the
 * tier lexicon folds them, of letters only and at least {@link MIN_LEARNED_WORD} long. The scan
 * finds exactly these as whole-word entries.
 */
export function learnableWords(text: string): string[] {
  const { classOf } = charTables();
  const fold = tierFoldTable();
  const words = new Set<string>();
  let word = '';
  for (let i = 0; i <= text.length; i++) {
    const code = i < text.length ? text.charCodeAt(i) : 0x20;
    const kind = classOf[code];
    if (kind === SKIP) continue;
    if (kind === WORD) {
      const folded = fold[code]!;
      if (folded !== 0) word += String.fromCharCode(folded);
      continue;
    }
    if (word.length >= MIN_LEARNED_WORD && isLearnableWord(word)) words.add(word);
    word = '';
  }
  return [...words];
}

/** `options` without trained weights and without a split: the document's four-tier scorer. */
export function untrainedOptions(options: TierOptions): TierOptions {
  const { weights: _weights, split: _split, ...rest } = options;
  return rest;
}
