import { ANTHROPIC_CLIENT, OPENAI_CLIENT } from '../src/server/protocols/client-protocol.js';
import { messagesRequestFromChat } from '../src/server/protocols/openai-request.js';
import { PassThroughRelay, TranslatingRelay } from '../src/server/protocols/relay.js';
import { anthropicWire } from '../src/testing/wire-anthropic.js';
import { openAiWire } from '../src/testing/wire-openai.js';
import type { BenchCase } from './harness.js';
import { encodedAnswer } from './server/answers.js';

// What the server does with each streamed answer of `npm run bench:server`'s translation phases,
// in process: the upstream's events, one piece each (as undici hands them over), through the
// relay of one attempt. Pass-through reads the usage (and, for a chat client that did not ask for
// it, strips it); translation rewrites every event into the client's format.
const openAiStream = encodedAnswer(true, openAiWire, true);
const anthropicStream = encodedAnswer(true, anthropicWire);

function relayed(relay: PassThroughRelay | TranslatingRelay, pieces: readonly Buffer[]): number {
  let bytes = 0;
  for (const piece of pieces) bytes += relay.events(piece).length;
  return bytes + (relay.end()?.length ?? 0);
}

const chatRequest = {
  model: 'claude-small',
  stream: true,
  messages: [
    { role: 'system', content: 'You are a helpful assistant for an online shop. Answer briefly.' },
    { role: 'user', content: 'What is the usual delivery time to Lyon?' },
  ],
  temperature: 0.2,
  max_tokens: 200,
};

export const benches: BenchCase[] = [
  {
    name: 'translate.chat-passthrough',
    description:
      'a chat stream from an OpenAI upstream: passed through, its usage read and stripped',
    fn: () =>
      relayed(
        new PassThroughRelay('/v1/chat/completions', 'openai', OPENAI_CLIENT, true),
        openAiStream,
      ),
  },
  {
    name: 'translate.chat-from-anthropic',
    description: 'the same answer from an Anthropic upstream, translated into chat chunks',
    fn: () => relayed(new TranslatingRelay('/v1/messages', OPENAI_CLIENT, false), anthropicStream),
  },
  {
    name: 'translate.messages-passthrough',
    description: 'a messages stream from an Anthropic upstream: passed through, its usage read',
    fn: () =>
      relayed(new PassThroughRelay('/v1/messages', 'anthropic', ANTHROPIC_CLIENT), anthropicStream),
  },
  {
    name: 'translate.messages-from-openai',
    description: 'the same answer from an OpenAI upstream, translated into Anthropic events',
    fn: () =>
      relayed(new TranslatingRelay('/v1/chat/completions', ANTHROPIC_CLIENT, false), openAiStream),
  },
  {
    name: 'translate.chat-request',
    description: 'a chat request as the Messages request an Anthropic upstream is sent',
    fn: () => Buffer.from(JSON.stringify(messagesRequestFromChat(chatRequest))),
  },
];
