import type { BaseMessage } from '@langchain/core/messages';
import type { ChatRequestMessage, ContentPart } from '../../tier/extract.js';
import type { TriageChatRequest } from '../../triage-request.js';

/** LangChain messages as the chat request triage reads (roles in the OpenAI vocabulary). */
export function chatRequestOf(messages: readonly BaseMessage[]): TriageChatRequest {
  const out: ChatRequestMessage[] = new Array(messages.length);
  for (let i = 0; i < messages.length; i++) {
    const message = messages[i]!;
    out[i] = { role: roleOf(message.type), content: contentOf(message.content) };
  }
  return { messages: out };
}

function roleOf(type: string): string {
  switch (type) {
    case 'human':
      return 'user';
    case 'ai':
      return 'assistant';
    default:
      return type; // system, tool, function, developer
  }
}

const IMAGE: ContentPart = { type: 'image_url' };

function contentOf(content: BaseMessage['content']): string | ContentPart[] {
  if (typeof content === 'string') return content;
  const parts: ContentPart[] = [];
  for (const part of content as { type?: string; text?: unknown }[]) {
    if (typeof part?.text === 'string') parts.push({ type: 'text', text: part.text });
    else if (part?.type === 'image_url' || part?.type === 'image') parts.push(IMAGE);
  }
  return parts;
}
