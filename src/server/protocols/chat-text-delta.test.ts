import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { chatTextLiteral } from './chat-text-delta.js';
import { jsonScalarEnd } from './json-bytes.js';
import { OpenAiToAnthropicStream } from './openai-to-anthropic.js';
import { sseEvents } from './sse-events.js';
import { sameBytesHoweverCut, translatedBy } from './translation.test-helpers.js';

/**
 * The fast path of OpenAI → Anthropic stream translation writes, byte for byte, what the general
 * path writes: for every text, every shape of chunk, and however the stream is cut on its way in.
 */

const anyText = fc.string({ unit: 'binary' });

/** A text chunk as OpenAI writes it, with `extra` fields before and after `choices`. */
function textChunk(text: string, before: object = {}, after: object = {}): string {
  return JSON.stringify({
    id: 'chatcmpl-1',
    object: 'chat.completion.chunk',
    created: 1_700_000_000,
    model: 'gpt-x',
    ...before,
    choices: [{ index: 0, delta: { content: text }, logprobs: null, finish_reason: null }],
    ...after,
  });
}

const data = (json: string): [Buffer, number, number] => {
  const bytes = Buffer.from(json);
  return [bytes, 0, bytes.length];
};

const scalar = fc.oneof(
  anyText,
  fc.integer(),
  fc.double({ noNaN: true, noDefaultInfinity: true }),
  fc.boolean(),
  fc.constant(null),
);
const fields = fc.dictionary(
  // Keys written without escapes (a key with one goes the general way).
  fc
    .string()
    .filter(
      (key) =>
        !['choices', 'error', 'usage', '__proto__'].includes(key) &&
        !JSON.stringify(key).includes('\\'),
    ),
  scalar,
  { maxKeys: 3 },
);

/** Chunks of every kind an OpenAI stream holds, and shapes the byte reader must leave alone. */
const event: fc.Arbitrary<string> = fc.oneof(
  {
    weight: 6,
    arbitrary: fc
      .tuple(anyText, fields, fields)
      .map(([t, before, after]) => `data: ${textChunk(t, before, after)}\n\n`),
  },
  anyText.map((t) => `data: ${textChunk(t, {}, { usage: null })}\n\n`),
  fc.constant(
    `data: ${JSON.stringify({ id: 'c', model: 'm', choices: [{ index: 0, delta: { role: 'assistant', content: '' } }] })}\n\n`,
  ),
  fc
    .tuple(fc.nat(2), anyText, fc.string())
    .map(
      ([index, args, name]) =>
        `data: ${JSON.stringify({ id: 'c', choices: [{ index: 0, delta: { tool_calls: [{ index, id: 'call_1', function: { name, arguments: args } }] } }] })}\n\n`,
    ),
  fc
    .constantFrom('stop', 'length', 'tool_calls')
    .map(
      (reason) =>
        `data: ${JSON.stringify({ id: 'c', choices: [{ index: 0, delta: {}, finish_reason: reason }] })}\n\n`,
    ),
  fc
    .tuple(fc.nat(), fc.nat())
    .map(
      ([prompt, completion]) =>
        `data: ${JSON.stringify({ id: 'c', choices: [], usage: { prompt_tokens: prompt, completion_tokens: completion } })}\n\n`,
    ),
  fc.constant('data: [DONE]\n\n'),
  fc.constant(`data: ${JSON.stringify({ error: { message: 'busy' } })}\n\n`),
  // Shapes left to the general path, or read differently by it.
  anyText.map((t) => `data: ${textChunk(t, {}, { usage: { prompt_tokens: 3 } })}\n\n`),
  anyText.map((t) => `data: ${textChunk(t, { error: null })}\n\n`),
  anyText.map((t) => `data: ${textChunk(t, { nested: { a: 1 } })}\n\n`),
  anyText.map((t) => `data: ${textChunk(t)}\n\n`.replaceAll('\n', '\r\n')),
  anyText.map((t) => `data: ${textChunk(t).replace('"model"', '"\\u006dodel"')}\n\n`),
  anyText.map((t) => `data: ${textChunk(t).replace('"choices"', '"\\u0063hoices"')}\n\n`),
  anyText.map(
    (t) => `data: ${textChunk(t).replace('"finish_reason":null', '"finish_reason":"stop"')}\n\n`,
  ),
  fc.constant(
    'data: {"id":"c","choices":[{"index":0,"delta":{"content":"\\u00e9\\/"},"finish_reason":null}]}\n\n',
  ),
  fc.constant(
    'data: {"id":"c","choices":[{"index":0,"delta":{"content":"a"},"finish_reason":null}],' +
      '"choices":[{"index":0,"delta":{"content":"b"},"finish_reason":null}]}\n\n',
  ),
  fc.constant(
    'data: {"id":01,"choices":[{"index":0,"delta":{"content":"a"},"finish_reason":null}]}\n\n',
  ),
  fc.constant(': keep-alive\n\n'),
  fc.constant('data:{"id":"c"}\n\n'),
  fc.constant('data: not json\n\n'),
);

/** What a translator writes for `pieces` (complete events each), through one path or the other. */
function translated(pieces: readonly Buffer[], bytes: boolean): Buffer {
  return translatedBy(() => new OpenAiToAnthropicStream(), pieces, bytes);
}

describe('the byte fast path of chat-chunk translation', () => {
  it('finds the content literal of a plain text chunk, whatever scalar fields surround it', () => {
    fc.assert(
      fc.property(anyText, fields, fields, (text, before, after) => {
        const literal = chatTextLiteral(...data(textChunk(text, before, after)));
        if (JSON.stringify(text).includes('\\u')) expect(literal).toBeUndefined();
        else expect(literal?.toString()).toBe(JSON.stringify(text));
      }),
      { numRuns: 500 },
    );
  });

  it('leaves chunks that say more than a text to the general path', () => {
    for (const json of [
      textChunk('a', { error: null }),
      textChunk('a', {}, { usage: { prompt_tokens: 1 } }),
      textChunk('a', { nested: [1] }),
      textChunk('a').replace('"finish_reason":null', '"finish_reason":"stop"'),
      textChunk('a').replace('{"content":"a"}', '{"content":"a","role":"assistant"}'),
      textChunk('a').replace('"choices"', '"\\u0063hoices"'),
      textChunk('a').replace('"model":"gpt-x"', '"model": "gpt-x"'),
      textChunk('a').replace('1700000000', '017'),
      `${textChunk('a')} `,
    ]) {
      expect(chatTextLiteral(...data(json)), json).toBeUndefined();
    }
  });

  it('reads the end of a JSON scalar only where JSON.parse reads one', () => {
    const alphabet = fc.constantFrom(...'0123456789-+.eE"\\/unlltrfas x'.split(''));
    fc.assert(
      fc.property(fc.string({ unit: alphabet, maxLength: 12 }), (text) => {
        const bytes = Buffer.from(text);
        if (jsonScalarEnd(bytes, 0, bytes.length) === bytes.length) {
          expect(() => JSON.parse(text)).not.toThrow();
        }
      }),
      { numRuns: 5000 },
    );
    fc.assert(
      fc.property(scalar, (value) => {
        const bytes = Buffer.from(JSON.stringify(value));
        expect(jsonScalarEnd(bytes, 0, bytes.length)).toBe(bytes.length);
      }),
    );
  });

  it('writes byte for byte what the general path writes, for any chunks in any pieces', () => {
    fc.assert(
      fc.property(fc.array(fc.array(event, { minLength: 1, maxLength: 4 })), (groups) => {
        const pieces = groups.map((group) => Buffer.from(group.join('')));
        const out = translated(pieces, true);
        expect(out.equals(translated(pieces, false))).toBe(true);
        // Every event as JSON.stringify writes it (the prepared heads and tails included).
        for (const { data } of sseEvents(out.toString('utf8'))) {
          expect(data).toBe(JSON.stringify(JSON.parse(data)));
        }
      }),
      { numRuns: 500 },
    );
  });

  it('writes the same bytes however the stream is cut on its way in', () => {
    fc.assert(
      fc.property(fc.array(event, { maxLength: 30 }), fc.array(fc.nat()), (events, cuts) => {
        expect(sameBytesHoweverCut(() => new OpenAiToAnthropicStream(), events, cuts)).toBe(true);
      }),
      { numRuns: 300 },
    );
  });
});
