import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { AnthropicToOpenAiStream } from './anthropic-to-openai.js';
import { namedEvent } from './sse-events.js';
import { textDeltaLiteral } from './text-delta.js';

const delta = (text: string, index = 0) => ({
  type: 'content_block_delta',
  index,
  delta: { type: 'text_delta', text },
});

describe('the text-delta fast path of stream translation', () => {
  it('reads the text of every text delta as the JSON parser would', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary' }), fc.nat(1000), (text, index) => {
        const literal = textDeltaLiteral(JSON.stringify(delta(text, index)));
        expect(literal).toBeDefined();
        expect(JSON.parse(literal!)).toBe(text);
      }),
    );
  });

  it('leaves every other shape to the general path', () => {
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
      '{"type": "content_block_delta", "index": 0, "delta": {"type": "text_delta", "text": "a"}}',
    ]) {
      expect(textDeltaLiteral(data), data).toBeUndefined();
    }
  });

  it('translates a text delta into the chunk the general path writes', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary' }), (text) => {
        const stream = new AnthropicToOpenAiStream(false);
        const start = stream.push(
          namedEvent({
            type: 'message_start',
            message: { id: 'msg_1', model: 'claude-x', usage: {} },
          }),
        );
        const created = (JSON.parse(start.slice(6)) as { created: number }).created;
        const out = stream.push(namedEvent(delta(text)));
        expect(out.startsWith('data: ') && out.endsWith('\n\n')).toBe(true);
        expect(JSON.parse(out.slice(6))).toEqual({
          id: 'msg_1',
          object: 'chat.completion.chunk',
          created,
          model: 'claude-x',
          choices: [{ index: 0, delta: { content: text }, logprobs: null, finish_reason: null }],
        });
      }),
    );
  });
});
