import { InputError } from './core/errors.js';
import type { InjectionSource } from './injection/types.js';
import type { ChatRequestMessage } from './tier/extract.js';

/**
 * What each part of `createTriage` reads from a request. A request is a chat request in the
 * OpenAI shape (`{ model?, messages, system? }`, content a string or an array of parts) or a
 * plain string (one user message).
 */

/** A chat request, as `createTriage` reads it. */
export interface TriageChatRequest {
  /** `triage/simple` and the like force a tier; anything else is classified. */
  readonly model?: string;
  readonly messages: readonly ChatRequestMessage[];
  /** A system prompt given apart from the messages (read as a first `system` message). */
  readonly system?: string;
  readonly [field: string]: unknown;
}

/** What `createTriage` decides about: a chat request, or a plain string. */
export type TriageRequest = TriageChatRequest | string;

/** A request `createTriage` cannot read. The message names the bad field, never prompt text. */
export class TriageRequestError extends InputError {
  constructor(message: string) {
    super('triage_request_invalid', message);
  }
}

/** One text the injection screen reads, and where it came from. */
export interface UserControlledText {
  readonly text: string;
  readonly source: InjectionSource;
  /** Its message's index in `messages` (`null` for a plain-string request). */
  readonly messageIndex: number | null;
}

/** Roles whose content is data the model will read: screened as tool results. */
const TOOL_ROLES = new Set(['tool', 'function']);

/** Checks the shape of a request (the parts check their own fields further). */
export function checkRequest(request: unknown): asserts request is TriageRequest {
  if (typeof request === 'string') return;
  if (typeof request !== 'object' || request === null || Array.isArray(request)) {
    throw new TriageRequestError('the request must be a string or a chat request object');
  }
  const { messages, system } = request as { messages?: unknown; system?: unknown };
  if (!Array.isArray(messages)) {
    throw new TriageRequestError('request.messages must be an array of messages');
  }
  if (system !== undefined && typeof system !== 'string') {
    throw new TriageRequestError('request.system must be a string');
  }
}

/** The request as the tier router reads it: `system` as a first system message. */
export function tierRequestOf(request: TriageRequest): TriageRequest {
  if (typeof request === 'string' || request.system === undefined) return request;
  const { system, ...rest } = request;
  return { ...rest, messages: [{ role: 'system', content: system }, ...request.messages] };
}

/**
 * The system prompt of a request: its `system` field and the text of its system and developer
 * messages, joined by blank lines; `undefined` when it has none. What the injection screen judges
 * requests against (what it protects or restricts makes some requests attacks).
 */
export function systemPromptOf(request: TriageRequest): string | undefined {
  if (typeof request === 'string') return undefined;
  let system = request.system ?? '';
  for (const message of request.messages) {
    const role = roleOf(message);
    if (role !== 'system' && role !== 'developer') continue;
    const text = messageText(message);
    if (text.length > 0) system = system.length === 0 ? text : `${system}\n\n${text}`;
  }
  return system.length === 0 ? undefined : system;
}

/** The text of a message: its string content, or its text parts joined by newlines. */
export function messageText(message: unknown): string {
  const content = (message as { content?: unknown } | null)?.content;
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  return content
    .map((part: { text?: unknown } | null) => (typeof part?.text === 'string' ? part.text : ''))
    .filter((part) => part.length > 0)
    .join('\n');
}

/** The role of a message, `''` when it has none. */
export function roleOf(message: unknown): string {
  const role = (message as { role?: unknown } | null)?.role;
  return typeof role === 'string' ? role : '';
}

/**
 * The text of the last user message (`''` when there is none), at most `maxChars` UTF-16 units
 * (then ending in `…`). For a plain-string request, the string.
 */
export function lastUserText(
  request: TriageRequest | { readonly messages: readonly unknown[] },
  maxChars = Number.POSITIVE_INFINITY,
): string {
  if (typeof request === 'string') return cut(request, maxChars);
  for (let i = request.messages.length - 1; i >= 0; i--) {
    if (roleOf(request.messages[i]) !== 'user') continue;
    return cut(messageText(request.messages[i]), maxChars);
  }
  return '';
}

function cut(text: string, maxChars: number): string {
  return text.length > maxChars ? `${text.slice(0, maxChars)}…` : text;
}

/**
 * The texts a user (or what a user brought in) controls, which the injection screen reads: every
 * user message and tool result of the conversation, newest first. Not only the current turn: a
 * client writes the whole history, so an earlier "user" turn answered by a forged "assistant: ok"
 * reaches the model as much as the last one does. (The screen caches its verdicts by text, so a
 * long conversation costs per request what its new messages cost.) Empty texts are skipped.
 */
export function userControlledTexts(
  request: TriageRequest | { readonly messages: readonly unknown[] },
): UserControlledText[] {
  if (typeof request === 'string') {
    return request.length > 0 ? [{ text: request, source: 'user', messageIndex: null }] : [];
  }
  const texts: UserControlledText[] = [];
  for (let i = request.messages.length - 1; i >= 0; i--) {
    const message = request.messages[i];
    const role = roleOf(message);
    const source: InjectionSource | undefined =
      role === 'user' ? 'user' : TOOL_ROLES.has(role) ? 'tool_result' : undefined;
    if (source === undefined) continue;
    const text = messageText(message);
    if (text.length > 0) texts.push({ text, source, messageIndex: i });
  }
  return texts;
}
