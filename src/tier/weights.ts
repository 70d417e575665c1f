import Type, { type Static, type TNumber, type TOptional } from 'typebox';
import { ConfigError, type ConfigIssue } from '../core/errors.js';
import { compileConfig } from '../core/validate.js';
import { charTables, WORD } from '../text/chars.js';
import { DIMENSIONS, type Dimension } from './keywords/index.js';

/**
 * Trained weights of the tier scorer (`triage train`): a weight per dimension, the tier
 * boundaries on the trained score, and an optional learned term over what the lexicon scan
 * already produces: words of the prompt (each word found adds its weight once) and three text
 * statistics. Validated like any configuration: unknown keys and bad values are a `ConfigError`
 * naming each field.
 */

/** Any finite weight a fit can produce; larger magnitudes are a broken file, not a model. */
const weight = (description: string) => Type.Number({ minimum: -100, maximum: 100, description });

const dimensionWeights = {} as Record<Dimension, TOptional<TNumber>>;
for (const name of DIMENSIONS) dimensionWeights[name] = Type.Optional(weight(`weight of ${name}`));
const DimensionWeightsSchema = Type.Object(dimensionWeights, {
  additionalProperties: false,
  default: {},
});

/** The most words a learned term may hold: each one found in a prompt costs time. */
export const MAX_LEARNED_WORDS = 5_000;

export const LearnedTermSchema = Type.Object(
  {
    /** Per text statistic of the scan: weight × its value is added to the score. */
    features: Type.Object(
      {
        /** × ln(1 + estimated tokens of the scored text). */
        logTokens: weight('weight of ln(1 + tokens)'),
        /** × ln(1 + numbers in the text). */
        logNumbers: weight('weight of ln(1 + numbers)'),
        /** × question marks, at most 3. */
        questionMarks: weight('weight of min(question marks, 3)'),
      },
      { additionalProperties: false },
    ),
    /** Word (one word, letters only) → the weight it adds when found, once per prompt. */
    words: Type.Record(Type.String({ minLength: 1, maxLength: 64 }), weight('weight of a word'), {
      maxProperties: MAX_LEARNED_WORDS,
      default: {},
    }),
  },
  { additionalProperties: false },
);

export const TierWeightsSchema = Type.Object(
  {
    /** The format of this file. */
    version: Type.Literal(1),
    /**
     * What the weights were fitted to: `tiers` (tier labels: the score's boundaries are the
     * fitted ones, and confidence is the fitted probability) or `outcomes` (which of a weak and a
     * strong model answered: the score ranks prompts by the expected gain of the strong model,
     * for a two-way `split`; the boundaries give each tier the share of the training prompts the
     * default scorer gave it).
     */
    fittedTo: Type.Union([Type.Literal('tiers'), Type.Literal('outcomes')]),
    /** Replaces the dimensions' weights; a dimension left out keeps its configured weight. */
    dimensions: DimensionWeightsSchema,
    /** The score at which each tier starts, on this score's scale. */
    boundaries: Type.Object(
      { MEDIUM: Type.Number(), COMPLEX: Type.Number(), REASONING: Type.Number() },
      { additionalProperties: false },
    ),
    learned: Type.Optional(LearnedTermSchema),
    /**
     * Replace the options' `overrides.<name>.enabled`. An outcome fit keeps the reasoning and
     * complexity overrides only where sending their prompts to the strong tier first helped on
     * the fitted rows; otherwise the score alone ranks them.
     */
    overrides: Type.Optional(
      Type.Object(
        { reasoning: Type.Optional(Type.Boolean()), complexity: Type.Optional(Type.Boolean()) },
        { additionalProperties: false },
      ),
    ),
    /** How the weights were made (rows, seed, held-out figures): for people, not read back. */
    training: Type.Optional(Type.Record(Type.String(), Type.Unknown())),
  },
  { additionalProperties: false },
);

/** Trained tier-scorer weights (see {@link TierWeightsSchema}). */
export type TierWeights = Static<typeof TierWeightsSchema>;

/** The learned term of trained weights. */
export type LearnedTerm = Static<typeof LearnedTermSchema>;

const validate = compileConfig(TierWeightsSchema, 'tier weights');

/**
 * Validates trained weights (a copy: the caller's object is not modified). Throws a
 * `ConfigError` naming `source` and every bad field, including what the schema cannot say:
 * boundaries in increasing order, each learned word a single word of letters.
 */
export function tierWeights(value: unknown, source = 'tier weights'): TierWeights {
  const weights = validate(structuredClone(value), source);
  const issues = weightIssues(weights, '');
  if (issues.length > 0) throw new ConfigError(source, issues);
  return weights;
}

/** The issues of validated weights that the schema cannot express, with paths under `at`. */
export function weightIssues(weights: TierWeights, at: string): ConfigIssue[] {
  const issues: ConfigIssue[] = [];
  const { MEDIUM, COMPLEX, REASONING } = weights.boundaries;
  if (!(MEDIUM <= COMPLEX && COMPLEX <= REASONING)) {
    issues.push({
      path: `${at}/boundaries`,
      message: 'must increase: MEDIUM ≤ COMPLEX ≤ REASONING',
    });
  }
  for (const word of Object.keys(weights.learned?.words ?? {})) {
    if (!isLearnableWord(word)) {
      issues.push({
        path: `${at}/learned/words/${word}`,
        message: 'must be one word of letters (no spaces, digits or punctuation)',
      });
    }
  }
  return issues;
}

/**
 * Whether `word` can be a learned word: letters of a script that separates words with spaces
 * (what the scan matches as a whole word), no digits or underscore.
 */
export function isLearnableWord(word: string): boolean {
  const { classOf } = charTables();
  for (let i = 0; i < word.length; i++) {
    const code = word.charCodeAt(i);
    if (classOf[code] !== WORD || (code >= 0x30 && code <= 0x39) || code === 0x5f) return false;
  }
  return word.length > 0;
}
