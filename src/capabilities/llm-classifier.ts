import { LlmInvalidOutputError } from '../llm/errors.js';
import type { LlmProvider } from '../llm/types.js';
import type { Capability } from './capability.js';
import { CAPABILITY_MATCH_SCHEMA, classificationPrompt } from './prompt.js';

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

/** Longest reason kept from the model; longer ones are cut (before anything validates them). */
export const MAX_REASON_LENGTH = 300;

/**
 * Asks the LLM whether `capability` is needed for `task`, with structured output
 * `{ is_match, reason? }`. Rejects with the provider's typed error, or with an
 * `LlmInvalidOutputError` when the reply has no boolean `is_match`.
 */
export async function classifyCapability(
  provider: LlmProvider,
  capability: Capability,
  task: string,
  options: LlmClassificationOptions,
): Promise<CapabilityVerdict> {
  const response = await provider.complete({
    system: classificationPrompt(capability, options),
    messages: [{ role: 'user', content: task }],
    schema: CAPABILITY_MATCH_SCHEMA,
    schemaName: 'capability_match',
    temperature: options.temperature ?? 0,
    maxTokens: options.maxTokens ?? 200,
    seed: options.seed,
    ...(options.model === undefined ? {} : { model: options.model }),
    ...(options.signal === undefined ? {} : { signal: options.signal }),
    ...(options.timeoutMs === undefined ? {} : { timeoutMs: options.timeoutMs }),
  });
  return parseCapabilityVerdict(
    provider.id,
    response.json === undefined ? response.text : response.json,
  );
}

/**
 * The verdict in a reply: the provider's parsed JSON, or (for a provider that returned text only)
 * the text parsed as JSON. Extra fields are ignored; a reason that is not a string is dropped.
 */
export function parseCapabilityVerdict(providerId: string, reply: unknown): CapabilityVerdict {
  let value = reply;
  if (typeof value === 'string') {
    try {
      value = JSON.parse(value.trim());
    } catch {
      throw new LlmInvalidOutputError(providerId, 'capability classification: reply is not JSON');
    }
  }
  const isMatch = (value as { is_match?: unknown } | null)?.is_match;
  if (typeof isMatch !== 'boolean') {
    throw new LlmInvalidOutputError(
      providerId,
      'capability classification: reply has no boolean "is_match"',
    );
  }
  const reason = (value as { reason?: unknown }).reason;
  if (typeof reason !== 'string' || reason.trim() === '') return { isMatch };
  const trimmed = reason.trim();
  return {
    isMatch,
    reason:
      trimmed.length > MAX_REASON_LENGTH ? `${trimmed.slice(0, MAX_REASON_LENGTH)}…` : trimmed,
  };
}
