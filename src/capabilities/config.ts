import Type, { type Static } from 'typebox';
import { compileConfig } from '../core/validate.js';

/**
 * The configuration of capability selection, as it may appear in a file (the server's, a
 * deployment's): everything but the registry, the provider and the cache, which are objects.
 * Validated with the project's one mechanism, so a typo is named rather than ignored.
 */

/** Default of {@link SelectionConfig.concurrency} (a departure from the original design). */
export const DEFAULT_SELECTION_CONCURRENCY = 5;
/** Default of {@link SelectionConfig.timeoutMs}. */
export const DEFAULT_CLASSIFICATION_TIMEOUT_MS = 5_000;

const Fraction = Type.Number({ minimum: 0, maximum: 1 });

/** The pre-matcher's thresholds (see `prematcher.ts`); absent fields keep their defaults. */
export const PrematcherConfigSchema = Type.Object(
  {
    noBelow: Type.Optional(Fraction),
    yesAbove: Type.Optional(Fraction),
    margin: Type.Optional(Fraction),
    yesCoverage: Type.Optional(Fraction),
    minCoverage: Type.Optional(Fraction),
    guessAbove: Type.Optional(Fraction),
    guessWithin: Type.Optional(Fraction),
    alsoAbove: Type.Optional(Fraction),
    alsoShare: Type.Optional(Fraction),
    alsoRatio: Type.Optional(Fraction),
    wordWeight: Type.Optional(Fraction),
    guideWeight: Type.Optional(Fraction),
    discriminatorWeight: Type.Optional(Fraction),
    hubWeight: Type.Optional(Fraction),
    features: Type.Optional(
      Type.Object(
        {
          minGram: Type.Optional(Type.Integer({ minimum: 1, maximum: 10 })),
          maxGram: Type.Optional(Type.Integer({ minimum: 1, maximum: 10 })),
          maxChars: Type.Optional(Type.Integer({ minimum: 1 })),
          english: Type.Optional(Type.Boolean()),
        },
        { additionalProperties: false },
      ),
    ),
  },
  { additionalProperties: false },
);

/** Capability selection settings. */
export const SelectionConfigSchema = Type.Object(
  {
    /** Most LLM calls in flight for one selection. */
    concurrency: Type.Integer({
      minimum: 1,
      maximum: 1_000,
      default: DEFAULT_SELECTION_CONCURRENCY,
    }),
    /** Seed of the examples' order in prompts (and the provider's sampling seed). */
    seed: Type.Integer({ default: 0 }),
    /** Most examples per prompt; absent = all. */
    maxExamples: Type.Optional(Type.Integer({ minimum: 0 })),
    /** Time limit of each LLM call in milliseconds. */
    timeoutMs: Type.Integer({
      minimum: 1,
      maximum: 600_000,
      default: DEFAULT_CLASSIFICATION_TIMEOUT_MS,
    }),
    /** Select every capability without classification. */
    bypass: Type.Boolean({ default: false }),
    /** Sampling temperature of the classification calls. */
    temperature: Type.Number({ minimum: 0, maximum: 2, default: 0 }),
    /** The model, overriding the provider's default. */
    model: Type.Optional(Type.String({ minLength: 1 })),
    /** The pre-matcher's thresholds, or `false` to ask the LLM about every capability. */
    prematcher: Type.Union([Type.Literal(false), PrematcherConfigSchema], { default: {} }),
  },
  { additionalProperties: false },
);

/** Validated selection settings, defaults filled in. */
export type SelectionConfig = Static<typeof SelectionConfigSchema>;

const validateSelectionConfig = compileConfig(SelectionConfigSchema, 'capability selection config');

/**
 * Validates selection settings (from a file or from code) and fills in defaults. Throws a
 * `ConfigError` naming `source` and every bad field. The input is not modified.
 */
export function selectionConfig(
  input: unknown = {},
  source = 'capability selection config',
): SelectionConfig {
  return validateSelectionConfig(structuredClone(input), source);
}
