import type { JsonSchema } from '../llm/types.js';

/**
 * The reserved fields of the original design: well-known output keys the aggregator knows how to merge.
 * A manifest lists the ones its classifier may emit; the runtime injects each field's canonical
 * sub-schema into the classifier's output schema and its prompt fragment into the prompt, so the
 * model is told the exact shape and values, and every classifier that emits a field agrees on it.
 */

/** The reserved fields, in the order their prompt fragments appear. */
export const RESERVED_FIELDS = [
  'final_reply',
  'ack_reply',
  'model_tier',
  'model_specialization',
  'tools',
  'risk_level',
] as const;

/** One reserved field. */
export type ReservedField = (typeof RESERVED_FIELDS)[number];

/** The model tiers a catalog entry may have and `model_tier` may ask for. */
export const PIPELINE_TIERS = [
  'local_fast',
  'local_small',
  'local_strong',
  'local_coding',
  'frontier_fast',
  'frontier_strong',
  'frontier_coding',
] as const;

/** One of {@link PIPELINE_TIERS}. */
export type PipelineTier = (typeof PIPELINE_TIERS)[number];

/** The specializations a catalog entry may list and `model_specialization` may ask for. */
export const PIPELINE_SPECIALIZATIONS = [
  'chat',
  'reasoning',
  'planning',
  'writing',
  'summarization',
  'coding',
  'tool_use',
  'computer_use',
  'vision',
] as const;

/** One of {@link PIPELINE_SPECIALIZATIONS}. */
export type PipelineSpecialization = (typeof PIPELINE_SPECIALIZATIONS)[number];

/** The prompt-injection postures of `risk_level`. */
export const PIPELINE_RISK_LEVELS = ['normal', 'suspicious', 'high_risk', 'unknown'] as const;

/** One of {@link PIPELINE_RISK_LEVELS}. */
export type PipelineRiskLevel = (typeof PIPELINE_RISK_LEVELS)[number];

/**
 * Tool ids models commonly write instead of `web`. They are normalised to `web` before
 * validation, so a model drifting on phrasing does not lose the whole output.
 */
export const TOOL_ALIASES: Readonly<Record<string, string>> = Object.freeze({
  browser: 'web',
  browsing: 'web',
  internet: 'web',
  web_browsing: 'web',
  web_search: 'web',
});

/** Longest `final_reply.text` / `ack_reply.text`, in characters. */
export const MAX_REPLY_CHARS = 200;

/** A reply payload: `final_reply` and `ack_reply`. */
export interface ReplyField {
  readonly text: string;
}

/** The value types of the reserved fields. */
export interface ReservedValues {
  final_reply: ReplyField;
  ack_reply: ReplyField;
  model_tier: PipelineTier;
  model_specialization: PipelineSpecialization;
  tools: readonly string[];
  risk_level: PipelineRiskLevel;
}

const REPLY_SCHEMA: JsonSchema = Object.freeze({
  type: 'object',
  properties: {
    // At least one non-whitespace character: an empty reply is no reply.
    text: { type: 'string', minLength: 1, maxLength: MAX_REPLY_CHARS, pattern: '\\S' },
  },
  required: ['text'],
  additionalProperties: false,
});

/**
 * The reply schema sent to backends: no `pattern` or `minLength`, which some constrained decoders
 * (grammar converters) do not support; validation still applies them.
 */
const BACKEND_REPLY_SCHEMA: JsonSchema = Object.freeze({
  type: 'object',
  properties: { text: { type: 'string', maxLength: MAX_REPLY_CHARS } },
  required: ['text'],
  additionalProperties: false,
});

const RESERVED_SET: ReadonlySet<string> = new Set(RESERVED_FIELDS);

/** True when `name` is a reserved field. */
export function isReservedField(name: string): name is ReservedField {
  return RESERVED_SET.has(name);
}

/**
 * The canonical sub-schema of a reserved field. `tools` is restricted to `allowedTools` (the
 * manifest's menu). With `forBackend`, the tools enum also admits the aliases of allowed ids, so
 * a backend that constrains decoding cannot be forced to fail on a synonym the runtime would
 * have normalised anyway.
 */
export function reservedFieldSchema(
  field: ReservedField,
  allowedTools: readonly string[] = [],
  forBackend = false,
): JsonSchema {
  switch (field) {
    case 'final_reply':
    case 'ack_reply':
      return forBackend ? BACKEND_REPLY_SCHEMA : REPLY_SCHEMA;
    case 'model_tier':
      return { type: 'string', enum: [...PIPELINE_TIERS] };
    case 'model_specialization':
      return { type: 'string', enum: [...PIPELINE_SPECIALIZATIONS] };
    case 'risk_level':
      return { type: 'string', enum: [...PIPELINE_RISK_LEVELS] };
    case 'tools': {
      const allowed = new Set(allowedTools);
      const ids = forBackend
        ? [
            ...allowedTools,
            ...Object.keys(TOOL_ALIASES).filter(
              (alias) => !allowed.has(alias) && allowed.has(TOOL_ALIASES[alias] as string),
            ),
          ]
        : [...allowedTools];
      return {
        type: 'array',
        items: { type: 'string', enum: ids },
        ...(forBackend ? {} : { uniqueItems: true }),
      };
    }
  }
}

/**
 * Normalises a `tools` value before validation: aliases become their canonical id and repeats are
 * removed (a model listing both `browser` and `web` meant one tool). Ids that are not strings are
 * kept as they are, so validation still rejects them.
 */
export function normaliseTools(value: unknown, allowedTools: readonly string[]): unknown {
  if (!Array.isArray(value)) return value;
  const seen = new Set<unknown>();
  const out: unknown[] = [];
  for (const item of value) {
    const id =
      typeof item === 'string' && !allowedTools.includes(item)
        ? (TOOL_ALIASES[item] ?? item)
        : item;
    if (seen.has(id)) continue;
    seen.add(id);
    out.push(id);
  }
  return out;
}
