import fc from 'fast-check';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { AnthropicToOpenAiStream } from './anthropic-to-openai.js';
import { namedEvent, sseEvents } from './sse-events.js';
import { isSilentEvent, textDeltaLiteral } from './text-delta.js';
import { sameBytesHoweverCut, translatedBy } from './translation.test-helpers.js';

/**
 * The fast path of Anthropic → OpenAI stream translation writes, byte for byte, what the general
 * path writes: for every text (any code point, escapes, lone surrogates), every shape of event,
 * and however the stream is cut on its way in.
 */

const delta = (text: string, index = 0) => ({
  type: 'content_block_delta',
  index,
  delta: { type: 'text_delta', text },
});

/** The text delta's data as bytes, and where it lies in them. */
function dataOf(json: string | Buffer): [Buffer, number, number] {
  const bytes = Buffer.isBuffer(json) ? json : Buffer.from(json);
  return [bytes, 0, bytes.length];
}

/** Whether `JSON.stringify` writes `text` with no `\u` escape (what the fast path copies). */
function writtenByName(text: string): boolean {
  return !JSON.stringify(text).includes('\\u');
}

/** What a translator writes for `pieces` (complete events each), through one path or the other. */
function translated(pieces: readonly Buffer[], bytes: boolean): Buffer {
  return translatedBy(() => new AnthropicToOpenAiStream(true), pieces, bytes);
}

const anyText = fc.string({ unit: 'binary' });
const index = fc.nat(3);

/** Events of every kind an Anthropic stream holds, and shapes the byte reader must leave alone. */
const event: fc.Arbitrary<string> = fc.oneof(
  { weight: 6, arbitrary: fc.tuple(anyText, index).map(([t, i]) => namedEvent(delta(t, i))) },
  fc.constant(namedEvent({ type: 'ping' })),
  index.map((i) => namedEvent({ type: 'content_block_stop', index: i })),
  index.map((i) =>
    namedEvent({
      type: 'content_block_start',
      index: i,
      content_block: { type: 'text', text: '' },
    }),
  ),
  fc.tuple(index, fc.string()).map(([i, name]) =>
    namedEvent({
      type: 'content_block_start',
      index: i,
      content_block: { type: 'tool_use', id: 'toolu_1', name, input: {} },
    }),
  ),
  fc.tuple(index, anyText).map(([i, json]) =>
    namedEvent({
      type: 'content_block_delta',
      index: i,
      delta: { type: 'input_json_delta', partial_json: json },
    }),
  ),
  fc.tuple(fc.string(), fc.string(), fc.nat()).map(([id, model, tokens]) =>
    namedEvent({
      type: 'message_start',
      message: { id, model, usage: { input_tokens: tokens, output_tokens: 1 } },
    }),
  ),
  fc
    .tuple(fc.constantFrom('end_turn', 'max_tokens', 'tool_use', null), fc.nat())
    .map(([reason, tokens]) =>
      namedEvent({
        type: 'message_delta',
        delta: { stop_reason: reason },
        usage: { output_tokens: tokens },
      }),
    ),
  fc.constant(namedEvent({ type: 'message_stop' })),
  fc.constant(namedEvent({ type: 'error', error: { type: 'overloaded_error', message: 'busy' } })),
  // Shapes left to the general path, or read differently by it.
  anyText.map((t) => `data: ${JSON.stringify(delta(t))}\n\n`),
  anyText.map((t) => namedEvent(delta(t)).replaceAll('\n', '\r\n')),
  fc.constant(
    'event: content_block_delta\ndata: {"type":"content_block_delta","index":0,"delta":' +
      '{"type":"text_delta","text":"\\u00e9\\/"}}\n\n',
  ),
  fc.constant(
    'event: content_block_delta\ndata: {"type":"content_block_delta","index":01,"delta":' +
      '{"type":"text_delta","text":"a"}}\n\n',
  ),
  fc.constant('event: content_block_stop\ndata: {"type":"content_block_stop","index":00}\n\n'),
  fc.constant(': keep-alive\n\n'),
  fc.constant('event:ping\ndata:{"type":"ping"}\n\n'),
  fc.constant('event: x\ndata: not json\n\n'),
  fc.constant('event: message_stop\ndata: {"type":\ndata: "message_stop"}\n\n'),
  fc.constant('id: 7\ndata: {"type":"ping"}\n\n'),
);

describe('the byte fast path of stream translation', () => {
  beforeEach(() => {
    // `created` is the time of `message_start`: the same for both paths.
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(1_700_000_000_000);
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('copies the literal of every text JSON.stringify writes without a \\u escape', () => {
    fc.assert(
      fc.property(anyText, fc.nat(1000), (text, i) => {
        const literal = textDeltaLiteral(...dataOf(JSON.stringify(delta(text, i))));
        if (writtenByName(text)) expect(literal?.toString()).toBe(JSON.stringify(text));
        else expect(literal).toBeUndefined();
      }),
      { numRuns: 500 },
    );
  });

  it('leaves every other shape of data to the general path', () => {
    for (const data of [
      JSON.stringify({ ...delta('a'), extra: 1 }),
      JSON.stringify({
        type: 'content_block_delta',
        index: 0,
        delta: { type: 'text_delta', text: 'a', x: 1 },
      }),
      JSON.stringify({
        type: 'content_block_delta',
        index: 0,
        delta: { type: 'input_json_delta', partial_json: '{' },
      }),
      '{"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"cut',
      '{"type":"content_block_delta","index":,"delta":{"type":"text_delta","text":"a"}}',
      '{"type":"content_block_delta","index":01,"delta":{"type":"text_delta","text":"a"}}',
      '{"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"\\u0041"}}',
      '{"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"a\\/b"}}',
      '{"type": "content_block_delta", "index": 0, "delta": {"type": "text_delta", "text": "a"}}',
    ]) {
      expect(textDeltaLiteral(...dataOf(data)), data).toBeUndefined();
    }
    const invalidUtf8 = Buffer.concat([
      Buffer.from('{"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"'),
      Buffer.from([0xc3, 0x28]),
      Buffer.from('"}}'),
    ]);
    expect(textDeltaLiteral(...dataOf(invalidUtf8))).toBeUndefined();
  });

  it('knows the events that translate to nothing, and only those', () => {
    for (const data of [
      '{"type":"ping"}',
      '{"type":"content_block_stop","index":0}',
      '{"type":"content_block_stop","index":12}',
      '{"type":"content_block_start","index":3,"content_block":{"type":"text","text":""}}',
    ]) {
      expect(isSilentEvent(...dataOf(data)), data).toBe(true);
    }
    for (const data of [
      '{"type":"ping","x":1}',
      '{"type":"content_block_stop","index":0,"x":1}',
      '{"type":"content_block_start","index":0,"content_block":{"type":"tool_use","id":"t"}}',
      '{"type":"content_block_start","index":0,"content_block":{"type":"text","text":"a"}}',
      '{"type":"message_stop"}',
    ]) {
      expect(isSilentEvent(...dataOf(data)), data).toBe(false);
    }
  });

  it('writes byte for byte what the general path writes, for any events in any pieces', () => {
    fc.assert(
      fc.property(fc.array(fc.array(event, { minLength: 1, maxLength: 4 })), (groups) => {
        const pieces = groups.map((group) => Buffer.from(group.join('')));
        const out = translated(pieces, true);
        expect(out.equals(translated(pieces, false))).toBe(true);
        // Every chunk as JSON.stringify writes it (the prepared heads and tails included).
        for (const { data } of sseEvents(out.toString('utf8'))) {
          if (data !== '[DONE]') expect(data).toBe(JSON.stringify(JSON.parse(data)));
        }
      }),
      { numRuns: 500 },
    );
  });

  it('writes the same bytes however the stream is cut on its way in', () => {
    fc.assert(
      fc.property(fc.array(event, { maxLength: 30 }), fc.array(fc.nat()), (events, cuts) => {
        expect(sameBytesHoweverCut(() => new AnthropicToOpenAiStream(true), events, cuts)).toBe(
          true,
        );
      }),
      { numRuns: 300 },
    );
  });

  it('keeps invalid UTF-8 as the general path decodes it', () => {
    const piece = Buffer.concat([
      Buffer.from(namedEvent({ type: 'message_start', message: { id: 'msg_1', model: 'm' } })),
      Buffer.from(
        'event: content_block_delta\ndata: {"type":"content_block_delta","index":0,"delta":' +
          '{"type":"text_delta","text":"a',
      ),
      Buffer.from([0xff, 0xc3]),
      Buffer.from('b"}}\n\n'),
    ]);
    expect(translated([piece], true).equals(translated([piece], false))).toBe(true);
  });
});
