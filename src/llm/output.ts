import type { ValidateFunction } from 'ajv';
import { LRUCache } from 'lru-cache';
import type { TSchema } from 'typebox';
import { lazyAjv } from '../core/ajv.js';
import { certaintyScore, clampConfidence, isCertainty } from '../core/certainty.js';
import { ConfigError } from '../core/errors.js';
import { describeAjvErrors } from '../core/validate.js';
import { LlmInvalidOutputError } from './errors.js';
import type { JsonSchema } from './types.js';

/** A JSON Schema: a plain object, or a TypeBox schema (which is one, with a static type). */
export type SchemaLike = JsonSchema | (TSchema & object);

/**
 * Output handling shared by every LLM classifier: models wrap JSON in code fences or prose, answer
 * "Complex." for COMPLEX, and give confidences as 85 or "85%". These functions turn such replies
 * into values, or say precisely why they cannot.
 */

const FENCE = '```';
/** The language tag and line break that follow an opening fence (```json\n). */
const FENCE_OPENER = /^[\w+-]*[^\S\n]*\n?/;

/**
 * The content of the first fenced code block of `text` (```json … ```); a fence left open (a reply
 * cut off by the token limit) runs to the end. Text without a fence is returned as it is.
 */
export function stripCodeFences(text: string): string {
  const open = text.indexOf(FENCE);
  if (open < 0) return text;
  const afterTicks = text.slice(open + FENCE.length);
  const body = afterTicks.slice(FENCE_OPENER.exec(afterTicks)?.[0].length ?? 0);
  const close = body.indexOf(FENCE);
  return close < 0 ? body : body.slice(0, close);
}

const THINK_OPEN = '<think>';
const THINK_CLOSE = '</think>';

/**
 * The reply without the reasoning block that reasoning models served through OpenAI-compatible
 * servers (Qwen3, DeepSeek-R1 distills, …) put before their answer: `<think>…</think>`. Its
 * labels and braces would otherwise be read as the answer. A block left open (cut off by the
 * token limit) leaves no answer: `''`.
 */
export function stripReasoning(text: string): string {
  const start = text.indexOf(THINK_OPEN);
  if (start < 0 || text.slice(0, start).trim().length > 0) return text;
  const end = text.indexOf(THINK_CLOSE, start + THINK_OPEN.length);
  return end < 0 ? '' : text.slice(end + THINK_CLOSE.length);
}

/** Most `{` positions tried when looking for a JSON object inside prose. */
const MAX_OBJECT_CANDIDATES = 32;

/**
 * The JSON value in a reply: the whole reply (reasoning block stripped; then code fences too)
 * when it parses (the object inside, when it is a JSON string holding one), else the first
 * balanced `{…}` in it that parses. `undefined` when there is none (JSON `null` is a value).
 */
export function extractJson(text: string): unknown {
  const bare = stripReasoning(text).trim();
  const inner = stripCodeFences(bare).trim();
  if (inner.length === 0) return undefined;
  // The reply as it is first: a JSON value whose strings hold a fence (```) is not fenced.
  const whole = parsedWhole(bare) ?? (inner === bare ? undefined : parsedWhole(inner));
  if (whole !== undefined) {
    const { value } = whole;
    // A JSON string holding an object is a reply encoded twice (`"{\"tier\": \"SIMPLE\"}"`), or
    // prose in quotes around one: the object inside is the answer.
    return typeof value === 'string' && value.includes('{') ? (extractJson(value) ?? value) : value;
  }
  // The first object in the fenced block (where a model puts its answer), else in the reply as
  // it is: a fence inside one of its strings made the block a piece of it.
  return firstObject(inner) ?? (inner === bare ? undefined : firstObject(bare));
}

/** The first `{…}` of `text` that parses as JSON (of the first few candidates), if any. */
function firstObject(text: string): unknown {
  let from = text.indexOf('{');
  for (let tries = 0; from >= 0 && tries < MAX_OBJECT_CANDIDATES; tries++) {
    const end = balancedEnd(text, from);
    if (end < 0) return undefined;
    try {
      return JSON.parse(text.slice(from, end + 1));
    } catch {
      from = text.indexOf('{', from + 1);
    }
  }
  return undefined;
}

/** `text` parsed as JSON, boxed (JSON `null` is a value); `undefined` when it is not JSON. */
function parsedWhole(text: string): { value: unknown } | undefined {
  try {
    return { value: JSON.parse(text) };
  } catch {
    return undefined;
  }
}

/** Index of the `}` closing the `{` at `start`, skipping braces inside strings; -1 if none. */
function balancedEnd(text: string, start: number): number {
  let depth = 0;
  let inString = false;
  for (let i = start; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c) i++;
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) inString = true;
    else if (c === 0x7b) depth++;
    else if (c === 0x7d && --depth === 0) return i;
  }
  return -1;
}

/**
 * Parses the JSON of a reply ({@link extractJson}), or throws {@link LlmInvalidOutputError}.
 * `finishReason` (when not a normal stop) is named in the error: a reply cut off by the token
 * limit is the usual cause of broken JSON.
 */
export function parseJsonReply(text: string, provider: string, finishReason?: string): unknown {
  const value = extractJson(text);
  if (value !== undefined) return value;
  const why = text.trim().length === 0 ? 'reply is empty' : 'reply contains no JSON object';
  const finish =
    finishReason && !['stop', 'end_turn', 'tool_use'].includes(finishReason)
      ? ` (finish reason: ${finishReason})`
      : '';
  throw new LlmInvalidOutputError(provider, `${why}${finish}`);
}

/**
 * Output schemas come from prompts and providers, not from triage's own configs: unknown keywords
 * and formats are ignored rather than rejected, and `$schema` (often 2020-12) is not checked.
 */
const ajv = lazyAjv({ strict: false, allErrors: true, logger: false, validateSchema: false });
const byIdentity = new WeakMap<object, ValidateFunction>();
const byText = new LRUCache<string, ValidateFunction>({ max: 500 });

/**
 * The compiled validator of `schema`. Each schema is compiled once: validators are cached by
 * object identity, and by the schema's JSON text for equal schemas built anew on each call.
 * Throws a {@link ConfigError} when the schema itself is invalid.
 */
export function compileSchema(schema: SchemaLike): ValidateFunction {
  const known = byIdentity.get(schema);
  if (known) return known;
  const text = JSON.stringify(schema);
  let validate = byText.get(text);
  if (!validate) {
    try {
      validate = ajv().compile(schema);
    } catch (error) {
      throw new ConfigError('LLM output schema', [
        { path: '', message: error instanceof Error ? error.message : String(error) },
      ]);
    }
    byText.set(text, validate);
  }
  byIdentity.set(schema, validate);
  return validate;
}

/**
 * Returns `value` when it matches `schema`, or throws {@link LlmInvalidOutputError} naming the
 * fields that do not (paths and rules only: the reply's own text is not repeated).
 */
export function validateJson<T = unknown>(value: unknown, schema: SchemaLike, provider: string): T {
  const validate = compileSchema(schema);
  if (validate(value)) return value as T;
  const issues = describeAjvErrors(validate.errors ?? [])
    .slice(0, 5)
    .map((issue) => `${issue.path || '(root)'} ${issue.message}`)
    .join('; ');
  throw new LlmInvalidOutputError(provider, `reply does not match the schema: ${issues}`);
}

/** Quotes, backticks, emphasis, brackets and punctuation a model wraps a one-word answer in. */
const WRAPPING = /^[\s"'`*_([{<.:;,!?-]+|[\s"'`*_)\]}>.:;,!?-]+$/gu;
const WORD_CHAR = /[\p{L}\p{N}_]/u;

/**
 * The label a free-text answer names, or `undefined` (the original design's rule: exact match preferred,
 * substring as the fallback). Case-insensitive, after any reasoning block, in this order:
 * 1. the whole answer, stripped of quotes, emphasis and punctuation, is a label (`"**Complex.**"`);
 * 2. the answer starts with a label as a whole word (`COMPLEX - it needs several steps`), the
 *    longest such label winning;
 * 3. exactly one label occurs anywhere in the answer as a whole word (`I would say complex`).
 * Two or more different labels in the answer (`not SIMPLE but COMPLEX`) is ambiguous and yields
 * `undefined`: guessing between them would be wrong as often as right, and the caller's fallback
 * is the safer answer.
 */
export function matchLabel<L extends string>(answer: string, labels: readonly L[]): L | undefined {
  const text = stripReasoning(answer).replace(WRAPPING, '').toLowerCase();
  if (text.length === 0) return undefined;
  const lower = labels.map((label) => label.toLowerCase());
  const exact = lower.indexOf(text);
  if (exact >= 0) return labels[exact];
  let best = -1;
  for (let i = 0; i < lower.length; i++) {
    const label = lower[i] as string;
    if (label.length > 0 && text.startsWith(label) && isBoundary(text, label.length)) {
      if (best < 0 || label.length > (lower[best] as string).length) best = i;
    }
  }
  if (best >= 0) return labels[best];
  let found: L | undefined;
  for (let i = 0; i < lower.length; i++) {
    if (!containsWord(text, lower[i] as string)) continue;
    if (found !== undefined && found.toLowerCase() !== lower[i]) return undefined;
    found = labels[i];
  }
  return found;
}

function isBoundary(text: string, index: number): boolean {
  return index <= 0 || index >= text.length || !WORD_CHAR.test(text[index] ?? '');
}

function containsWord(text: string, word: string): boolean {
  if (word.length === 0) return false;
  for (let at = text.indexOf(word); at >= 0; at = text.indexOf(word, at + 1)) {
    const before = at === 0 || !WORD_CHAR.test(text[at - 1] ?? '');
    if (before && isBoundary(text, at + word.length)) return true;
  }
  return false;
}

/**
 * A confidence in [0, 1] from what a model wrote: a number, a numeric string, a percentage
 * (`"85%"`), or a certainty tag (`strong` → 0.75). Numbers above 1 and up to 100 are read as
 * percentages (models often answer 85 when asked for a confidence); larger numbers clamp to 1,
 * negative ones to 0. `undefined` for anything else (NaN, words, objects).
 */
export function parseConfidence(value: unknown): number | undefined {
  if (typeof value === 'string') {
    const trimmed = value.trim().toLowerCase();
    if (isCertainty(trimmed)) return certaintyScore(trimmed);
    const percent = trimmed.endsWith('%');
    const number = Number(percent ? trimmed.slice(0, -1) : trimmed);
    if (trimmed.length === 0 || !Number.isFinite(number)) return undefined;
    return clampConfidence(percent ? number / 100 : scaled(number));
  }
  if (typeof value === 'number' && Number.isFinite(value)) return clampConfidence(scaled(value));
  return undefined;
}

function scaled(value: number): number {
  return value > 1 && value <= 100 ? value / 100 : value;
}

/**
 * The instruction that asks for JSON matching `schema`, for backends without native structured
 * output (and OpenAI's `json_object` mode, which requires the word JSON in the prompt).
 */
export function schemaInstruction(schema: JsonSchema): string {
  return `Reply with a single JSON object, and nothing else, that matches this JSON Schema:\n${JSON.stringify(schema)}`;
}
