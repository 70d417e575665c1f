import type { Static, TSchema } from 'typebox';
import { LlmInvalidOutputError } from './errors.js';
import { matchLabel, parseJsonReply, type SchemaLike, validateJson } from './output.js';
import type {
  ChatMessage,
  CompletionRequest,
  CompletionResponse,
  JsonSchema,
  LlmProvider,
} from './types.js';
import { defined } from './wire.js';

/**
 * The two calls LLM classifiers make, on top of `complete`: "answer with JSON of this shape" and
 * "answer with one of these labels". Both default to temperature 0 (a classifier wants the same
 * answer for the same question), and both throw {@link LlmInvalidOutputError} when the answer
 * cannot be used, so a hybrid decision falls back.
 */

/** What both calls send. */
export interface AskOptions {
  readonly system?: string;
  /** The conversation; `prompt`, when given, is appended as the last user message. */
  readonly messages?: readonly ChatMessage[];
  readonly prompt?: string;
  readonly maxTokens?: number;
  /** Default 0. */
  readonly temperature?: number;
  readonly seed?: number;
  readonly signal?: AbortSignal;
  readonly timeoutMs?: number;
  readonly model?: string;
}

/** Options of {@link askJson}. */
export interface AskJsonOptions<S extends SchemaLike> extends AskOptions {
  /** The JSON Schema of the answer (a TypeBox schema gives the answer its static type). */
  readonly schema: S;
  readonly schemaName?: string;
}

/** Options of {@link askLabel}. */
export interface AskLabelOptions<L extends string> extends AskOptions {
  /** The allowed answers. The prompt should list them; they are matched by {@link matchLabel}. */
  readonly labels: readonly L[];
}

/** The static type of a schema's values: typed for TypeBox schemas, `unknown` otherwise. */
export type JsonOf<S> = S extends TSchema ? Static<S> : unknown;

/**
 * Asks for JSON matching `schema` and returns it parsed and validated. Where the provider
 * delivered no parsed JSON (a provider that ignores schemas), the reply text is read: code fences
 * stripped, the first JSON object taken from any prose around it.
 */
export async function askJson<S extends SchemaLike>(
  provider: LlmProvider,
  options: AskJsonOptions<S>,
): Promise<JsonOf<S>> {
  const response = await provider.complete({
    ...request(options),
    schema: options.schema as JsonSchema,
    ...defined('schemaName', options.schemaName),
  });
  const value =
    response.json !== undefined
      ? response.json
      : parseJsonReply(response.text, provider.id, response.finishReason);
  return validateJson<JsonOf<S>>(value, options.schema, provider.id);
}

/**
 * Asks for one of `labels` and returns the one the answer names (exact match preferred, then a
 * whole-word substring; an answer naming several labels is ambiguous: see {@link matchLabel}).
 */
export async function askLabel<L extends string>(
  provider: LlmProvider,
  options: AskLabelOptions<L>,
): Promise<L> {
  if (options.labels.length === 0) throw new RangeError('askLabel: labels must not be empty');
  const response: CompletionResponse = await provider.complete(request(options));
  const label = matchLabel(response.text, options.labels);
  if (label !== undefined) return label;
  throw new LlmInvalidOutputError(
    provider.id,
    `reply (${response.text.length} characters) names none, or more than one, of: ${options.labels.join(', ')}`,
  );
}

function request(options: AskOptions): CompletionRequest {
  const messages: ChatMessage[] = [...(options.messages ?? [])];
  if (options.prompt !== undefined) messages.push({ role: 'user', content: options.prompt });
  if (messages.length === 0) throw new RangeError('ask: give messages or a prompt');
  return {
    messages,
    temperature: options.temperature ?? 0,
    ...defined('system', options.system),
    ...defined('maxTokens', options.maxTokens),
    ...defined('seed', options.seed),
    ...defined('signal', options.signal),
    ...defined('timeoutMs', options.timeoutMs),
    ...defined('model', options.model),
  };
}
