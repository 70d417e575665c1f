import { askJson } from '../llm/ask.js';
import type { LlmProvider } from '../llm/types.js';
import type { Capability } from './capability.js';
import { type CapabilityReply, CapabilityReplySchema, classificationPrompt } from './prompt.js';

/** What the LLM answered about one capability. */
export interface CapabilityVerdict {
  readonly isMatch: boolean;
  readonly reason?: string;
}

/** Options of {@link classifyCapability}. */
export interface LlmClassificationOptions {
  /** Seed of the examples' order (and passed to the provider for reproducible sampling). */
  readonly seed: number;
  readonly maxExamples?: number;
  readonly previousFailure?: string;
  /** The model, overriding the provider's default. */
  readonly model?: string;
  /** Default 0: a classification should not be creative. */
  readonly temperature?: number;
  /** Default 200: the answer is a boolean and a sentence. */
  readonly maxTokens?: number;
  readonly signal?: AbortSignal;
  readonly timeoutMs?: number;
}

/** Longest reason kept from the model; longer ones are cut (the schema sets no limit, so a long one never fails). */
export const MAX_REASON_LENGTH = 300;

/**
 * Asks the LLM whether `capability` is needed for `task`, with structured output
 * `{ is_match, reason }` (through `askJson`: the reply is parsed, read out of prose or code fences
 * where a provider ignored the schema, and validated). Rejects with the provider's typed error, or
 * with an `LlmInvalidOutputError` when the reply does not match the schema.
 */
export async function classifyCapability(
  provider: LlmProvider,
  capability: Capability,
  task: string,
  options: LlmClassificationOptions,
): Promise<CapabilityVerdict> {
  const reply = await askJson(provider, {
    system: classificationPrompt(capability, options),
    prompt: task,
    schema: CapabilityReplySchema,
    schemaName: 'capability_match',
    temperature: options.temperature ?? 0,
    maxTokens: options.maxTokens ?? 200,
    seed: options.seed,
    ...(options.model === undefined ? {} : { model: options.model }),
    ...(options.signal === undefined ? {} : { signal: options.signal }),
    ...(options.timeoutMs === undefined ? {} : { timeoutMs: options.timeoutMs }),
  });
  return verdictOf(reply);
}

/** The verdict in a validated reply: the reason trimmed, and cut when over-long. */
export function verdictOf(reply: CapabilityReply): CapabilityVerdict {
  const reason = reply.reason.trim();
  if (reason === '') return { isMatch: reply.is_match };
  return {
    isMatch: reply.is_match,
    reason: reason.length > MAX_REASON_LENGTH ? `${reason.slice(0, MAX_REASON_LENGTH)}…` : reason,
  };
}
