import type { ChatRequestBody } from '../decide.js';

/**
 * A local estimate of a request's input tokens, for `count_tokens` when no Anthropic upstream can
 * count them: about 4 characters of text a token (the usual figure for English with BPE
 * tokenisers; other scripts take more tokens a character, so this is a floor for them), a fixed
 * 1,600 tokens an image (Anthropic's figure for a 1.15-megapixel image), and the tool
 * definitions' JSON counted as text. An estimate: never use it to bill.
 */

const CHARS_PER_TOKEN = 4;
const TOKENS_PER_IMAGE = 1_600;
/** Tokens each message costs beyond its text (role and framing). */
const TOKENS_PER_MESSAGE = 4;

/** The estimated input tokens of a chat request (a Messages request, as read by the server). */
export function estimateInputTokens(chat: ChatRequestBody): number {
  let chars = 0;
  let images = 0;
  for (const message of chat.messages) {
    const { content, tool_calls } = message as { content?: unknown; tool_calls?: unknown };
    if (typeof content === 'string') chars += content.length;
    else if (Array.isArray(content)) {
      for (const part of content as { type?: unknown; text?: unknown }[]) {
        if (typeof part?.text === 'string') chars += part.text.length;
        else if (part?.type === 'image_url') images++;
      }
    }
    if (tool_calls !== undefined) chars += JSON.stringify(tool_calls).length;
  }
  if (chat.tools !== undefined) chars += JSON.stringify(chat.tools).length;
  return (
    Math.ceil(chars / CHARS_PER_TOKEN) +
    images * TOKENS_PER_IMAGE +
    chat.messages.length * TOKENS_PER_MESSAGE
  );
}
