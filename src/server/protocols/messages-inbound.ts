import type { ParsedBody } from '../body.js';
import { HttpError } from '../errors.js';
import { withModel } from '../model-field.js';
import { chatRequestFromMessages } from './anthropic-request.js';
import { ANTHROPIC_CLIENT } from './client-protocol.js';
import type { InboundProtocol, InboundRequest } from './inbound.js';
import { PassThroughRelay, TranslatingRelay } from './relay.js';

/**
 * Anthropic Messages, as clients send them to `/v1/messages`: classified as the equivalent chat
 * request (`system` as the system prompt, only the user's text scored), sent to an Anthropic
 * upstream as the client's bytes (only `model` rewritten), to an OpenAI-compatible upstream
 * translated into a chat request, its answer translated back.
 */

function read(parsed: unknown): InboundRequest {
  const { json, raw, modelValue } = (parsed ?? {}) as Partial<ParsedBody>;
  if (parsed === undefined || parsed === null || raw === undefined) {
    throw new HttpError(400, 'missing_body', 'request body is required (a JSON Messages request)');
  }
  if (typeof json !== 'object' || json === null || Array.isArray(json)) {
    throw new HttpError(400, 'invalid_body', 'request body must be a JSON object');
  }
  const body = json as Record<string, unknown>;
  if (!Array.isArray(body.messages) || body.messages.length === 0) {
    throw new HttpError(400, 'invalid_messages', 'messages must be a non-empty array', {
      param: 'messages',
    });
  }
  const chat = chatRequestFromMessages(body);
  return {
    chat,
    stream: body.stream === true,
    prepare(target, upstream) {
      const model = target.model.model;
      if (upstream.api === 'anthropic') {
        return {
          body: body.model === model ? raw : withModel(raw, model, modelValue),
          relay: new PassThroughRelay(upstream.path, 'anthropic', ANTHROPIC_CLIENT),
        };
      }
      return {
        body: Buffer.from(JSON.stringify({ ...chat, model })),
        relay: new TranslatingRelay(upstream.path, ANTHROPIC_CLIENT, false),
      };
    },
  };
}

/** `POST /v1/messages`. */
export const MESSAGES: InboundProtocol = {
  endpoint: 'messages',
  client: ANTHROPIC_CLIENT,
  read,
};
