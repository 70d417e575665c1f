import type {
  LanguageModelV4Message,
  LanguageModelV4Prompt,
  LanguageModelV4ToolResultOutput,
} from '@ai-sdk/provider';
import type { ChatRequestMessage, ContentPart } from '../../tier/extract.js';
import type { TriageChatRequest } from '../../triage-request.js';

/**
 * An AI SDK prompt as the chat request triage reads: system messages as they are, the text parts
 * of user and assistant messages, images as image parts (the tier router counts them), and tool
 * results as `tool` messages with their output as text (what the injection screen reads).
 */
export function chatRequestOf(prompt: LanguageModelV4Prompt, model?: string): TriageChatRequest {
  const messages: ChatRequestMessage[] = new Array(prompt.length);
  for (let i = 0; i < prompt.length; i++) messages[i] = messageOf(prompt[i]!);
  return model === undefined ? { messages } : { model, messages };
}

function messageOf(message: LanguageModelV4Message): ChatRequestMessage {
  switch (message.role) {
    case 'system':
      return message;
    case 'tool': {
      const texts: string[] = [];
      for (const part of message.content) {
        if (part.type === 'tool-result') texts.push(outputText(part.output));
      }
      return { role: 'tool', content: texts.join('\n') };
    }
    default: {
      const parts: ContentPart[] = [];
      for (const part of message.content) {
        if (part.type === 'text') parts.push(part as unknown as ContentPart);
        else if (part.type === 'file' && part.mediaType.startsWith('image')) parts.push(IMAGE);
        else if (part.type === 'tool-result')
          parts.push({ type: 'text', text: outputText(part.output) });
      }
      return { role: message.role, content: parts };
    }
  }
}

const IMAGE: ContentPart = { type: 'image_url' };

/** The text of a tool's output, as the model will read it. */
export function outputText(output: LanguageModelV4ToolResultOutput): string {
  switch (output.type) {
    case 'text':
    case 'error-text':
      return output.value;
    case 'json':
    case 'error-json':
      return JSON.stringify(output.value) ?? '';
    case 'execution-denied':
      return output.reason ?? '';
    case 'content':
      return output.value.map((part) => (part.type === 'text' ? part.text : '')).join('\n');
    default:
      return '';
  }
}
