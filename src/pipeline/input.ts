import { createHash } from 'node:crypto';
import Type from 'typebox';
import { ConfigError } from '../core/errors.js';
import { compileConfig } from '../core/validate.js';
import { sanitizeText } from '../text/sanitize.js';
import { PipelineInputError } from './errors.js';
import type { TargetRole } from './manifest.js';

/**
 * The pipeline's input (the original design, corrected): a conversation as messages with roles and
 * text. The final message is the *target*: a user message for `classify`, an assistant message
 * for `inspect`. Every message is sanitised (BOM, control characters, broken surrogates, NFC);
 * the target is held to a character budget, and the history before it to a character and message
 * budget, newest kept first.
 *
 * Decisions the documents leave open, taken here:
 * - `system` and `developer` messages are the application's instructions, not the conversation:
 *   they are not shown to the classifiers (a long system prompt must not crowd out the history);
 *   local stages get their text (`system`) to judge the target against what they protect.
 * - An over-long target is cut in the middle, keeping its beginning and its end (an injection
 *   appended after pages of text stays visible), with a marker saying how much was left out;
 *   rejecting long messages would leave a router unable to classify pasted documents.
 * - Content may be a string or an array of parts (`{type: "text", text}`, other parts ignored),
 *   as chat APIs send it; `null` content (an assistant turn that only called tools) is empty.
 */

/** The two calls: classify a final user message, or inspect a final assistant message. */
export type PipelineMode = 'classify' | 'inspect';

/** The role of the target in each mode. */
export const TARGET_ROLE: Readonly<Record<PipelineMode, TargetRole>> = Object.freeze({
  classify: 'user',
  inspect: 'assistant',
});

/** One message as given to the pipeline. */
export interface PipelineMessage {
  readonly role: 'system' | 'developer' | 'user' | 'assistant' | 'tool';
  readonly content:
    | string
    | null
    | readonly { readonly type: string; readonly text?: string; readonly [key: string]: unknown }[];
  readonly [key: string]: unknown;
}

/** Budgets of the input, in UTF-16 characters and messages. */
export interface InputLimits {
  /** Longest target shown to the classifiers. Default 5,000. */
  readonly targetChars: number;
  /** Total characters of history shown. Default 5,000. */
  readonly historyChars: number;
  /** Most history messages shown. Default 20. */
  readonly historyMessages: number;
}

/** The budgets of the original design. */
export const DEFAULT_INPUT_LIMITS: InputLimits = Object.freeze({
  targetChars: 5000,
  historyChars: 5000,
  historyMessages: 20,
});

/** A message of the history, as shown to the classifiers. */
export interface PreparedMessage {
  readonly role: 'user' | 'assistant' | 'tool';
  readonly content: string;
}

/** The target message, sanitised. */
export interface PreparedTarget {
  readonly role: TargetRole;
  /** The sanitised text in full (local stages see all of it). */
  readonly text: string;
  /** What the classifiers are shown: `text`, or its beginning and end when it is over budget. */
  readonly content: string;
  /** First 8 hex digits of the SHA-256 of the canonical message (`role`, a line feed, `text`). */
  readonly hash: string;
  /** Length of `text`. */
  readonly chars: number;
  readonly truncated: boolean;
}

/** The input, validated, sanitised and within budget. */
export interface PreparedInput {
  readonly mode: PipelineMode;
  readonly target: PreparedTarget;
  /** Earlier messages shown to the classifiers, oldest first. */
  readonly history: readonly PreparedMessage[];
  /** Earlier messages left out (over budget); empty and system messages are not counted. */
  readonly historyOmitted: number;
  /** Whether the oldest message shown was cut to fit the character budget. */
  readonly historyTruncated: boolean;
  /**
   * The text of the `system` and `developer` messages, sanitised and joined by blank lines, when
   * there are any: not shown to the classifiers, but given to local stages (the injection stage
   * scores the target against what the system prompt protects).
   */
  readonly system?: string;
}

const MessagesSchema = Type.Array(
  Type.Object(
    {
      role: Type.Enum(['system', 'developer', 'user', 'assistant', 'tool']),
      content: Type.Union([
        Type.String(),
        Type.Null(),
        Type.Array(
          Type.Object(
            { type: Type.String(), text: Type.Optional(Type.String()) },
            { additionalProperties: true },
          ),
        ),
      ]),
    },
    { additionalProperties: true },
  ),
  { minItems: 1 },
);

const validateMessages = compileConfig(MessagesSchema, 'pipeline messages');

/** A history message cut shorter than this is left out rather than shown as a fragment. */
const MIN_HISTORY_FRAGMENT = 200;

/**
 * Validates and prepares the messages for `mode`. Throws {@link PipelineInputError} when they are
 * not a non-empty list of messages, the final message has the wrong role, or its text is empty.
 */
export function prepareInput(
  messages: unknown,
  mode: PipelineMode,
  limits: InputLimits = DEFAULT_INPUT_LIMITS,
): PreparedInput {
  let list: readonly PipelineMessage[];
  try {
    list = validateMessages(messages) as readonly PipelineMessage[];
  } catch (error) {
    if (error instanceof ConfigError) throw new PipelineInputError(error.message);
    throw error;
  }
  const last = list[list.length - 1] as PipelineMessage;
  const role = TARGET_ROLE[mode];
  if (last.role !== role) {
    const other = mode === 'classify' ? 'inspect' : 'classify';
    throw new PipelineInputError(
      `${mode} needs the final message to be a${role === 'user' ? '' : 'n'} ${role} message, got ${last.role}` +
        (last.role === TARGET_ROLE[other]
          ? ` (use ${other} for a final ${last.role} message)`
          : ''),
    );
  }
  const text = sanitizeText(contentText(last.content));
  if (text.trim().length === 0) {
    throw new PipelineInputError(`the final ${role} message (#${list.length}) has no text`);
  }
  const content = text.length > limits.targetChars ? cutMiddle(text, limits.targetChars) : text;
  return {
    mode,
    target: {
      role,
      text,
      content,
      hash: targetHash(role, text),
      chars: text.length,
      truncated: content !== text,
    },
    ...prepareHistory(list, limits),
    ...systemOf(list),
  };
}

/** The text of the application's instructions (see {@link PreparedInput.system}). */
function systemOf(list: readonly PipelineMessage[]): Pick<PreparedInput, 'system'> {
  let system = '';
  for (const message of list) {
    if (message.role !== 'system' && message.role !== 'developer') continue;
    const text = sanitizeText(contentText(message.content));
    if (text.trim().length > 0) system = system.length === 0 ? text : `${system}\n\n${text}`;
  }
  return system.length === 0 ? {} : { system };
}

/** First 8 hex digits of the SHA-256 of the canonical message. */
export function targetHash(role: string, text: string): string {
  return createHash('sha256').update(`${role}\n${text}`).digest('hex').slice(0, 8);
}

function prepareHistory(
  list: readonly PipelineMessage[],
  limits: InputLimits,
): Pick<PreparedInput, 'history' | 'historyOmitted' | 'historyTruncated'> {
  const kept: PreparedMessage[] = [];
  let omitted = 0;
  let truncated = false;
  let budget = limits.historyChars;
  for (let i = list.length - 2; i >= 0; i--) {
    const message = list[i] as PipelineMessage;
    if (message.role === 'system' || message.role === 'developer') continue;
    const raw = contentText(message.content);
    if (kept.length >= limits.historyMessages || budget <= 0 || truncated) {
      // Not shown: counted, but not sanitised (a long conversation costs nothing extra).
      if (raw.trim().length > 0) omitted++;
      continue;
    }
    const content = sanitizeText(raw);
    if (content.trim().length === 0) continue;
    if (content.length <= budget) {
      kept.push({ role: message.role, content });
      budget -= content.length;
    } else if (budget >= MIN_HISTORY_FRAGMENT) {
      // Keep the end of the message: it is the part nearest the target.
      kept.push({ role: message.role, content: cutStart(content, budget) });
      truncated = true;
      budget = 0;
    } else {
      omitted++;
      budget = 0;
    }
  }
  return { history: kept.reverse(), historyOmitted: omitted, historyTruncated: truncated };
}

function contentText(content: PipelineMessage['content']): string {
  if (typeof content === 'string') return content;
  if (content === null) return '';
  let text = '';
  for (const part of content) {
    if (part.type === 'text' && typeof part.text === 'string') {
      text = text.length === 0 ? part.text : `${text}\n${part.text}`;
    }
  }
  return text;
}

/** `text` cut to `max` characters: its first three quarters and last quarter, with a marker. */
export function cutMiddle(text: string, max: number): string {
  const marker = `\n[… ${text.length} characters in all; the middle is left out …]\n`;
  const room = Math.max(0, max - marker.length);
  const head = safeEnd(text, Math.ceil((room * 3) / 4));
  const tail = safeStart(text, text.length - (room - head));
  return `${text.slice(0, head)}${marker}${text.slice(tail)}`;
}

/** The last `max` characters of `text`, with a marker in front saying it was cut. */
function cutStart(text: string, max: number): string {
  const marker = '[… earlier part left out …] ';
  const from = safeStart(text, text.length - Math.max(0, max - marker.length));
  return `${marker}${text.slice(from)}`;
}

/** `end` moved back so `text.slice(0, end)` does not end inside a surrogate pair. */
function safeEnd(text: string, end: number): number {
  const code = text.charCodeAt(end - 1);
  return code >= 0xd800 && code <= 0xdbff ? end - 1 : end;
}

/** `start` moved forward so `text.slice(start)` does not begin inside a surrogate pair. */
function safeStart(text: string, start: number): number {
  const code = text.charCodeAt(start);
  return code >= 0xdc00 && code <= 0xdfff ? start + 1 : start;
}
