import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { FakeRequest } from '../../testing/fake-types.js';
import { anthropicWire } from '../../testing/wire-anthropic.js';
import { openAiWire } from '../../testing/wire-openai.js';
import { AnthropicToOpenAiStream } from './anthropic-to-openai.js';
import { OpenAiToAnthropicStream } from './openai-to-anthropic.js';
import { jsonData, sseEvents } from './sse-events.js';

/**
 * The stream translators keep what was said, whatever it is and however the stream is cut into
 * pieces of complete events: the text, the stop reason and the usage.
 */

function request(stream: boolean, body: unknown = {}): FakeRequest {
  return {
    seq: 0,
    method: 'POST',
    path: '/',
    headers: {},
    body,
    rawBody: '',
    model: 'm',
    messages: [],
    prompt: '',
    stream,
    outcome: 'pending',
  };
}

/** The pieces, regrouped into `cuts` consecutive runs of whole events. */
function regroup(pieces: readonly string[], cuts: readonly number[]): string[] {
  const out: string[] = [];
  let at = 0;
  for (const cut of cuts) {
    if (at >= pieces.length) break;
    out.push(pieces.slice(at, at + cut).join(''));
    at += cut;
  }
  if (at < pieces.length) out.push(pieces.slice(at).join(''));
  return out;
}

const usage = { inputTokens: 17, outputTokens: 5 };

/** The fields of an Anthropic event the assertions read. */
interface AnthropicEvent {
  readonly type: string;
  readonly delta?: { readonly text?: string; readonly stop_reason?: string };
  readonly usage?: unknown;
}
const cuts = fc.array(fc.integer({ min: 1, max: 4 }), { maxLength: 40 });

describe('stream translation', () => {
  it('Anthropic events → chat chunks keep the text, the finish reason and the usage', () => {
    fc.assert(
      fc.property(fc.string({ minLength: 1 }), cuts, (text, cut) => {
        const encoded = anthropicWire.encode({
          request: request(true),
          model: 'm',
          text,
          isJson: false,
          usage,
          finishReason: 'max_tokens',
        });
        const translator = new AnthropicToOpenAiStream(true);
        let out = '';
        for (const piece of regroup(encoded.pieces, cut)) out += translator.push(piece);
        out += translator.end();
        let content = '';
        let finish: unknown;
        let reported: unknown;
        const events = sseEvents(out);
        expect(events.at(-1)?.data).toBe('[DONE]');
        for (const { data } of events.slice(0, -1)) {
          const chunk = jsonData(data) as {
            choices: { delta: { content?: string }; finish_reason: unknown }[];
            usage?: unknown;
          };
          content += chunk.choices[0]?.delta.content ?? '';
          finish = chunk.choices[0]?.finish_reason ?? finish;
          reported = chunk.usage ?? reported;
        }
        expect(content).toBe(text);
        expect(finish).toBe('length');
        expect(reported).toEqual({ prompt_tokens: 17, completion_tokens: 5, total_tokens: 22 });
      }),
    );
  });

  it('chat chunks → Anthropic events keep the text, the stop reason and the usage', () => {
    fc.assert(
      fc.property(fc.string({ minLength: 1 }), cuts, (text, cut) => {
        const body = { stream_options: { include_usage: true } };
        const encoded = openAiWire.encode({
          request: request(true, body),
          model: 'm',
          text,
          isJson: false,
          usage,
        });
        const translator = new OpenAiToAnthropicStream();
        let out = '';
        for (const piece of regroup(encoded.pieces, cut)) out += translator.push(piece);
        out += translator.end();
        const events = sseEvents(out).map(({ event, data }) => ({
          event,
          value: jsonData(data) as unknown as AnthropicEvent,
        }));
        expect(events.every(({ event, value }) => event === value.type)).toBe(true);
        expect(events[0]?.event).toBe('message_start');
        expect(events.at(-1)?.event).toBe('message_stop');
        const text2 = events
          .filter(({ event }) => event === 'content_block_delta')
          .map(({ value }) => value.delta?.text)
          .join('');
        expect(text2).toBe(text);
        const delta = events.find(({ event }) => event === 'message_delta')?.value;
        expect(delta?.delta?.stop_reason).toBe('end_turn');
        expect(delta?.usage).toEqual({ input_tokens: 17, output_tokens: 5 });
        expect(translator.usage).toEqual({
          inputTokens: 17,
          cachedInputTokens: 0,
          outputTokens: 5,
        });
      }),
    );
  });
});
