import type { ChatRequestBody } from '../decide.js';

/**
 * An OpenAI chat-completions request as an Anthropic Messages request, for an Anthropic upstream.
 * System and developer messages become `system`; text and `image_url` parts become text and image
 * blocks (a `data:` URL as a base64 source, any other URL as a URL source); `tool_calls` become
 * `tool_use` blocks; `tool` messages become `tool_result` blocks of a user turn. Consecutive
 * messages of one role are merged into one turn, as Anthropic wants turns to alternate.
 * Anthropic requires `max_tokens`: a request without one gets {@link DEFAULT_MAX_TOKENS}.
 */

type Json = Record<string, unknown>;

/** `max_tokens` sent to an Anthropic upstream when the chat request set no limit. */
export const DEFAULT_MAX_TOKENS = 4096;

function isRecord(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function textOf(content: unknown): string {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  return content
    .map((part) => (isRecord(part) && typeof part.text === 'string' ? part.text : ''))
    .filter((text) => text.length > 0)
    .join('\n');
}

const DATA_URL = /^data:([^;,]+);base64,(.*)$/s;

function imageBlock(part: Json): Json | undefined {
  const image = part.image_url;
  const url = isRecord(image) ? image.url : typeof image === 'string' ? image : undefined;
  if (typeof url !== 'string') return undefined;
  const data = DATA_URL.exec(url);
  if (data) {
    return { type: 'image', source: { type: 'base64', media_type: data[1], data: data[2] } };
  }
  return { type: 'image', source: { type: 'url', url } };
}

function contentBlocks(content: unknown): Json[] {
  if (typeof content === 'string')
    return content.length > 0 ? [{ type: 'text', text: content }] : [];
  if (!Array.isArray(content)) return [];
  const blocks: Json[] = [];
  for (const part of content) {
    if (!isRecord(part)) continue;
    if (part.type === 'text' && typeof part.text === 'string') {
      blocks.push({ type: 'text', text: part.text });
    } else if (part.type === 'image_url') {
      const block = imageBlock(part);
      if (block) blocks.push(block);
    }
  }
  return blocks;
}

function parsedArguments(value: unknown): unknown {
  if (typeof value !== 'string' || value.length === 0) return {};
  try {
    const parsed: unknown = JSON.parse(value);
    return isRecord(parsed) ? parsed : { value: parsed };
  } catch {
    // Arguments a model cut short: kept as text rather than lost.
    return { arguments: value };
  }
}

function toolChoiceOf(choice: unknown, parallel: unknown): Json | undefined {
  const noParallel = parallel === false ? { disable_parallel_tool_use: true } : {};
  if (choice === 'required') return { type: 'any', ...noParallel };
  if (choice === 'none') return { type: 'none' };
  if (isRecord(choice) && isRecord(choice.function) && typeof choice.function.name === 'string') {
    return { type: 'tool', name: choice.function.name, ...noParallel };
  }
  if (choice === 'auto' || parallel === false) return { type: 'auto', ...noParallel };
  return undefined;
}

/** The Anthropic Messages request of a chat request (`model` kept as it is). */
export function messagesRequestFromChat(body: ChatRequestBody): Json {
  const system: string[] = [];
  const turns: { role: 'user' | 'assistant'; content: Json[] }[] = [];
  const add = (role: 'user' | 'assistant', blocks: Json[]) => {
    if (blocks.length === 0) return;
    const last = turns.at(-1);
    if (last?.role === role) last.content.push(...blocks);
    else turns.push({ role, content: blocks });
  };
  for (const message of body.messages) {
    if (!isRecord(message)) continue;
    const { role } = message;
    if (role === 'system' || role === 'developer') {
      const text = textOf(message.content);
      if (text.length > 0) system.push(text);
    } else if (role === 'assistant') {
      const blocks = contentBlocks(message.content);
      if (Array.isArray(message.tool_calls)) {
        for (const call of message.tool_calls) {
          if (!isRecord(call) || !isRecord(call.function)) continue;
          blocks.push({
            type: 'tool_use',
            id: call.id,
            name: call.function.name,
            input: parsedArguments(call.function.arguments),
          });
        }
      }
      add('assistant', blocks);
    } else if (role === 'tool' || role === 'function') {
      add('user', [
        {
          type: 'tool_result',
          tool_use_id: message.tool_call_id ?? message.name,
          content: textOf(message.content),
        },
      ]);
    } else add('user', contentBlocks(message.content));
  }
  const out: Json = { model: body.model, messages: turns };
  if (system.length > 0) out.system = system.join('\n\n');
  const maxTokens = body.max_completion_tokens ?? body.max_tokens;
  out.max_tokens = typeof maxTokens === 'number' ? maxTokens : DEFAULT_MAX_TOKENS;
  // OpenAI's temperature runs to 2, Anthropic's to 1.
  if (typeof body.temperature === 'number') out.temperature = Math.min(1, body.temperature);
  if (typeof body.top_p === 'number') out.top_p = body.top_p;
  const stop = typeof body.stop === 'string' ? [body.stop] : body.stop;
  if (Array.isArray(stop) && stop.length > 0) out.stop_sequences = stop;
  if (Array.isArray(body.tools) && body.tools.length > 0) {
    out.tools = body.tools
      .filter((tool): tool is Json => isRecord(tool) && isRecord(tool.function))
      .map((tool) => {
        const fn = tool.function as Json;
        return {
          name: fn.name,
          ...(typeof fn.description === 'string' ? { description: fn.description } : {}),
          input_schema: isRecord(fn.parameters) ? fn.parameters : { type: 'object' },
        };
      });
  }
  const choice = toolChoiceOf(body.tool_choice, body.parallel_tool_calls);
  if (choice !== undefined && out.tools !== undefined) out.tool_choice = choice;
  if (typeof body.user === 'string') out.metadata = { user_id: body.user };
  if (body.stream === true) out.stream = true;
  return out;
}
