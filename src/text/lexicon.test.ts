import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { extendFoldTable } from './chars.js';
import { compileLexicon } from './lexicon.js';

const lexicon = compileLexicon({
  reasoning: ['prove', 'theorem', 'step by step', 'chain-of-thought', '证明', 'докажи*'],
  code: ['function', 'class', '```', 'c++', 'node.js', "what's up"],
  simple: ['what is', 'hello', 'capital of', 'définir'],
  stems: ['optimi*', '*architektur'],
});
const labels = (text: string, category: string) =>
  lexicon.scan(text).labels(lexicon.categoryIndex(category));

describe('Lexicon matching', () => {
  it('matches whole words only (departing from the original design: improve is not prove)', () => {
    expect(labels('improve and approve the subclass', 'reasoning')).toEqual([]);
    expect(labels('improve and approve the subclass', 'code')).toEqual([]);
    expect(labels('Prove it. PROVE IT!', 'reasoning')).toEqual(['prove']);
  });

  it('is case-insensitive and ignores Latin diacritics and full-width forms', () => {
    expect(labels('HELLO there', 'simple')).toEqual(['hello']);
    expect(labels('Définir et DEFINIR', 'simple')).toEqual(['définir']);
    expect(labels('ｈｅｌｌｏ', 'simple')).toEqual(['hello']);
  });

  it('matches phrases across any run of white space, and hyphens as spaces', () => {
    expect(labels('think step\n  by\tstep', 'reasoning')).toEqual(['step by step']);
    expect(labels('step-by-step please', 'reasoning')).toEqual(['step by step']);
    expect(labels('use chain of thought', 'reasoning')).toEqual(['chain-of-thought']);
    expect(labels('what is the capital of France', 'simple')).toEqual(['what is', 'capital of']);
    expect(labels('whatis', 'simple')).toEqual([]);
  });

  it('matches many phrases that share a first word, each where it occurs', () => {
    const shared = compileLexicon({
      ref: ['the docs', 'the api', 'the file', 'the code below', 'step 1', 'step 2', 'the'],
    });
    const found = (text: string) => shared.scan(text).labels(0);
    expect(found('read the docs, then the API and the code below')).toEqual([
      'the',
      'the docs',
      'the api',
      'the code below',
    ]);
    expect(found('the-docs and the\n\tfile')).toEqual(['the', 'the docs', 'the file']);
    expect(found('the, docs; step 12; step 2')).toEqual(['the', 'step 2']);
    expect(found('theme docs')).toEqual([]);
  });

  it('matches entries with symbols and apostrophes', () => {
    expect(labels('in C++ and Node.js, wrap it in ```', 'code')).toEqual(['c++', 'node.js', '```']);
    expect(labels('What’s up?', 'code')).toEqual(["what's up"]);
  });

  it('matches Han and kana anywhere, without word boundaries', () => {
    expect(labels('请证明这个定理', 'reasoning')).toEqual(['证明']);
  });

  it('supports prefix (stem*) and suffix (*stem) entries', () => {
    expect(labels('Optimize the optimisation', 'stems')).toEqual(['optimi']);
    expect(labels('Докажите, что', 'reasoning')).toEqual(['докажи']);
    expect(labels('die Softwarearchitektur', 'stems')).toEqual(['architektur']);
    expect(labels('suboptimal', 'stems')).toEqual([]);
  });

  it('looks through zero-width characters, soft hyphens and combining marks', () => {
    expect(labels('pro\u200bve the theo\u00adrem', 'reasoning')).toEqual(['prove', 'theorem']);
    expect(labels('he\u0301llo', 'simple')).toEqual(['hello']);
  });

  it('counts distinct entries, occurrences and weights per category, with first positions', () => {
    const scan = lexicon.scan('prove, prove, theorem');
    const reasoning = lexicon.categoryIndex('reasoning');
    expect(scan.distinct(reasoning)).toBe(2);
    expect(scan.occurrences(reasoning)).toBe(3);
    expect(scan.weight(reasoning)).toBe(2);
    expect(scan.hits().map((h) => [h.entry.label, h.occurrences, h.index])).toEqual([
      ['prove', 2, 0],
      ['theorem', 1, 14],
    ]);
  });

  it('lets one phrase belong to several categories', () => {
    const both = compileLexicon({ imperative: ['deploy'], agentic: ['deploy'] });
    const scan = both.scan('deploy it');
    expect(scan.distinct(both.categoryIndex('imperative'))).toBe(1);
    expect(scan.distinct(both.categoryIndex('agentic'))).toBe(1);
  });

  it('uses entry weights and labels', () => {
    const weighted = compileLexicon({ x: [{ phrase: 'kubernetes', weight: 2, label: 'k8s' }] });
    const scan = weighted.scan('Kubernetes!');
    expect(scan.weight(0)).toBe(2);
    expect(scan.labels(0)).toEqual(['k8s']);
  });

  it('scans a range of a text without copying it', () => {
    const text = 'hello world, prove it';
    const scan = lexicon.scan(text, undefined, 13, text.length);
    expect(scan.labels(lexicon.categoryIndex('simple'))).toEqual([]);
    expect(scan.labels(lexicon.categoryIndex('reasoning'))).toEqual(['prove']);
    expect(scan.stats.chars).toBe(8);
  });

  it('reuses a scan object without leaking the previous results', () => {
    const scan = lexicon.scan('prove the theorem');
    lexicon.scan('hello', scan);
    expect(scan.hitCount).toBe(1);
    expect(scan.distinct(lexicon.categoryIndex('reasoning'))).toBe(0);
    expect(() => compileLexicon({ a: ['x'] }).scan('x', scan)).toThrow(/another lexicon/);
  });

  it('supports a custom fold table (e.g. leetspeak)', () => {
    const leet = compileLexicon(
      { x: ['ignore'] },
      { fold: extendFoldTable({ '1': 'i', '0': 'o', '3': 'e' }) },
    );
    expect(leet.scan('1gn0r3 this').distinct(0)).toBe(1);
  });

  it('rejects empty entries and unknown categories', () => {
    expect(() => compileLexicon({ x: ['  '] })).toThrow(/empty lexicon entry/);
    expect(() => lexicon.categoryIndex('nope')).toThrow(/unknown lexicon category: nope/);
  });
});

describe('Lexicon properties', () => {
  const word = fc.stringMatching(/^[a-z]{2,8}$/);

  it('finds a word wherever it stands between non-letters', () => {
    fc.assert(
      fc.property(word, fc.string(), fc.string(), (keyword, before, after) => {
        const lex = compileLexicon({ k: [keyword] });
        const text = `${before} ${keyword.toUpperCase()}. ${after}`;
        expect(lex.scan(text).distinct(0)).toBe(1);
      }),
    );
  });

  it('never matches a word glued to other letters', () => {
    fc.assert(
      fc.property(word, fc.stringMatching(/^[a-z]{1,4}$/), (keyword, glue) => {
        const lex = compileLexicon({ k: [keyword] });
        expect(lex.scan(`${glue}${keyword}`).distinct(0)).toBe(0);
        expect(lex.scan(`${keyword}${glue}`).distinct(0)).toBe(0);
      }),
    );
  });

  it('never throws and reports positions inside the text, on any input', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary', maxLength: 300 }), (text) => {
        const scan = lexicon.scan(text);
        for (const hit of scan.hits()) {
          expect(hit.index).toBeGreaterThanOrEqual(0);
          expect(hit.index).toBeLessThan(text.length);
        }
        expect(scan.stats.chars).toBe(text.length);
      }),
    );
  });
});

describe('text statistics from the same pass', () => {
  it('counts words, lines, question marks, numbered and bullet lines', () => {
    const { stats } = lexicon.scan(
      'Why? How？\n1. first\n  2) second\n- a bullet\n• another\n3.14 is pi',
    );
    expect(stats).toMatchObject({ questionMarks: 2, lines: 6, numberedLines: 2, bulletLines: 2 });
    // Why How 1 first 2 second a bullet another 3 14 is pi
    expect(stats.words).toBe(13);
    expect(stats.numbers).toBe(4);
  });

  it('counts characters of unspaced scripts and non-ASCII letters', () => {
    const { stats } = lexicon.scan('日本語のテキスト and Привет');
    expect(stats.unboundedChars).toBe(8);
    expect(stats.nonAsciiWordChars).toBe(6);
  });

  it('gives zeros for an empty text', () => {
    expect(lexicon.scan('').stats).toMatchObject({ chars: 0, words: 0, lines: 0 });
  });
});
