import type { ChatRequestMessage, ContentPart } from '../../tier/extract.js';
import type { TriageChatRequest } from '../../triage-request.js';
import { textOf } from '../shared/guidance-feed.js';

/**
 * The input of an Agents SDK model call (a string, or input items of the Responses shape) as the
 * chat request triage reads: messages with their text parts (images as image parts), a function
 * call as an assistant turn, a function call's result as a `tool` message.
 */
export function chatRequestOf(
  input: string | readonly unknown[],
  system: string | undefined,
  model?: string,
): TriageChatRequest {
  const messages: ChatRequestMessage[] = [];
  if (system !== undefined && system.length > 0) messages.push({ role: 'system', content: system });
  if (typeof input === 'string') messages.push({ role: 'user', content: input });
  else for (const item of input) messages.push(messageOf(item as Item));
  return model === undefined ? { messages } : { model, messages };
}

interface Item {
  readonly type?: string;
  readonly role?: string;
  readonly content?: unknown;
  readonly output?: unknown;
}

function messageOf(item: Item): ChatRequestMessage {
  if (item.role !== undefined) return { role: item.role, content: contentOf(item.content) };
  if (item.type === 'function_call_result')
    return { role: 'tool', content: outputText(item.output) };
  // A call of the model (function, hosted tool, …): the model's turn.
  return { role: 'assistant', content: '' };
}

const IMAGE: ContentPart = { type: 'image_url' };

function contentOf(content: unknown): string | ContentPart[] {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  const parts: ContentPart[] = [];
  for (const part of content as { type?: string; text?: unknown }[]) {
    if (typeof part?.text === 'string') parts.push({ type: 'text', text: part.text });
    else if (part?.type === 'input_image') parts.push(IMAGE);
  }
  return parts;
}

/** The text of a function call's output: a string, a text part, or a list of parts. */
export function outputText(output: unknown): string {
  if (typeof output === 'string') return output;
  if (Array.isArray(output)) return output.map(outputText).join('\n');
  const text = (output as { text?: unknown } | null)?.text;
  return typeof text === 'string' ? text : textOf(output);
}
