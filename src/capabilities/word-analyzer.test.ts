import { describe, expect, it } from 'vitest';
import { FeatureExtractor, FeatureTable, type ReadWord } from './features.js';
import {
  analyzeWord,
  conceptHeads,
  ENTITY_DATE,
  ENTITY_MONEY,
  ENTITY_NAME,
  ENTITY_NONE,
  ENTITY_NUMBER,
  ENTITY_TIME,
  stemOf,
} from './word-analyzer.js';

const heads = conceptHeads();
const conceptsOf = (word: string) => [...analyzeWord(word).concepts].map((c) => heads[c]);

function read(text: string): ReadWord[] {
  const words: ReadWord[] = [];
  new FeatureExtractor().extract(text, new FeatureTable(16), words);
  return words;
}

describe('stemOf', () => {
  it('joins the forms of a word', () => {
    expect(new Set(['book', 'books', 'booked', 'booking'].map(stemOf)).size).toBe(1);
    expect(stemOf('bought')).toBe(stemOf('buy'));
    expect(stemOf('children')).toBe(stemOf('child'));
    expect(stemOf('lost')).toBe(stemOf('losing'));
  });

  it('keeps short words and words a stem would confuse', () => {
    expect(stemOf('one')).toBe('one'); // Porter would make it "on"
    expect(stemOf('news')).not.toBe(stemOf('new'));
  });

  it('reads words that name properties of plain objects as words', () => {
    for (const word of ['constructor', 'tostring', 'valueof', 'hasownproperty', 'proto']) {
      expect(typeof stemOf(word)).toBe('string');
      expect(typeof analyzeWord(word).stem).toBe('string');
    }
    expect(stemOf('constructor')).toBe(stemOf('constructors'));
  });
});

describe('analyzeWord', () => {
  it('knows the concepts a word evokes', () => {
    expect(conceptsOf('purchase')).toContain('buy');
    expect(conceptsOf('cellphone')).toContain('phone');
    expect(conceptsOf('forecast')).toContain('weather');
    expect(conceptsOf('xylophonist')).toEqual([]);
  });

  it('knows the entities a word names on its own', () => {
    expect(analyzeWord('42').entity).toBe(ENTITY_NUMBER);
    expect(analyzeWord('4th').entity).toBe(ENTITY_NUMBER);
    expect(analyzeWord('3pm').entity).toBe(ENTITY_TIME);
    expect(analyzeWord('friday').entity).toBe(ENTITY_DATE);
    expect(analyzeWord('dollars').entity).toBe(ENTITY_MONEY);
    expect(analyzeWord('may').entity).toBe(ENTITY_NONE); // a verb far more often than a month
  });
});

describe('reading a text', () => {
  it('splits contractions and reads their halves', () => {
    expect(read("I don't know").map((w) => w.stem)).toEqual(['i', 'do', 'not', 'know']);
  });

  it('finds phrases of a concept across words', () => {
    const words = read('I want a day off next week');
    expect(words.flatMap((w) => w.concepts.map((c) => heads[c]))).toContain('vacation');
  });

  it('takes a capitalised word inside a sentence for a name, not the first word or an acronym', () => {
    const entities = (text: string) => read(text).map((w) => w.entity);
    expect(entities('Email Bob today')).toEqual([ENTITY_NONE, ENTITY_NAME, ENTITY_DATE]);
    expect(entities('Check my PTO')).toEqual([ENTITY_NONE, ENTITY_NONE, ENTITY_NONE]);
    expect(entities('Hi. Bob here')).toEqual([ENTITY_NONE, ENTITY_NONE, ENTITY_NONE]);
  });

  it('reads a number after a currency sign as money', () => {
    expect(read('send $50 to Ann').map((w) => w.entity)).toEqual([
      ENTITY_NONE,
      ENTITY_MONEY,
      ENTITY_NONE,
      ENTITY_NAME,
    ]);
  });

  it('leaves words of other scripts as they are', () => {
    expect(read('Погода в Москве').map((w) => w.stem)).toEqual(['погода', 'в', 'москве']);
  });
});
