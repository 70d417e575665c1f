import type { ChatRequestBody } from '../decide.js';

/**
 * An Anthropic Messages request as an OpenAI chat-completions request: what the server classifies
 * (the tier router and the injection screen read chat requests) and what it sends to an
 * OpenAI-compatible upstream. `system` becomes a first system message; text and image blocks
 * become content parts; an assistant's `tool_use` blocks become `tool_calls`; a user's
 * `tool_result` blocks become `tool` messages (before the rest of that user turn, as OpenAI wants
 * results right after the calls); `thinking` blocks are dropped (no chat-completions counterpart).
 */

type Json = Record<string, unknown>;

function isRecord(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The text of a `system` field or a tool result's content: a string or text blocks. */
export function blocksText(content: unknown): string {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  const texts: string[] = [];
  for (const block of content) {
    if (isRecord(block) && typeof block.text === 'string') texts.push(block.text);
  }
  return texts.join('\n');
}

/** An image block's source as an OpenAI `image_url` part. */
function imagePart(source: unknown): Json | undefined {
  if (!isRecord(source)) return undefined;
  if (source.type === 'base64' && typeof source.data === 'string') {
    const media = typeof source.media_type === 'string' ? source.media_type : 'image/png';
    return { type: 'image_url', image_url: { url: `data:${media};base64,${source.data}` } };
  }
  if (source.type === 'url' && typeof source.url === 'string') {
    return { type: 'image_url', image_url: { url: source.url } };
  }
  return undefined;
}

/** The OpenAI messages of one Anthropic message. */
export function messagesOf(message: unknown): Json[] {
  if (!isRecord(message)) return [];
  const role = message.role === 'assistant' ? 'assistant' : 'user';
  const { content } = message;
  if (typeof content === 'string') return [{ role, content }];
  if (!Array.isArray(content)) return [{ role, content: '' }];
  const parts: Json[] = [];
  const toolCalls: Json[] = [];
  const toolResults: Json[] = [];
  for (const block of content) {
    if (!isRecord(block)) continue;
    if (block.type === 'text' && typeof block.text === 'string') {
      parts.push({ type: 'text', text: block.text });
    } else if (block.type === 'image') {
      const part = imagePart(block.source);
      if (part) parts.push(part);
    } else if (block.type === 'tool_use' && role === 'assistant') {
      toolCalls.push({
        id: block.id,
        type: 'function',
        function: { name: block.name, arguments: JSON.stringify(block.input ?? {}) },
      });
    } else if (block.type === 'tool_result') {
      const text = blocksText(block.content);
      toolResults.push({
        role: 'tool',
        tool_call_id: block.tool_use_id,
        content: block.is_error === true && text.length === 0 ? 'error' : text,
      });
    }
  }
  const out: Json[] = [...toolResults];
  if (role === 'assistant') {
    const text = parts
      .filter((part) => part.type === 'text')
      .map((part) => part.text)
      .join('');
    if (text.length > 0 || toolCalls.length > 0) {
      out.push({
        role,
        content: text.length > 0 ? text : null,
        ...(toolCalls.length > 0 ? { tool_calls: toolCalls } : {}),
      });
    }
  } else if (parts.length > 0) {
    const onlyText = parts.every((part) => part.type === 'text');
    out.push({
      role,
      content: onlyText ? parts.map((part) => part.text).join('\n') : parts,
    });
  }
  return out;
}

/** Anthropic's `tool_choice` as OpenAI's. */
function toolChoiceOf(choice: unknown): unknown {
  if (!isRecord(choice)) return undefined;
  if (choice.type === 'any') return 'required';
  if (choice.type === 'none') return 'none';
  if (choice.type === 'tool' && typeof choice.name === 'string') {
    return { type: 'function', function: { name: choice.name } };
  }
  return 'auto';
}

/**
 * The chat-completions request of an Anthropic Messages request (`model` kept as it is). With
 * `includeUsage`, a streamed request asks for the usage chunk, so that the answer's tokens are
 * counted.
 */
export function chatRequestFromMessages(body: Json, includeUsage = true): ChatRequestBody {
  const messages: Json[] = [];
  const system = blocksText(body.system);
  if (system.length > 0) messages.push({ role: 'system', content: system });
  if (Array.isArray(body.messages)) for (const m of body.messages) messages.push(...messagesOf(m));
  const out: Json = { model: body.model, messages };
  if (typeof body.max_tokens === 'number') out.max_tokens = body.max_tokens;
  if (typeof body.temperature === 'number') out.temperature = body.temperature;
  if (typeof body.top_p === 'number') out.top_p = body.top_p;
  if (Array.isArray(body.stop_sequences) && body.stop_sequences.length > 0) {
    out.stop = body.stop_sequences;
  }
  if (Array.isArray(body.tools) && body.tools.length > 0) {
    out.tools = body.tools.filter(isRecord).map((tool) => ({
      type: 'function',
      function: {
        name: tool.name,
        ...(typeof tool.description === 'string' ? { description: tool.description } : {}),
        parameters: isRecord(tool.input_schema) ? tool.input_schema : { type: 'object' },
      },
    }));
    const choice = toolChoiceOf(body.tool_choice);
    if (choice !== undefined) out.tool_choice = choice;
    if (isRecord(body.tool_choice) && body.tool_choice.disable_parallel_tool_use === true) {
      out.parallel_tool_calls = false;
    }
  }
  const user = isRecord(body.metadata) ? body.metadata.user_id : undefined;
  if (typeof user === 'string') out.user = user;
  if (body.stream === true) {
    out.stream = true;
    if (includeUsage) out.stream_options = { include_usage: true };
  }
  return out as ChatRequestBody;
}
