import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { sentenceTexts } from './sentence-texts.test-helpers.js';
import { limitSentences, SentenceSplitter, splitSentences } from './sentences.js';

describe('splitSentences', () => {
  it.each([
    [
      'e.g. and i.e. mid-sentence',
      'Use a catalyst, e.g. platinum. It helps, i.e. it speeds things up.',
      ['Use a catalyst, e.g. platinum.', 'It helps, i.e. it speeds things up.'],
    ],
    [
      'titles',
      'Dr. Smith and Mrs. Jones met Prof. Lee. They talked.',
      ['Dr. Smith and Mrs. Jones met Prof. Lee.', 'They talked.'],
    ],
    [
      'initialisms',
      'The U.S. economy grew. The U.K. did not.',
      ['The U.S. economy grew.', 'The U.K. did not.'],
    ],
    [
      'decimals',
      'Pi is about 3.14 and e is 2.718. Both are irrational.',
      ['Pi is about 3.14 and e is 2.718.', 'Both are irrational.'],
    ],
    [
      'a number ending a sentence',
      'The answer is 42. Next question.',
      ['The answer is 42.', 'Next question.'],
    ],
    [
      'URLs and e-mail',
      'See https://example.com/a.b?c=d.e for more. Write to a.b@c.org today.',
      ['See https://example.com/a.b?c=d.e for more.', 'Write to a.b@c.org today.'],
    ],
    [
      'ellipses',
      'Well... maybe. Wait… What? Then it ended...',
      ['Well... maybe.', 'Wait…', 'What?', 'Then it ended...'],
    ],
    [
      'quotes after the mark',
      'He said "Stop." Then he left. "Why?" she asked. She said \'no!\' Then went.',
      ['He said "Stop."', 'Then he left.', '"Why?" she asked.', "She said 'no!'", 'Then went.'],
    ],
    [
      'closing brackets',
      'It works (mostly.) Sometimes [rarely!] it fails.',
      ['It works (mostly.)', 'Sometimes [rarely!] it fails.'],
    ],
    ['runs of marks', 'Really?! Yes!!! OK.', ['Really?!', 'Yes!!!', 'OK.']],
    [
      'CJK full stops without spaces',
      '光合作用是植物利用光能的过程。它产生氧气！对吗？是的',
      ['光合作用是植物利用光能的过程。', '它产生氧气！', '对吗？', '是的'],
    ],
    [
      'Japanese with closing brackets',
      '「これは本です。」と言った。次へ。',
      ['「これは本です。」', 'と言った。', '次へ。'],
    ],
    [
      'Arabic question mark',
      'ما هو التضخم؟ إنه ارتفاع الأسعار.',
      ['ما هو التضخم؟', 'إنه ارتفاع الأسعار.'],
    ],
    [
      'numbered and bulleted lists',
      'Steps:\n1. Mix the flour.\n2. Add water\n- stir\n- bake',
      ['Steps:', '1. Mix the flour.', '2. Add water', '- stir', '- bake'],
    ],
    ['paragraph breaks', 'A heading\n\nThe body text here', ['A heading', 'The body text here']],
    [
      'a single line break',
      'one line\ncontinues here. End.',
      ['one line\ncontinues here.', 'End.'],
    ],
    ['initials', 'J. K. Rowling wrote it. Good.', ['J. K. Rowling wrote it.', 'Good.']],
    [
      'a unit after a number',
      'It froze at 3.5 K. Then it thawed.',
      ['It froze at 3.5 K.', 'Then it thawed.'],
    ],
    [
      '"etc." and "p.m." before a capital',
      'Apples, pears, etc. Then more. At 5 p.m. on Monday. At 5 p.m. We left.',
      ['Apples, pears, etc.', 'Then more.', 'At 5 p.m. on Monday.', 'At 5 p.m.', 'We left.'],
    ],
    [
      'abbreviations before numbers',
      'See Fig. 3 and No. 5 on p. 12. The answer is no. Then we stop.',
      ['See Fig. 3 and No. 5 on p. 12.', 'The answer is no.', 'Then we stop.'],
    ],
    ['no terminal at all', 'just some words', ['just some words']],
    ['empty and blank', '   \n\n  ', []],
  ])('%s', (_name, text, expected) => {
    expect(splitSentences(text)).toEqual(expected);
  });

  it('takes custom abbreviation lists', () => {
    const splitter = new SentenceSplitter({ abbreviations: ['approx', 'bzw'] });
    expect(splitter.split('Es kostet ca. 5 Euro bzw. mehr. Gut.')).toEqual([
      'Es kostet ca.',
      '5 Euro bzw. mehr.',
      'Gut.',
    ]);
  });
});

describe('limitSentences (the original design’s limit_sentences)', () => {
  const text = 'Dr. Smith measured 3.14 units. It was e.g. large. A third one. A fourth.';

  it('keeps the first N sentences', () => {
    expect(limitSentences(text, 1)).toBe('Dr. Smith measured 3.14 units.');
    expect(limitSentences(text, 2)).toBe('Dr. Smith measured 3.14 units. It was e.g. large.');
  });

  it('returns the trimmed text when it has at most N sentences, or no cap applies', () => {
    expect(limitSentences(`  ${text}  `, 4)).toBe(text);
    expect(limitSentences(`  ${text}  `, 10)).toBe(text);
    expect(limitSentences(`  ${text}  `, null)).toBe(text);
    expect(limitSentences(`  ${text}  `, 0)).toBe(text);
    expect(limitSentences(`  ${text}  `, -3)).toBe(text);
    expect(limitSentences('', 2)).toBe('');
  });

  it('keeps the original formatting of what it keeps', () => {
    expect(limitSentences('First line.\n\n- item one\n- item two\n- item three', 3)).toBe(
      'First line.\n\n- item one\n- item two',
    );
  });
});

describe('properties', () => {
  it('the sentences of the limited text are the first N sentences', () => {
    fc.assert(
      fc.property(sentenceTexts, fc.integer({ min: 1, max: 6 }), (text, max) => {
        expect(splitSentences(limitSentences(text, max))).toEqual(
          splitSentences(text).slice(0, max),
        );
      }),
      { numRuns: 1000 },
    );
  });

  it('loses no text: the sentences, in order, make up the text without white space', () => {
    fc.assert(
      fc.property(sentenceTexts, (text) => {
        const sentences = splitSentences(text);
        for (const sentence of sentences) expect(sentence).toBe(sentence.trim());
        expect(sentences.join('').replace(/\s+/g, '')).toBe(text.replace(/\s+/g, ''));
      }),
      { numRuns: 1000 },
    );
  });
});
