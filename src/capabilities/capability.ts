import Type, { type Static } from 'typebox';

/**
 * A capability is something an agent can do (look up the weather, send an e-mail, answer the
 * user). Capability selection decides which ones a task needs, so that the planner only sees
 * those. Each capability carries a classifier guide: instructions and few-shot examples that tell
 * an LLM (and the local pre-matcher) when it applies.
 */

/** Longest capability name. Names appear in prompts, plans and logs. */
export const MAX_NAME_LENGTH = 64;

/** One few-shot example of a classifier guide. */
export const ClassifierExampleSchema = Type.Object(
  {
    /** A task as a user might write it. */
    query: Type.String({ minLength: 1, maxLength: 2_000 }),
    /** Whether the capability is needed for that task. */
    result: Type.Boolean(),
    /** Why: shown to the LLM with the example. */
    reason: Type.Optional(Type.String({ maxLength: 500 })),
  },
  { additionalProperties: false },
);

/** When a capability applies: instructions and examples (the original design's `TaskClassifierGuide`). */
export const ClassifierGuideSchema = Type.Object(
  {
    /** What to look for, in a sentence or two ("Activate when the user asks about weather"). */
    instructions: Type.String({ minLength: 1, maxLength: 4_000 }),
    /** Few-shot examples, positive (`result: true`) and negative. */
    examples: Type.Array(ClassifierExampleSchema, { maxItems: 200, default: [] }),
  },
  { additionalProperties: false },
);

/** One capability as written in a registry file or passed in code. */
export const CapabilitySchema = Type.Object(
  {
    /** Unique name: letters, digits, `_`, `-`, `.`, `:`; at most 64 characters. */
    name: Type.String({ pattern: '^[A-Za-z0-9_][A-Za-z0-9_.:-]{0,63}$' }),
    /** What the capability does, for the planner and the classifier prompt. */
    description: Type.String({ minLength: 1, maxLength: 2_000 }),
    /** Selected for every task without classification (e.g. `respond`). Default false. */
    alwaysActive: Type.Boolean({ default: false }),
    /** When it applies. Without a guide the LLM is given the description alone. */
    guide: Type.Optional(ClassifierGuideSchema),
  },
  { additionalProperties: false },
);

/** A registry file: `{ capabilities: [...] }`, in YAML or JSON. */
export const RegistryFileSchema = Type.Object(
  { capabilities: Type.Array(CapabilitySchema) },
  { additionalProperties: false },
);

/** One few-shot example. */
export type ClassifierExample = Static<typeof ClassifierExampleSchema>;
/** A classifier guide. */
export type ClassifierGuide = Static<typeof ClassifierGuideSchema>;
/** A validated capability (defaults filled in). */
export type Capability = Static<typeof CapabilitySchema>;

/** A capability as given in code: `alwaysActive` and the guide's `examples` may be omitted. */
export interface CapabilityInput {
  readonly name: string;
  readonly description: string;
  readonly alwaysActive?: boolean;
  readonly guide?: {
    readonly instructions: string;
    readonly examples?: readonly ClassifierExample[];
  };
}
