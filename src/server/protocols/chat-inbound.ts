import { chatRequestOf } from '../body.js';
import type { ChatRequestBody } from '../decide.js';
import type { ByteSpan } from '../json-scan.js';
import { withModel } from '../model-field.js';
import { OPENAI_CLIENT } from './client-protocol.js';
import type { InboundProtocol, InboundRequest } from './inbound.js';
import { messagesRequestFromChat } from './openai-request.js';
import { PassThroughRelay, TranslatingRelay } from './relay.js';

/**
 * OpenAI chat completions, as clients send them to `/v1/chat/completions`: to an OpenAI-compatible
 * upstream as the client's bytes (only `model` rewritten), to an Anthropic upstream translated.
 * A stream whose client did not ask for usage asks for it upstream all the same
 * (`stream_options.include_usage`), so that its tokens are counted; the usage chunk is then left
 * out of what the client gets.
 */

const INCLUDE_USAGE = Buffer.from('"stream_options":{"include_usage":true},');

/** Whether a chat request asked for the usage chunk of its stream. */
function asksForUsage(body: ChatRequestBody): boolean {
  const options = body.stream_options as { include_usage?: unknown } | undefined;
  return options?.include_usage === true;
}

/**
 * The client's bytes, asking for the stream's usage: `stream_options` added first when the body
 * has none (no other byte changes), else the body serialised again with it set.
 */
function withUsageAsked(raw: Buffer, body: ChatRequestBody): Buffer {
  if (body.stream_options === undefined) {
    const open = raw.indexOf(0x7b);
    return Buffer.concat([raw.subarray(0, open + 1), INCLUDE_USAGE, raw.subarray(open + 1)]);
  }
  const options = typeof body.stream_options === 'object' ? body.stream_options : {};
  return Buffer.from(
    JSON.stringify({ ...body, stream_options: { ...options, include_usage: true } }),
  );
}

function read(parsed: unknown): InboundRequest {
  const { body, raw, modelValue } = chatRequestOf(parsed);
  const stream = body.stream === true;
  const addUsage = stream && !asksForUsage(body);
  let sent: { raw: Buffer; modelValue: ByteSpan | null | undefined } | undefined;
  return {
    chat: body,
    stream,
    prepare(target, upstream) {
      const model = target.model.model;
      if (upstream.api === 'anthropic') {
        const translated = { ...messagesRequestFromChat(body), model };
        return {
          body: Buffer.from(JSON.stringify(translated)),
          relay: new TranslatingRelay(upstream.path, OPENAI_CLIENT, !addUsage),
        };
      }
      // The bytes asking for usage are made once, for every attempt of the request.
      sent ??= addUsage
        ? { raw: withUsageAsked(raw, body), modelValue: undefined }
        : { raw, modelValue };
      return {
        body: body.model === model ? sent.raw : withModel(sent.raw, model, sent.modelValue),
        relay: new PassThroughRelay(upstream.path, 'openai', OPENAI_CLIENT, addUsage),
      };
    },
  };
}

/** `POST /v1/chat/completions`. */
export const CHAT_COMPLETIONS: InboundProtocol = {
  endpoint: 'chat',
  client: OPENAI_CLIENT,
  read,
};
