import type { LlmDecider, LlmVerdict } from '../core/hybrid.js';
import { LlmInvalidOutputError } from '../llm/errors.js';
import type { ChatMessage, JsonSchema, LlmProvider } from '../llm/types.js';
import type { ContextRouterConfig } from './schema.js';

/**
 * Document 004's LLM router (`_route_with_llm`): asked only when the local router is unsure, under
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
 * The LLM decision for the core's `Hybrid`: one completion with the configured model, token limit
 * and temperature, structured output where the provider supports it, and the answer validated
 * here whatever the provider did. An answer that is not such JSON, names an unknown mode or has
 * no confidence in [0, 1] rejects with an {@link LlmInvalidOutputError} (the hybrid then falls
 * back). The question is cut to `maxQuestionChars`.
 */
export function contextLlmDecider(
  provider: LlmProvider,
  config: Pick<ContextRouterConfig, 'modes' | 'llm' | 'maxQuestionChars'>,
): LlmDecider<string, string> {
  const prompt = buildContextPrompt(config);
  const modes = new Set(Object.keys(config.modes));
  const { llm } = config;
  return async (question, _local, signal) => {
    const messages: ChatMessage[] = [
      { role: 'user', content: prompt.user(question.slice(0, config.maxQuestionChars)) },
    ];
    const response = await provider.complete({
      system: prompt.system,
      messages,
      maxTokens: llm.maxTokens,
      temperature: llm.temperature,
      schema: prompt.schema,
      schemaName: 'context_mode',
      signal,
      timeoutMs: llm.timeoutMs,
      ...(llm.model === undefined ? {} : { model: llm.model }),
    });
    const answer = response.json !== undefined ? response.json : parseJsonObject(response.text);
    return contextVerdict(answer, modes, llm.maxReasonChars, provider.id);
  };
}

/**
 * Checks an LLM answer: an object with `mode` (one of `modes`), `confidence` (a number in
 * [0, 1]) and `reason` (a string, cut to `maxReasonChars` before it is checked, so a long reason
 * never fails an otherwise good answer). Throws an {@link LlmInvalidOutputError} saying what is
 * wrong, without repeating the answer.
 */
export function contextVerdict(
  answer: unknown,
  modes: ReadonlySet<string>,
  maxReasonChars: number,
  provider: string,
): LlmVerdict<string> {
  const invalid = (what: string) =>
    new LlmInvalidOutputError(provider, `context router answer ${what}`);
  if (typeof answer !== 'object' || answer === null || Array.isArray(answer)) {
    throw invalid('is not a JSON object');
  }
  const { mode, confidence, reason } = answer as Record<string, unknown>;
  if (typeof mode !== 'string' || !modes.has(mode)) {
    throw invalid(`has no valid mode (expected one of: ${[...modes].join(', ')})`);
  }
  if (typeof confidence !== 'number' || !(confidence >= 0 && confidence <= 1)) {
    throw invalid('has no confidence between 0 and 1');
  }
  const text = typeof reason === 'string' ? reason.slice(0, maxReasonChars).trim() : '';
  return { value: mode, confidence, ...(text === '' ? {} : { reason: text }) };
}

/**
 * The JSON object in a model's text: the whole text, or the first `{` to the last `}` (models
 * wrap JSON in code fences or a sentence). `undefined` when there is none, or it does not parse.
 */
export function parseJsonObject(text: string): unknown {
  const start = text.indexOf('{');
  const end = text.lastIndexOf('}');
  if (start < 0 || end < start) return undefined;
  try {
    return JSON.parse(text.slice(start, end + 1));
  } catch {
    return undefined;
  }
}
