import type { LlmDecider } from '../core/hybrid.js';
import { askJson } from '../llm/ask.js';
import type { JsonSchema, LlmProvider } from '../llm/types.js';
import type { ContextRouterConfig } from './schema.js';

/**
 * The original design's LLM router (`_route_with_llm`): asked only when the local router is unsure, under
 * a strict timeout, for JSON `{mode, confidence, reason}`. The prompt is built from the mode table,
 * so modes a user adds are offered to the LLM with their descriptions and examples.
 */

/** The prompt and output schema of the LLM router, built once per configuration. */
export interface ContextLlmPrompt {
  readonly system: string;
  /** The user message for one question. */
  user(question: string): string;
  /** JSON Schema of the answer, passed to the provider as structured output. */
  readonly schema: JsonSchema;
}

/** Builds the system prompt, the user message and the answer schema from the mode table. */
export function buildContextPrompt(
  config: Pick<ContextRouterConfig, 'modes' | 'llm'>,
): ContextLlmPrompt {
  const names = Object.keys(config.modes);
  const system = [
    config.llm.role,
    'Return JSON only with keys mode, confidence, reason.',
    `mode must be one of: ${names.join(', ')}.`,
    '',
    ...names.map((name) => `Use ${name} for ${config.modes[name]!.description}.`),
    '',
    'confidence must be between 0 and 1.',
  ].join('\n');
  const examples = names.flatMap((name) =>
    config.modes[name]!.examples.map((example) => `- ${example} => ${name}`),
  );
  const preamble = [
    'Classify this question.',
    ...(examples.length > 0 ? ['', 'Examples:', ...examples] : []),
    '',
    'Question: ',
  ].join('\n');
  return {
    system,
    user: (question) => preamble + question,
    schema: {
      type: 'object',
      properties: {
        mode: { type: 'string', enum: names },
        confidence: { type: 'number', minimum: 0, maximum: 1 },
        reason: { type: 'string' },
      },
      required: ['mode', 'confidence', 'reason'],
      additionalProperties: false,
    },
  };
}

/**
 * The LLM decision for the core's `Hybrid`: one `askJson` call with the configured model, token
 * limit and temperature (structured output where the provider supports it; the answer is parsed
 * and validated against the schema whatever the provider did). An answer that is not such JSON,
 * names an unknown mode or has no confidence in [0, 1] rejects with an `LlmInvalidOutputError`
 * (the hybrid then falls back). The question is cut to `maxQuestionChars`, the reason to
 * `llm.maxReasonChars`.
 */
export function contextLlmDecider(
  provider: LlmProvider,
  config: Pick<ContextRouterConfig, 'modes' | 'llm' | 'maxQuestionChars'>,
): LlmDecider<string, string> {
  const prompt = buildContextPrompt(config);
  const { llm } = config;
  return async (question, _local, signal) => {
    const answer = (await askJson(provider, {
      system: prompt.system,
      prompt: prompt.user(question.slice(0, config.maxQuestionChars)),
      schema: prompt.schema,
      schemaName: 'context_mode',
      maxTokens: llm.maxTokens,
      temperature: llm.temperature,
      timeoutMs: llm.timeoutMs,
      signal,
      ...(llm.model === undefined ? {} : { model: llm.model }),
    })) as { mode: string; confidence: number; reason: string };
    const reason = answer.reason.slice(0, llm.maxReasonChars).trim();
    return { value: answer.mode, confidence: answer.confidence, ...(reason ? { reason } : {}) };
  };
}
