import Type, { type Static } from 'typebox';
import { ConfigError } from '../core/errors.js';
import { compileConfig } from '../core/validate.js';
import { KEYWORD_LANGUAGES } from './keywords/index.js';
import { TIERS, type Tier, tierRank } from './tiers.js';
import { DEFAULT_BACK_REFERENCES, DEFAULT_SIGN_OFFS } from './trailing-message.js';
import { TierWeightsSchema, weightIssues } from './weights.js';

/**
 * The tier router's options: one TypeBox schema, validated with `compileConfig` (defaults filled
 * in, unknown keys rejected, every bad field named by path). Every default is the original design's
 * value where the document gives one; the others are named and explained here.
 */

const tierLiterals = () =>
  [
    Type.Literal('SIMPLE'),
    Type.Literal('MEDIUM'),
    Type.Literal('COMPLEX'),
    Type.Literal('REASONING'),
  ] as const;
const TierSchema = Type.Union([...tierLiterals()]);
const tierWithDefault = (fallback: Tier) => Type.Union([...tierLiterals()], { default: fallback });
const confidence = (fallback: number) => Type.Number({ minimum: 0, maximum: 1, default: fallback });
const chain = (...tiers: Tier[]) => Type.Array(TierSchema, { minItems: 1, default: tiers });

const KeywordEntrySchema = Type.Union([
  Type.String({ minLength: 1 }),
  Type.Object(
    {
      phrase: Type.String({ minLength: 1 }),
      weight: Type.Optional(Type.Number({ minimum: 0, maximum: 10 })),
      label: Type.Optional(Type.String({ minLength: 1 })),
    },
    { additionalProperties: false },
  ),
]);

/** The fields of a dimension fed by keywords: its weight, how keyword weight maps to a score. */
function keywordFields(weight: number, unit: number) {
  return {
    /** The dimension's weight in the sum (the original design's table). */
    weight: Type.Number({ minimum: 0, maximum: 1, default: weight }),
    /**
     * The score per unit of keyword weight found, clamped to [-1, 1]: with 0.5, one keyword
     * scores 0.5 and two score 1.0. Keywords weigh 1 unless marked weak (0.5).
     */
    unit: Type.Number({ minimum: -1, maximum: 1, default: unit }),
    /** Replaces the built-in keywords of this dimension (all languages). */
    keywords: Type.Optional(Type.Array(KeywordEntrySchema)),
    /** Added to the keywords in use. */
    extraKeywords: Type.Array(KeywordEntrySchema, { default: [] }),
  };
}

const keywordDimension = (weight: number, unit: number) =>
  Type.Object(keywordFields(weight, unit), { additionalProperties: false, default: {} });

const DimensionsSchema = Type.Object(
  {
    tokenCount: Type.Object(
      {
        weight: Type.Number({ minimum: 0, maximum: 1, default: 0.08 }),
        /** Below this many estimated tokens the dimension scores -1. */
        short: Type.Integer({ minimum: 0, default: 50 }),
        /** Above this many it scores +1; in between it rises linearly from 0. */
        long: Type.Integer({ minimum: 1, default: 500 }),
      },
      { additionalProperties: false, default: {} },
    ),
    codePresence: keywordDimension(0.14, 0.5),
    reasoningMarkers: Type.Object(
      {
        ...keywordFields(0.17, 0.6),
        /**
         * Numbers that make a prompt look like a maths or logic problem ("a loan of 11 million at
         * 3% over 10 months"): from this many, `numbersWeight` is added to the keyword weight.
         */
        minNumbers: Type.Integer({ minimum: 1, default: 3 }),
        numbersWeight: Type.Number({ minimum: 0, default: 0.5 }),
      },
      { additionalProperties: false, default: {} },
    ),
    technicalTerms: keywordDimension(0.09, 0.5),
    creativeMarkers: keywordDimension(0.05, 0.5),
    simpleIndicators: Type.Object(
      {
        ...keywordFields(0.11, -1),
        /**
         * "What is", "how much" and a greeting say a prompt is simple when it is short; at the
         * head of a long request they say nothing ("Hi! Write me a story about …"). The score
         * counts fully up to `fullBelow` estimated tokens and fades to nothing at `noneAbove`.
         */
        fullBelow: Type.Integer({ minimum: 0, default: 15 }),
        noneAbove: Type.Integer({ minimum: 1, default: 45 }),
        /**
         * The share of the simple score kept when the prompt asks for an action (a non-weak
         * imperative keyword: write, build, explain, …): a greeting, a thank-you or a topic word
         * such as "weather" attached to a request does not make the request simple.
         */
        withAction: Type.Number({ minimum: 0, maximum: 1, default: 0 }),
        /**
         * SIMPLE only with positive evidence: a prompt in which something was recognised but no
         * simple indicator ("Write a haiku about snow": an action, nothing simple) is at least
         * MEDIUM, however short, and its confidence is measured to the boundaries above MEDIUM.
         * Off: the document's rule, where shortness alone scores toward SIMPLE and such prompts
         * sit on the MEDIUM boundary (ambiguous).
         */
        requiredForSimple: Type.Boolean({ default: true }),
      },
      { additionalProperties: false, default: {} },
    ),
    multiStepPatterns: Type.Object(
      {
        ...keywordFields(0.11, 1),
        /**
         * Keyword weight that makes a prompt multi-step: `first` + `then` (1 + 1), or one marker
         * such as `step 1` (weight 2). Below it the dimension scores 0, at or above it 1.
         */
        minWeight: Type.Number({ minimum: 0, default: 2 }),
        /** Numbered lines (`1.`, `2)`) that make a prompt multi-step by themselves. */
        minNumberedLines: Type.Integer({ minimum: 1, default: 2 }),
        /**
         * Distinct actions asked for (imperative or agentic keywords that are not weak, counted
         * once per place in the text) that make a prompt multi-step: "read the file, fix the bug,
         * run the tests and open a pull request" lists its steps without saying "first".
         */
        minActions: Type.Integer({ minimum: 1, default: 3 }),
      },
      { additionalProperties: false, default: {} },
    ),
    questionComplexity: Type.Object(
      {
        weight: Type.Number({ minimum: 0, maximum: 1, default: 0.04 }),
        /** Question marks from which the dimension scores 1 (document: 4+). */
        minQuestions: Type.Integer({ minimum: 1, default: 4 }),
      },
      { additionalProperties: false, default: {} },
    ),
    imperativeVerbs: keywordDimension(0.03, 0.5),
    constraintCount: keywordDimension(0.04, 0.5),
    outputFormat: keywordDimension(0.03, 0.5),
    referenceComplexity: keywordDimension(0.02, 0.5),
    negationComplexity: keywordDimension(0.01, 0.5),
    domainSpecificity: keywordDimension(0.02, 0.5),
    agenticTask: keywordDimension(0.06, 0.5),
  },
  { additionalProperties: false, default: {} },
);

export const TierOptionsSchema = Type.Object(
  {
    dimensions: DimensionsSchema,
    /** The score at which each tier starts (the original design: 0.00 / 0.15 / 0.35). */
    boundaries: Type.Object(
      {
        MEDIUM: Type.Number({ default: 0 }),
        COMPLEX: Type.Number({ default: 0.15 }),
        REASONING: Type.Number({ default: 0.35 }),
      },
      { additionalProperties: false, default: {} },
    ),
    confidence: Type.Object(
      {
        /** k in sigmoid(k · distance to the nearest boundary) (document: 12). */
        steepness: Type.Number({ exclusiveMinimum: 0, default: 12 }),
        /** Below this the verdict is ambiguous and the LLM check runs (document: 0.70). */
        llmBelow: confidence(0.7),
        /**
         * The most confidence a verdict can have when no keyword, list or question mark was found
         * at all (only the length spoke): the scorer knows nothing about such a prompt, so it is
         * ambiguous (e.g. a language without a keyword pack). 1 turns this off.
         */
        unrecognized: confidence(0.5),
      },
      { additionalProperties: false, default: {} },
    ),
    overrides: Type.Object(
      {
        /** > 100k estimated tokens of request → COMPLEX at ≥ 0.95 (document). */
        hugeContext: Type.Object(
          {
            enabled: Type.Boolean({ default: true }),
            minTokens: Type.Integer({ minimum: 1, default: 100_000 }),
            confidence: confidence(0.95),
            /**
             * Decide without scanning when the text is provably over the limit (every UTF-16 unit
             * is at least a quarter of a token, so chars / 4 is a lower bound). The verdict is the
             * same; score and keyword signals are then absent.
             */
            skipScan: Type.Boolean({ default: true }),
          },
          { additionalProperties: false, default: {} },
        ),
        /** 2+ reasoning keywords → REASONING at ≥ 0.85 (document). Counted as keyword weight. */
        reasoning: Type.Object(
          {
            enabled: Type.Boolean({ default: true }),
            minWeight: Type.Number({ minimum: 0, default: 2 }),
            confidence: confidence(0.85),
          },
          { additionalProperties: false, default: {} },
        ),
        /**
         * 4+ complexity signals (technical + imperative + agentic keyword weight) and (multi-step
         * or a long prompt) → COMPLEX at ≥ 0.85 (document). "Long" is the token-count dimension's
         * `long` threshold.
         */
        complexity: Type.Object(
          {
            enabled: Type.Boolean({ default: true }),
            minSignals: Type.Number({ minimum: 0, default: 4 }),
            /**
             * So many complexity signals that the prompt is COMPLEX without being multi-step or
             * long ("design a scalable microservice architecture: services, databases, message
             * queues, caching, Kubernetes"). An addition to the document's rule.
             */
            minSignalsAlone: Type.Number({ minimum: 0, default: 5 }),
            confidence: confidence(0.85),
          },
          { additionalProperties: false, default: {} },
        ),
      },
      { additionalProperties: false, default: {} },
    ),
    /** The lowest tier for a request whose user message carries images (departing from the original design: vision). */
    vision: Type.Object(
      { minTier: tierWithDefault('MEDIUM') },
      { additionalProperties: false, default: {} },
    ),
    /** Which built-in keyword packs to load (ISO 639-1 codes). */
    languages: Type.Array(
      Type.Union([
        Type.Literal('en'),
        Type.Literal('zh'),
        Type.Literal('ja'),
        Type.Literal('ko'),
        Type.Literal('ru'),
        Type.Literal('es'),
        Type.Literal('pt'),
        Type.Literal('de'),
        Type.Literal('fr'),
        Type.Literal('ar'),
      ]),
      {
        default: [...KEYWORD_LANGUAGES],
        uniqueItems: true,
      },
    ),
    extraction: Type.Object(
      {
        /**
         * Markers after which a packed context has the current message (document case 1). The
         * text after the last occurrence of any of them is scored.
         */
        currentMessageMarkers: Type.Array(Type.String({ minLength: 1 }), {
          default: ['[Current message - respond to this]'],
        }),
        /** Remove the system prompt when a client pasted it into the user message (case 2). */
        stripEmbeddedSystemPrompt: Type.Boolean({ default: true }),
        /**
         * Case 3: a long user message and no system message, whose last paragraph is likely the
         * user's request and the rest a system prompt sent as user text. `guarded` (default): the
         * original design's rule, scoring only the last paragraph, except that a trailing sign-off
         * ("Thanks!", `signOffs`) is skipped for the paragraph before it, and a last paragraph
         * that refers back to the text above ("Why does this fail?", `backReferences`) keeps the
         * whole message (it is about that text), unless the message opens like a system prompt
         * (`personaOpeners`). `always`: the design's rule without exceptions. `persona`: only
         * when the message opens like a system prompt. `off`: never.
         */
        trailingMessage: Type.Union(
          [
            Type.Literal('guarded'),
            Type.Literal('always'),
            Type.Literal('persona'),
            Type.Literal('off'),
          ],
          { default: 'guarded' },
        ),
        /** A user message longer than this (characters) may hold a system prompt (case 3). */
        minChars: Type.Integer({ minimum: 1, default: 500 }),
        /** The text after the last blank line is used only when shorter than this (case 3). */
        maxTailChars: Type.Integer({ minimum: 1, default: 500 }),
        /** How a system prompt opens, for `persona` (case-insensitive, after white space). */
        personaOpeners: Type.Array(Type.String({ minLength: 1 }), {
          default: [
            'you are',
            "you're",
            'your role',
            'your task is',
            'as an ai',
            'system:',
            '# system',
            '<system>',
            '### instructions',
            'instructions:',
            'tu es ',
            'vous êtes',
            'du bist',
            'sie sind ein',
            'eres ',
            'usted es',
            'você é',
            'ты —',
            'ты -',
            'вы —',
            '你是',
            'あなたは',
            '당신은',
            'أنت ',
          ],
        }),
        /**
         * Paragraphs that only close a message (case 3, `guarded`): compared whole, ignoring case,
         * punctuation and symbols; a signature line may follow.
         */
        signOffs: Type.Array(Type.String({ minLength: 1 }), { default: [...DEFAULT_SIGN_OFFS] }),
        /**
         * Words by which a last paragraph refers back to the text above it (case 3, `guarded`),
         * in the lexicon syntax: whole words, CJK anywhere.
         */
        backReferences: Type.Array(Type.String({ minLength: 1 }), {
          default: [...DEFAULT_BACK_REFERENCES],
        }),
      },
      { additionalProperties: false, default: {} },
    ),
    /** Model ids that force a tier and bypass classification (document: forced tier override). */
    forcedModels: Type.Object(
      {
        /**
         * Prefixes stripped before the lookup (`triage/simple` → `simple`). claw-llm-router's own
         * prefix is accepted too, so that its clients' model ids work unchanged.
         */
        prefixes: Type.Array(Type.String({ minLength: 1 }), {
          default: ['triage/', 'claw-llm-router/'],
        }),
        /** Model id (lower case) → tier. */
        tiers: Type.Record(Type.String({ minLength: 1 }), TierSchema, {
          default: {
            simple: 'SIMPLE',
            medium: 'MEDIUM',
            complex: 'COMPLEX',
            reasoning: 'REASONING',
          },
        }),
      },
      { additionalProperties: false, default: {} },
    ),
    /** The tiers to try in order when a provider fails (the original design's table). */
    fallbackChain: Type.Object(
      {
        SIMPLE: chain('SIMPLE', 'MEDIUM', 'COMPLEX'),
        MEDIUM: chain('MEDIUM', 'COMPLEX'),
        COMPLEX: chain('COMPLEX', 'REASONING'),
        REASONING: chain('REASONING'),
      },
      { additionalProperties: false, default: {} },
    ),
    llm: Type.Object(
      {
        /** Strict time limit of the LLM check in milliseconds. */
        timeoutMs: Type.Integer({ minimum: 1, default: 1_000 }),
        /** The prompt is cut to this many characters before it is sent (document: 500). */
        maxChars: Type.Integer({ minimum: 1, default: 500 }),
        /** Answer length limit; the answer is one word. */
        maxTokens: Type.Integer({ minimum: 1, default: 8 }),
        /** The tier used when the check fails or answers nonsense (document: MEDIUM). */
        fallbackTier: tierWithDefault('MEDIUM'),
        /**
         * Keep the local tier when it is higher than the fallback tier: a failed check must not
         * send a request the scorer placed in COMPLEX or REASONING down to MEDIUM.
         */
        neverDemote: Type.Boolean({ default: true }),
        /**
         * With no classifier configured, an ambiguous verdict goes to the fallback (`fallback`,
         * the document's "no API key → MEDIUM") or keeps the local tier (`local`).
         */
        whenOff: Type.Union([Type.Literal('fallback'), Type.Literal('local')], {
          default: 'fallback',
        }),
        /** Most LLM verdicts cached (keyed by model and truncated prompt); 0 disables the cache. */
        cacheSize: Type.Integer({ minimum: 0, default: 10_000 }),
        cacheTtlMs: Type.Integer({ minimum: 1, default: 600_000 }),
      },
      { additionalProperties: false, default: {} },
    ),
    /** Most labels listed per signal (`code (function, class, import)`). */
    signalLabels: Type.Integer({ minimum: 1, default: 3 }),
    /**
     * Trained weights (`triage train`): they replace the dimensions' weights and the boundaries,
     * and may add a learned term. The object itself; a configuration file may name a file path
     * instead, which the CLI and the server read.
     */
    weights: Type.Optional(TierWeightsSchema),
    /**
     * A two-way split instead of four tiers: a score at or above `threshold` (or an override:
     * huge context, reasoning, complexity) goes to `strong`, any other to `weak`. The threshold
     * comes from `triage calibrate` for a share of strong calls or a quality to keep. Decided
     * locally, always: the LLM check and the fallback tier are not used. Images still raise the
     * tier to `vision.minTier`.
     */
    split: Type.Optional(
      Type.Object(
        {
          threshold: Type.Number(),
          weak: tierWithDefault('SIMPLE'),
          strong: tierWithDefault('COMPLEX'),
        },
        { additionalProperties: false },
      ),
    ),
  },
  { additionalProperties: false },
);

/** The tier router's options, as accepted (everything optional). */
export type TierOptionsInput = DeepPartial<Static<typeof TierOptionsSchema>>;

/** The tier router's options, validated, with every default filled in. */
export type TierOptions = Static<typeof TierOptionsSchema>;

type DeepPartial<T> = T extends readonly (infer U)[]
  ? readonly U[]
  : T extends object
    ? { readonly [K in keyof T]?: DeepPartial<T[K]> }
    : T;

const validate = compileConfig(TierOptionsSchema, 'tier router options');

/**
 * Validates tier router options (the caller's object is not modified) and fills in defaults.
 * Throws a `ConfigError` naming every bad field, including the rules a schema cannot say:
 * boundaries in increasing order, `long` above `short`, each fallback chain starting with its
 * own tier and listing no tier twice.
 */
export function tierOptions(input: TierOptionsInput = {}, source?: string): TierOptions {
  const options = validate(structuredClone(input), source);
  const issues: { path: string; message: string }[] = [];
  const { MEDIUM, COMPLEX, REASONING } = options.boundaries;
  if (!(MEDIUM <= COMPLEX && COMPLEX <= REASONING)) {
    issues.push({ path: '/boundaries', message: 'must increase: MEDIUM ≤ COMPLEX ≤ REASONING' });
  }
  const { fullBelow, noneAbove } = options.dimensions.simpleIndicators;
  if (noneAbove <= fullBelow) {
    issues.push({
      path: '/dimensions/simpleIndicators/noneAbove',
      message: 'must be greater than fullBelow',
    });
  }
  const { short, long } = options.dimensions.tokenCount;
  if (long <= short) {
    issues.push({ path: '/dimensions/tokenCount/long', message: 'must be greater than short' });
  }
  for (const tier of TIERS) {
    const list = options.fallbackChain[tier];
    if (list[0] !== tier) {
      issues.push({ path: `/fallbackChain/${tier}`, message: `must start with ${tier}` });
    }
    if (new Set(list).size !== list.length) {
      issues.push({ path: `/fallbackChain/${tier}`, message: 'must not list a tier twice' });
    }
  }
  if (options.weights) issues.push(...weightIssues(options.weights, '/weights'));
  const split = options.split;
  if (split && tierRank(split.weak) >= tierRank(split.strong)) {
    issues.push({ path: '/split/strong', message: 'must be a higher tier than weak' });
  }
  if (issues.length > 0) throw new ConfigError(source ?? 'tier router options', issues);
  return options;
}
