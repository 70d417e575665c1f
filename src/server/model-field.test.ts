import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { withModel } from './model-field.js';

const rewrite = (json: string, model: string) => withModel(Buffer.from(json), model).toString();

/** JSON objects of every shape, keys that JSON.parse and a spread treat alike. */
const jsonObject = fc.dictionary(
  fc.string().filter((key) => key !== '__proto__'),
  fc.jsonValue(),
);
const formatting = fc.constantFrom<[number | string | undefined]>([undefined], [2], ['\t']);

describe('withModel', () => {
  it('sets the top-level model of any JSON object and changes nothing else', () => {
    fc.assert(
      fc.property(jsonObject, fc.string(), formatting, (object, model, [indent]) => {
        const raw = JSON.stringify(object, null, indent);
        // Compared through JSON, which has no -0: the object as the upstream would read it.
        const expected = JSON.parse(JSON.stringify({ ...object, model }));
        expect(JSON.parse(rewrite(raw, model))).toEqual(expected);
      }),
      // This property failed once on a random -0 (a fault of the comparison, not of the
      // rewrite): a fixed seed keeps its runs the same from one test run to the next, and the
      // input that failed is always tried.
      { seed: 7_396_267, examples: [[{ a: -0 }, 'm', [undefined]]] },
    );
  });

  it('finds the end of strings of any length, escapes included (short ones are read in JS)', () => {
    // Values full of quotes and backslashes, around the 48 bytes read before indexOf takes over.
    const tricky = fc.string({
      unit: fc.constantFrom('a', '"', '\\', 'é', '\n', '/'),
      maxLength: 120,
    });
    fc.assert(
      fc.property(fc.dictionary(tricky, tricky), tricky, (object, model) => {
        const raw = JSON.stringify(object);
        const expected = JSON.parse(JSON.stringify({ ...object, model }));
        expect(JSON.parse(rewrite(raw, model))).toEqual(expected);
      }),
    );
  });

  it('leaves the bytes exactly as they were when the model is already the one asked for', () => {
    fc.assert(
      fc.property(jsonObject, fc.string(), formatting, (object, model, [indent]) => {
        const raw = JSON.stringify({ ...object, model }, null, indent);
        expect(rewrite(raw, model)).toBe(raw);
      }),
    );
  });

  it('keeps what re-serialising would lose: big integers, escapes, key order', () => {
    const raw =
      '{"seed": 12345678901234567890, "model":"auto","messages":[{"role":"user","content":"caf\\u00e9 \\"quoted\\" \\\\"}]}';
    expect(rewrite(raw, 'gpt-4o-mini')).toBe(raw.replace('"auto"', '"gpt-4o-mini"'));
  });

  it('leaves nested keys named model alone', () => {
    const raw = JSON.stringify({
      tools: [{ function: { parameters: { properties: { model: { type: 'string' } } } } }],
      metadata: { model: 'auto' },
      model: 'auto',
      messages: [{ role: 'user', content: '"model": "x"' }],
    });
    const out = JSON.parse(rewrite(raw, 'small'));
    expect(out.model).toBe('small');
    expect(out.metadata).toEqual({ model: 'auto' });
    expect(out.tools[0].function.parameters.properties.model).toEqual({ type: 'string' });
    expect(out.messages[0].content).toBe('"model": "x"');
  });

  it('adds the model when the body has none, in an empty object too', () => {
    expect(rewrite('{"messages":[]}', 'm')).toBe('{"model":"m","messages":[]}');
    expect(rewrite(' { } ', 'm')).toBe(' {"model":"m" } ');
  });

  it('replaces the last of duplicate model keys (the one JSON.parse keeps), and escaped keys', () => {
    expect(JSON.parse(rewrite('{"model":"a","model":"b"}', 'c')).model).toBe('c');
    expect(rewrite('{"mod\\u0065l":null}', 'c')).toBe('{"mod\\u0065l":"c"}');
  });
});
