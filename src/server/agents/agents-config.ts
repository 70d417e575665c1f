import Type, { type Static } from 'typebox';
import { ClassifierExampleSchema } from '../../capabilities/capability.js';

/**
 * The `agents` section of the server configuration: what the gateway does to agent traffic
 * (requests carrying `tools` and tool-use history) before it is forwarded. Every feature is off
 * by default; a request may turn one on or off with its header (see {@link agentSwitches}).
 */

/** Tool selection: forward only the tools the task needs. */
export const AgentToolsSchema = Type.Object(
  {
    enabled: Type.Boolean({ default: false }),
    /** Requests with fewer tools than this are forwarded whole: little to save, risk to lose. */
    minTools: Type.Integer({ minimum: 1, maximum: 10_000, default: 8 }),
    /** Tools never removed (by name). */
    alwaysKeep: Type.Array(Type.String({ minLength: 1 }), { default: [] }),
    /** Example tasks per tool name, for the selector (positive and negative). */
    examples: Type.Record(Type.String(), Type.Array(ClassifierExampleSchema), { default: {} }),
    /** The pre-matcher's options (docs/capabilities.md). */
    prematcher: Type.Optional(Type.Unknown()),
    /**
     * Ask the server's LLM (the `llm` section) about tools the pre-matcher is unsure of, one call
     * per tool, under the request's deadline. Off: unsure tools are kept.
     */
    llm: Type.Boolean({ default: false }),
    /** Distinct tool lists whose compiled selector is kept. */
    cacheSize: Type.Integer({ minimum: 1, maximum: 100_000, default: 256 }),
  },
  { additionalProperties: false, default: {} },
);

/** Guidance: run the trajectory classifiers on the request's tool-use history. */
export const AgentGuidanceSchema = Type.Object(
  {
    enabled: Type.Boolean({ default: false }),
    /** The guidance providers, as in a guidance configuration file; absent: the defaults. */
    providers: Type.Optional(Type.Array(Type.Unknown())),
    /** How a nudge is added: a `system` message, or a `user` message, after the history. */
    as: Type.Union([Type.Literal('system'), Type.Literal('user')], { default: 'system' }),
    /** Provider ids whose firing refuses the request (403) instead of nudging. */
    block: Type.Array(Type.String({ minLength: 1 }), { default: [] }),
    /** Conversations whose trajectory is kept in memory (least recently used leave first). */
    conversations: Type.Integer({ minimum: 1, maximum: 10_000_000, default: 10_000 }),
    /** Seconds a conversation's trajectory is kept after its last request. */
    ttlSeconds: Type.Integer({ minimum: 1, maximum: 7 * 86_400, default: 3_600 }),
  },
  { additionalProperties: false, default: {} },
);

/** Context trimming: forward only the history the context policy allows. */
export const AgentContextSchema = Type.Object(
  { enabled: Type.Boolean({ default: false }) },
  { additionalProperties: false, default: {} },
);

/** The `agents` section. */
export const AgentsSectionSchema = Type.Object(
  { tools: AgentToolsSchema, guidance: AgentGuidanceSchema, context: AgentContextSchema },
  { additionalProperties: false, default: {} },
);

export type AgentsSection = Static<typeof AgentsSectionSchema>;
export type AgentToolsSection = Static<typeof AgentToolsSchema>;
export type AgentGuidanceSection = Static<typeof AgentGuidanceSchema>;

/** The request headers that turn a feature on or off for one request (`on`/`off`). */
export const TOOLS_HEADER = 'x-triage-tools';
export const GUIDANCE_HEADER = 'x-triage-guidance';
export const TRIM_HEADER = 'x-triage-trim';
/** The conversation a request belongs to; absent: a hash of its first messages. */
export const CONVERSATION_HEADER = 'x-triage-conversation';

/** Which features run for one request. */
export interface AgentSwitches {
  readonly tools: boolean;
  readonly guidance: boolean;
  readonly trim: boolean;
}

/**
 * The features on for a request: the configuration's, each overridden by its header when the
 * header says `on`/`true`/`1` or `off`/`false`/`0` (any other value is ignored, not an error:
 * a switch is a preference, and the configuration's choice is the safe one).
 */
export function agentSwitches(
  section: AgentsSection,
  headers: Readonly<Record<string, string | string[] | undefined>>,
): AgentSwitches {
  return {
    tools: switchOf(headers[TOOLS_HEADER], section.tools.enabled),
    guidance: switchOf(headers[GUIDANCE_HEADER], section.guidance.enabled),
    trim: switchOf(headers[TRIM_HEADER], section.context.enabled),
  };
}

function switchOf(value: string | string[] | undefined, configured: boolean): boolean {
  if (typeof value !== 'string') return configured;
  const word = value.trim().toLowerCase();
  if (word === 'on' || word === 'true' || word === '1') return true;
  if (word === 'off' || word === 'false' || word === '0') return false;
  return configured;
}
