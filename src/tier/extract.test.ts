import { describe, expect, it } from 'vitest';
import { extractPrompt, TierRequestError } from './extract.js';
import { tierOptions } from './options.js';

const options = tierOptions().extraction;
const extract = (request: Parameters<typeof extractPrompt>[0]) => extractPrompt(request, options);
const SYSTEM = 'You are a coding agent. Think step by step and respond in JSON.';

describe('extractPrompt', () => {
  it('scores the last user message and keeps the rest as unscored context', () => {
    const prompt = extract({
      messages: [
        { role: 'system', content: SYSTEM },
        { role: 'user', content: 'Design a distributed system' },
        { role: 'assistant', content: 'Here is a design…' },
        { role: 'user', content: 'thanks!' },
      ],
    });
    expect(prompt.text).toBe('thanks!');
    expect(prompt.context).toEqual([SYSTEM, 'Design a distributed system', 'Here is a design…']);
    expect(prompt.hasSystemPrompt).toBe(true);
  });

  it('reads array-of-parts content and counts image parts', () => {
    const prompt = extract({
      messages: [
        {
          role: 'user',
          content: [
            { type: 'text', text: 'What is this?' },
            { type: 'image_url', image_url: { url: 'https://example.com/a.png' } },
            { type: 'input_image', image_url: 'data:image/png;base64,AA' },
            { type: 'text', text: 'Be brief.' },
          ],
        },
      ],
    });
    expect(prompt).toMatchObject({ text: 'What is this?\nBe brief.', images: 2 });
  });

  it('case 1: takes the current message of a packed context', () => {
    const packed =
      '[Chat messages since your last reply - for context]\nuser: prove the theorem\n' +
      'assistant: here is the proof\n[Current message - respond to this]\nWhat is 2+2?';
    const prompt = extract(packed);
    expect(prompt.text).toBe('What is 2+2?');
    expect(prompt.steps).toEqual(['packed-context']);
    expect(prompt.context.join('')).toContain('prove the theorem');
    const twice = extract(`${packed}\n[Current message - respond to this]\nthanks!`);
    expect(twice.text).toBe('thanks!');
  });

  it('case 2: strips a system prompt pasted into the user message', () => {
    const prompt = extract({
      messages: [
        { role: 'system', content: SYSTEM },
        { role: 'user', content: `${SYSTEM}\n\n3+1` },
      ],
    });
    expect(prompt.text).toBe('3+1');
    expect(prompt.steps).toEqual(['embedded-system-prompt']);
  });

  it('case 3: a long message opening like a system prompt is scored from its last paragraph', () => {
    const persona = `You are Atlas, an expert assistant. ${'Follow the JSON schema and the tool rules. '.repeat(15)}`;
    const prompt = extract({ messages: [{ role: 'user', content: `${persona}\n\nhello there` }] });
    expect(prompt.text).toBe('hello there');
    expect(prompt.steps).toEqual(['trailing-message']);
  });

  it('case 3 (guarded): the last paragraph of a long message is the request, as in the design', () => {
    const rules = `Support rules: ${'answer briefly, in the customer language, about orders only. '.repeat(10)}`;
    expect(extract(`${rules}\n\nDo you ship to Belgium?`)).toMatchObject({
      text: 'Do you ship to Belgium?',
      steps: ['trailing-message'],
    });
  });

  it('case 3 (guarded): a sign-off is not the request; the paragraph before it is', () => {
    const rules = `Support rules: ${'answer briefly, in the customer language, about orders only. '.repeat(10)}`;
    for (const signOff of [
      'Thanks!',
      'thanks in advance.',
      'Cheers',
      "Merci d'avance !",
      '谢谢！',
      'Thanks,\nMaria',
    ]) {
      expect(extract(`${rules}\n\nDo you ship to Belgium?\n\n${signOff}`).text, signOff).toBe(
        'Do you ship to Belgium?',
      );
    }
    const request = `Build a service that ${'imports statements, normalises them and exposes an API, '.repeat(10)}`;
    const signed = `${request}\n\nThanks!`;
    expect(extract(signed)).toMatchObject({ text: signed, steps: [] });
    const always = extractPrompt(
      signed,
      tierOptions({ extraction: { trailingMessage: 'always' } }).extraction,
    );
    expect(always.text).toBe('Thanks!');
  });

  it('case 3 (guarded): a request about the text above keeps the whole message', () => {
    const doc = `${'Our service writes audit events to Kafka and the latency rose. '.repeat(12)}`;
    for (const question of [
      'Why does this happen?',
      'Summarize it in three bullets.',
      'Explique ce texte.',
      'Was bedeutet dieser Absatz?',
      '总结一下上面的内容。',
    ]) {
      const content = `${doc}\n\n${question}`;
      expect(extract({ messages: [{ role: 'user', content }] }).text, question).toBe(content);
    }
    // A message that opens like a system prompt is trusted to be one.
    const persona = `You are Atlas. ${'Follow the JSON schema and the tool rules. '.repeat(15)}`;
    expect(extract(`${persona}\n\nIs this free?`).text).toBe('Is this free?');
    expect(extract(`${persona}\n\nthanks`).text).toBe('thanks');
  });

  it('case 3 modes: persona only after a persona opener; off never', () => {
    const doc = `${'Our service writes audit events to Kafka and the latency rose. '.repeat(12)}`;
    const content = `${doc}\n\nWhat went wrong?`;
    const mode = (trailingMessage: 'persona' | 'off' | 'always') =>
      extractPrompt(content, tierOptions({ extraction: { trailingMessage } }).extraction).text;
    expect(mode('persona')).toBe(content);
    expect(mode('off')).toBe(content);
    expect(mode('always')).toBe('What went wrong?');
    expect(extract(content).text).toBe('What went wrong?');
  });

  it('does not apply case 3 when the request has a system message', () => {
    const persona = `You are Atlas. ${'Rules. '.repeat(100)}`;
    const prompt = extract({
      messages: [
        { role: 'system', content: 'Be nice.' },
        { role: 'user', content: `${persona}\n\nhello` },
      ],
    });
    expect(prompt.steps).toEqual([]);
  });

  it('treats developer messages like system messages', () => {
    const prompt = extract({
      messages: [
        { role: 'developer', content: SYSTEM },
        { role: 'user', content: `${SYSTEM} hi` },
      ],
    });
    expect(prompt).toMatchObject({ text: 'hi', hasSystemPrompt: true });
  });

  it('gives an empty text when there is no user message, and accepts null content', () => {
    const prompt = extract({
      messages: [
        { role: 'system', content: SYSTEM },
        { role: 'assistant', content: null },
      ],
    });
    expect(prompt.text).toBe('');
  });

  it('rejects malformed requests with the path of the bad field and no prompt text', () => {
    const bad = (request: unknown, message: RegExp) =>
      expect(() => extract(request as never)).toThrow(message);
    bad({}, /request.messages must be an array/);
    bad({ messages: [null] }, /request.messages\[0\] must be an object with a string role/);
    bad({ messages: [{ role: 'user', content: 42 }] }, /messages\[0\].content must be a string/);
    bad(
      { messages: [{ role: 'user', content: [{ text: 'secret' }] }] },
      /content\[0\] must be an object with a type/,
    );
    bad(
      { messages: [{ role: 'user', content: [{ type: 'text', text: 7 }] }] },
      /content\[0\].text must be a string/,
    );
    try {
      extract({
        messages: [{ role: 'user', content: [{ type: 'text', text: { secret: 'x' } }] }],
      } as never);
    } catch (error) {
      expect(error).toBeInstanceOf(TierRequestError);
      expect((error as Error).message).not.toContain('secret');
    }
  });
});
