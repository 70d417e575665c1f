import type { ParsedBody } from '../body.js';
import type { ChatRequestBody } from '../decide.js';
import { HttpError } from '../errors.js';
import { withModel } from '../model-field.js';
import type { Upstream } from '../upstreams.js';
import { OPENAI_CLIENT } from './client-protocol.js';
import type { InboundProtocol, InboundRequest } from './inbound.js';
import { PassThroughRelay } from './relay.js';

/**
 * OpenAI's Responses API (`POST /v1/responses`): classified on its `input` (read as the
 * equivalent chat request: `instructions` as the system prompt, input items as messages, function
 * call outputs as tool results), then forwarded as the client's bytes, `model` rewritten, to the
 * upstreams of the decided tier that serve it (`responses: true` on their provider). There is no
 * translation to chat completions: a Responses request carries state (`previous_response_id`,
 * stored conversations) that only a Responses upstream holds.
 */

type Json = Record<string, unknown>;

function isRecord(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function partsOf(content: unknown): unknown {
  if (typeof content === 'string' || !Array.isArray(content)) return content ?? '';
  const parts: Json[] = [];
  for (const part of content) {
    if (!isRecord(part)) continue;
    if (typeof part.text === 'string') parts.push({ type: 'text', text: part.text });
    else if (part.type === 'input_image' && typeof part.image_url === 'string') {
      parts.push({ type: 'image_url', image_url: { url: part.image_url } });
    }
  }
  return parts;
}

/** The chat request a Responses request is classified as. */
export function chatRequestFromResponses(body: Json): ChatRequestBody {
  const messages: Json[] = [];
  if (typeof body.instructions === 'string' && body.instructions.length > 0) {
    messages.push({ role: 'system', content: body.instructions });
  }
  if (typeof body.input === 'string') messages.push({ role: 'user', content: body.input });
  else if (Array.isArray(body.input)) {
    for (const item of body.input) {
      if (!isRecord(item)) continue;
      if (item.type === 'function_call_output') {
        const output = typeof item.output === 'string' ? item.output : JSON.stringify(item.output);
        messages.push({ role: 'tool', tool_call_id: item.call_id, content: output });
      } else if (item.type === 'function_call') {
        messages.push({
          role: 'assistant',
          content: null,
          tool_calls: [
            {
              id: item.call_id,
              type: 'function',
              function: { name: item.name, arguments: item.arguments },
            },
          ],
        });
      } else if (typeof item.role === 'string') {
        messages.push({ role: item.role, content: partsOf(item.content) });
      }
    }
  }
  return { model: body.model, messages };
}

function read(parsed: unknown): InboundRequest {
  const { json, raw, modelValue } = (parsed ?? {}) as Partial<ParsedBody>;
  if (raw === undefined || !isRecord(json)) {
    throw new HttpError(
      400,
      'invalid_body',
      'request body must be a JSON object (a Responses request)',
    );
  }
  const chat = chatRequestFromResponses(json);
  if (chat.messages.length === 0) {
    throw new HttpError(
      400,
      'invalid_input',
      'input must be a string or a non-empty array of items',
      {
        param: 'input',
      },
    );
  }
  return {
    chat,
    stream: json.stream === true,
    prepare(target, upstream) {
      const model = target.model.model;
      return {
        body: json.model === model ? raw : withModel(raw, model, modelValue),
        relay: new PassThroughRelay(`${upstream.basePath}/responses`, 'openai', OPENAI_CLIENT),
      };
    },
  };
}

/** `POST /v1/responses`. */
export const RESPONSES: InboundProtocol = {
  endpoint: 'responses',
  client: OPENAI_CLIENT,
  read,
  serves: (upstream: Upstream) => upstream.api === 'openai' && upstream.responses,
  unserved: (providers) =>
    `no upstream model of this request's tier serves the Responses API (${providers.join(', ')} ` +
    'do not): set `responses: true` on a provider that does, or send the request to ' +
    '/v1/chat/completions',
};
