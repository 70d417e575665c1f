import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createTierRouter } from '../tier/router.js';
import { highlight } from './highlight.js';
import { lexiconSpans, MAX_SPANS, phraseSpans } from './spans.js';

const lexicon = createTierRouter().scorer.lexicon;

/** The text of highlighted HTML: tags removed, entities decoded. */
function textOf(html: string): string {
  return html
    .replace(/<[^>]+>/g, '')
    .replaceAll('&lt;', '<')
    .replaceAll('&gt;', '>')
    .replaceAll('&quot;', '"')
    .replaceAll('&#39;', "'")
    .replaceAll('&amp;', '&');
}

describe('matched spans', () => {
  it('finds every occurrence of the tier keywords, labelled by dimension', () => {
    const text = 'Write a function. Then another function, step-by-step, in Python.';
    const spans = lexiconSpans(lexicon, text);
    const found = spans.map((s) => [text.slice(s.start, s.end), s.label]);
    expect(found).toEqual(
      expect.arrayContaining([
        ['function', 'code'],
        ['Python', 'code'],
        ['step-by-step', 'reasoning'],
      ]),
    );
    expect(found.filter(([t]) => t === 'function')).toHaveLength(2);
  });

  it('keeps every span inside the text, non-empty, at most MAX_SPANS, for any text', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 300 }), (text) => {
        const spans = lexiconSpans(lexicon, text);
        expect(spans.length).toBeLessThanOrEqual(MAX_SPANS);
        for (const s of spans) {
          expect(s.start).toBeGreaterThanOrEqual(0);
          expect(s.end).toBeGreaterThan(s.start);
          expect(s.end).toBeLessThanOrEqual(text.length);
        }
      }),
    );
  });

  it('caps a long text full of keywords', () => {
    expect(lexiconSpans(lexicon, 'function '.repeat(1000))).toHaveLength(MAX_SPANS);
  });

  it('finds phrases case-insensitively, each occurrence', () => {
    const spans = phraseSpans('Define it. define IT again', [
      { label: 'definition', phrase: 'define' },
    ]);
    expect(spans.map((s) => s.start)).toEqual([0, 11]);
  });
});

describe('highlight', () => {
  it('marks spans and escapes the text', () => {
    const html = highlight('<b>x</b> & code', [
      { start: 11, end: 15, part: 'tier', label: 'code', match: 'code' },
    ]);
    expect(html).toBe(
      '&lt;b&gt;x&lt;/b&gt; &amp; <mark class="hl-tier" title="tier · code: code" data-label="code">code</mark>',
    );
  });

  it('keeps the text exactly, whatever the spans (overlapping, out of range)', () => {
    fc.assert(
      fc.property(
        fc.string({ maxLength: 80 }),
        fc.array(fc.tuple(fc.integer({ min: -5, max: 90 }), fc.integer({ min: -5, max: 90 }))),
        (text, pairs) => {
          const marks = pairs.map(([start, end]) => ({
            start,
            end,
            part: 'tier',
            label: 'l',
            match: 'm',
          }));
          const html = highlight(text, marks);
          expect(textOf(html)).toBe(text);
          expect(html).not.toMatch(/<mark[^>]*>[^<]*<mark/);
        },
      ),
    );
  });
});
