import Type, { type Static } from 'typebox';

/**
 * The configuration schema of the context-policy router (the original design), written once as TypeBox
 * (JSON Schema with static types) and validated by the core's `compileConfig`. The types of the
 * subsystem are derived from it, so the schema, the types and the validation cannot drift apart.
 */

/** Names of signals, features and modes: identifiers, as they appear in the LLM's JSON. */
const NAME = '^[A-Za-z][A-Za-z0-9_]*$';
const Name = Type.String({ pattern: NAME });
const closed = { additionalProperties: false } as const;

/** What a question of one mode gets sent with, and how its answer is shaped. */
export const ContextPolicySchema = Type.Object(
  {
    /** Send the page image. */
    useImage: Type.Boolean({ default: true }),
    /** Send conversation history (see `historyTurnWindow`). */
    useHistory: Type.Boolean({ default: true }),
    /** Send memory context from past sessions. */
    useMemoryContext: Type.Boolean({ default: true }),
    /** Send notes context (e.g. an Obsidian vault) where configured. */
    useNotesContext: Type.Boolean({ default: true }),
    /** Cap the answer at this many sentences; `null` = no cap. */
    maxSentences: Type.Union([Type.Integer({ minimum: 1 }), Type.Null()], { default: null }),
    /** With `useHistory`, send the last N turns; 0 = the full history. */
    historyTurnWindow: Type.Integer({ minimum: 0, default: 0 }),
    /** An instruction added to the turn; `null` = the default system prompt only. */
    turnInstruction: Type.Union([Type.String({ minLength: 1 }), Type.Null()], { default: null }),
  },
  closed,
);

/** A gapped signal pattern: every part in order, each within `maxGap` words of the previous. */
export const SignalSequenceSchema = Type.Object(
  {
    /** Each part is a list of alternative phrases (the compact `(a|b)` syntax is allowed). */
    parts: Type.Array(Type.Array(Type.String({ minLength: 1 }), { minItems: 1 }), {
      minItems: 2,
    }),
    /** Most words between two consecutive parts; absent = any distance. */
    maxGap: Type.Optional(Type.Integer({ minimum: 0 })),
  },
  closed,
);

/** One signal: fires when any phrase, or any sequence, is found in the question. */
export const SignalSchema = Type.Object(
  {
    /**
     * Words or phrases (whole words, case- and diacritic-insensitive; CJK anywhere; `stem*` and
     * `*stem`; the compact `(a|b|)` syntax expands to alternatives).
     */
    phrases: Type.Array(Type.String({ minLength: 1 }), { default: [] }),
    sequences: Type.Array(SignalSequenceSchema, { default: [] }),
  },
  closed,
);

/** An intermediate score: `base` plus the weight of each matched signal, counted once. */
export const FeatureSchema = Type.Object(
  {
    base: Type.Number({ default: 0 }),
    /** Weight by signal name. */
    weights: Type.Record(Name, Type.Number(), closed),
  },
  closed,
);

/**
 * A term of a mode's score: `factor × feature`, or with `over`, the hinge
 * `factor × max(0, feature − over)` (the original design's "if definition > 0.60: += (definition − 0.60)
 * × 1.25").
 */
export const ScoreTermSchema = Type.Object(
  {
    feature: Name,
    factor: Type.Number(),
    over: Type.Optional(Type.Number()),
  },
  closed,
);

/** A bonus (or, when negative, a penalty) added when all its conditions hold. */
export const ScoreBonusSchema = Type.Object(
  {
    add: Type.Number(),
    /** Every one of these signals matched. */
    signals: Type.Array(Name, { default: [] }),
    /** Every one of these features is strictly above its threshold. */
    above: Type.Record(Name, Type.Number(), { ...closed, default: {} }),
  },
  closed,
);

/** How a mode's score is computed from the features. */
export const ModeScoreSchema = Type.Object(
  {
    terms: Type.Array(ScoreTermSchema, { default: [] }),
    bonuses: Type.Array(ScoreBonusSchema, { default: [] }),
  },
  closed,
);

/** One question mode: how it scores, how the LLM is told about it, and its context policy. */
export const ContextModeSchema = Type.Object(
  {
    /** For the LLM prompt: "Use <mode> for <description>." */
    description: Type.String({ minLength: 1 }),
    /** Example questions of this mode, shown to the LLM. */
    examples: Type.Array(Type.String({ minLength: 1 }), { default: [] }),
    score: ModeScoreSchema,
    policy: ContextPolicySchema,
  },
  closed,
);

/** The LLM router's settings (the original design's `ROUTER_*`). */
export const ContextLlmSchema = Type.Object(
  {
    /** The model, overriding the provider's default (the document uses a small, fast one). */
    model: Type.Optional(Type.String({ minLength: 1 })),
    /** Strict time limit of the LLM decision. */
    timeoutMs: Type.Integer({ minimum: 1, default: 350 }),
    maxTokens: Type.Integer({ minimum: 1, default: 80 }),
    /** An LLM verdict below this confidence counts as unsure (→ fallback). */
    confidenceThreshold: Type.Number({ minimum: 0, maximum: 1, default: 0.7 }),
    temperature: Type.Number({ minimum: 0, maximum: 2, default: 0 }),
    /** The first line of the system prompt: who the assistant is. */
    role: Type.String({
      minLength: 1,
      default: 'You classify user questions for a document-camera assistant.',
    }),
    /** The LLM's `reason` is cut to this length before it is validated and stored. */
    maxReasonChars: Type.Integer({ minimum: 1, default: 200 }),
    /** LLM verdicts cached by normalised question (0 = no cache). */
    cacheSize: Type.Integer({ minimum: 0, default: 1000 }),
    cacheTtlMs: Type.Integer({ minimum: 1, default: 600_000 }),
  },
  { ...closed, default: {} },
);

/** The complete router configuration, after defaults are filled in. */
export const ContextRouterConfigSchema = Type.Object(
  {
    /** Disabled = every question gets `disabledMode` (the original design: general contextual). */
    enabled: Type.Boolean({ default: true }),
    disabledMode: Type.String({ default: 'general_contextual' }),
    /** The local verdict is used when its confidence reaches this … */
    localConfidenceThreshold: Type.Number({ minimum: 0, maximum: 1, default: 0.75 }),
    /** … and its margin (best score − second-best score) reaches this. */
    localMarginThreshold: Type.Number({ minimum: 0, default: 0.2 }),
    /** The local confidence when no signal matched at all (departing from the original design: low, not 0.99). */
    noSignalConfidence: Type.Number({ minimum: 0, maximum: 1, default: 0.34 }),
    /** Only the first N UTF-16 units of a question are classified (and sent to the LLM). */
    maxQuestionChars: Type.Integer({ minimum: 1, default: 4096 }),
    /**
     * When the local verdict is unsure and no LLM is configured: keep the local verdict (`local`)
     * or use the fallback mode (`fallback`, what the source did).
     */
    whenUnsureWithoutLlm: Type.Union([Type.Literal('local'), Type.Literal('fallback')], {
      default: 'local',
    }),
    /** The safe decision when neither the local router nor the LLM can decide. */
    fallback: Type.Object(
      {
        mode: Type.String({ default: 'standalone_definition' }),
        confidence: Type.Number({ minimum: 0, maximum: 1, default: 0.5 }),
      },
      { ...closed, default: {} },
    ),
    llm: ContextLlmSchema,
    signals: Type.Record(Name, SignalSchema, closed),
    features: Type.Record(Name, FeatureSchema, closed),
    /** The mode table, in order: ties go to the earlier mode; the LLM sees them in this order. */
    modes: Type.Record(Name, ContextModeSchema, { ...closed, minProperties: 2 }),
  },
  closed,
);

export type ContextPolicy = Static<typeof ContextPolicySchema>;
export type SignalSequence = Static<typeof SignalSequenceSchema>;
export type SignalSpec = Static<typeof SignalSchema>;
export type FeatureSpec = Static<typeof FeatureSchema>;
export type ScoreTerm = Static<typeof ScoreTermSchema>;
export type ScoreBonus = Static<typeof ScoreBonusSchema>;
export type ModeScore = Static<typeof ModeScoreSchema>;
export type ContextModeSpec = Static<typeof ContextModeSchema>;
export type ContextLlmConfig = Static<typeof ContextLlmSchema>;
/** A validated router configuration with every default filled in. */
export type ContextRouterConfig = Static<typeof ContextRouterConfigSchema>;

/** A partial object, recursively (arrays are replaced whole, not merged). */
export type DeepPartial<T> = T extends readonly unknown[]
  ? T
  : T extends object
    ? { [K in keyof T]?: DeepPartial<T[K]> }
    : T;

/**
 * What a user passes: any part of the configuration. Tables (`signals`, `features`, `modes`) are
 * merged by name with the defaults: an entry of a known name is merged field by field into the
 * default entry, a new name adds an entry, and `null` removes one.
 */
export type ContextRouterConfigInput = {
  [K in Exclude<keyof ContextRouterConfig, 'signals' | 'features' | 'modes'>]?: DeepPartial<
    ContextRouterConfig[K]
  >;
} & {
  signals?: Record<string, DeepPartial<SignalSpec> | null>;
  features?: Record<string, DeepPartial<FeatureSpec> | null>;
  modes?: Record<string, DeepPartial<ContextModeSpec> | null>;
} & KlausRouterSettings;

/**
 * The router's settings under the names of the project the design comes from (Klaus's
 * `config.toml`), read into their places: see klaus-config.ts. A file of that project holds its
 * other settings too; when one of these keys is given, those others are left out.
 */
export interface KlausRouterSettings {
  /** `enabled`. */
  enable_query_router?: boolean;
  /** `localConfidenceThreshold`. */
  router_local_confidence_threshold?: number;
  /** `localMarginThreshold`. */
  router_local_margin_threshold?: number;
  /** `llm.model`. */
  router_model?: string;
  /** `llm.timeoutMs`. */
  router_timeout_ms?: number;
  /** `llm.maxTokens`. */
  router_max_tokens?: number;
  /** `llm.confidenceThreshold`. */
  router_llm_confidence_threshold?: number;
}
