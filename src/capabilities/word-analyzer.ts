import { stemmer } from 'stemmer';
import { CONCEPT_GROUPS } from './concepts.js';
import { FNV_OFFSET, fnv, KIND_WORD, MIX_SEED, mix } from './feature-hash.js';
import { WORD_FORMS } from './word-forms.js';

/**
 * What the local pre-matcher knows about one English word: its stem (irregular forms first, then
 * the Porter stemmer, so "bought", "buys" and "buying" all become "buy"), the concepts it evokes
 * (`concepts.ts`: "purchase" evokes "buy"), and the kind of entity it names on its own (a number,
 * a time, a date, an amount of money). Results are cached per word: a task reads a few dozen
 * words, and most of them recur from task to task.
 */

/** Kinds of entity a word can name on its own; 0 is none. */
export const ENTITY_NONE = 0;
export const ENTITY_NUMBER = 1;
export const ENTITY_TIME = 2;
export const ENTITY_DATE = 3;
export const ENTITY_MONEY = 4;
/** A capitalised word inside a sentence ("Bob", "Paris"): decided by the reader, not here. */
export const ENTITY_NAME = 5;
/** An e-mail address or a web address: decided by the reader (from `@`, `://`, `www`). */
export const ENTITY_ADDRESS = 6;

/** Names of the entity kinds, for explanations. */
export const ENTITY_NAMES: readonly string[] = [
  '',
  'a number',
  'a time',
  'a date',
  'an amount of money',
  'a name',
  'an address',
];

/** The analysis of one word. */
export interface WordInfo {
  /** The stem that stands for the word in features ("buy" for "bought"). */
  readonly stem: string;
  /** Two independent hashes of the stem (the word's feature key). */
  readonly first: number;
  readonly second: number;
  /** Index of the stem among those that start or continue a concept phrase, else -1. */
  readonly phraseId: number;
  /** Concepts (indexes into {@link conceptHeads}) the word evokes on its own. */
  readonly concepts: Int32Array;
  /** The kind of entity the word names on its own (ENTITY_*). */
  readonly entity: number;
  /**
   * A function word (article, pronoun, auxiliary, preposition, conjunction): it carries no
   * object of its own, so a verb and its object are paired across it ("send *an* email").
   */
  readonly functionWord: boolean;
}

const FUNCTION_WORDS = new Set(
  (
    'a an the this that these those my your our their his her its me you we us they them him it i ' +
    'be am is are was were been being do does did have has had will would shall should can could ' +
    'may might must to of in on at for with from by about into onto over under up out off as than ' +
    'and or but so if then please some any all s t re ll ve d m just also'
  ).split(' '),
);

const NUMBER_WORDS = new Set(
  (
    'zero one two three four five six seven eight nine ten eleven twelve thirteen fourteen ' +
    'fifteen sixteen seventeen eighteen nineteen twenty thirty forty fifty sixty seventy eighty ' +
    'ninety hundred thousand million billion dozen half first second third fourth fifth sixth ' +
    'seventh eighth ninth tenth eleventh twelfth'
  ).split(' '),
);
const TIME_WORDS = new Set('am pm noon midnight oclock'.split(' '));
// "may" and "sun" are left out: far more often a verb and a star than a month and a day.
const DATE_WORDS = new Set(
  (
    'today tomorrow tonight yesterday weekend monday tuesday wednesday thursday friday saturday ' +
    'sunday january february march april june july august september october november december ' +
    'jan feb mar apr jun jul aug sep sept oct nov dec mon tue tues wed thu thur thurs fri sat'
  ).split(' '),
);
const MONEY_WORDS = new Set(
  'dollar dollars buck bucks cent cents euro euros pound pounds yen usd eur gbp'.split(' '),
);

/** Most words cached before the cache starts again (a bound on memory for hostile input). */
const CACHE_LIMIT = 50_000;
/** Multiplier of the phrase keys: more than the number of distinct stems in the concepts. */
const PHRASE_BASE = 1 << 16;

interface ConceptTable {
  readonly heads: readonly string[];
  /** Concepts of single-word members, by stem. */
  readonly single: ReadonlyMap<string, Int32Array>;
  /** Stems that occur in phrases, with their phrase ids. */
  readonly phraseIds: ReadonlyMap<string, number>;
  /** Concepts of phrase members, by the key of their phrase ids. */
  readonly phrases: ReadonlyMap<number, Int32Array>;
}

let table: ConceptTable | undefined;
const cache = new Map<string, WordInfo>();

/**
 * Words of four letters or more whose Porter stem would join them to another word ("news" →
 * "new", "series" → "seri" like "serious"): kept as they are.
 */
const KEEP_AS_IS = new Set(
  'news series species means lens always perhaps across analysis basis crisis bias gps ios'.split(
    ' ',
  ),
);

/**
 * The stem of a folded lower-case word: its lemma for irregular forms, else its Porter stem.
 * Words of three letters or fewer are kept ("one" is not "on").
 */
export function stemOf(word: string): string {
  // Own keys only: "constructor" is a word, not Object.prototype's.
  const lemma = Object.hasOwn(WORD_FORMS, word) ? WORD_FORMS[word]! : word;
  return lemma.length > 3 && !KEEP_AS_IS.has(lemma) ? stemmer(lemma) : lemma;
}

/** The analysis of a folded lower-case word (letters and digits only). Cached. */
export function analyzeWord(word: string): WordInfo {
  let info = cache.get(word);
  if (info === undefined) {
    if (cache.size >= CACHE_LIMIT) cache.clear();
    info = analyze(word);
    cache.set(word, info);
  }
  return info;
}

/** The concepts of a phrase of two or three words, by their phrase ids (-1 ends the phrase). */
export function phraseConcepts(first: number, second: number, third = -1): Int32Array | undefined {
  if (first < 0 || second < 0) return undefined;
  const key = third < 0 ? first * PHRASE_BASE + second : phraseKey([first, second, third]);
  return concepts().phrases.get(key);
}

/** The head word of each concept ("buy" for the group of "purchase"), for explanations. */
export function conceptHeads(): readonly string[] {
  return concepts().heads;
}

function analyze(word: string): WordInfo {
  const stem = stemOf(word);
  const { single, phraseIds } = concepts();
  // The same key as the feature extractor gives a word of these letters.
  let first = FNV_OFFSET ^ KIND_WORD;
  let second = MIX_SEED ^ KIND_WORD;
  for (let i = 0; i < stem.length; i++) {
    first = fnv(first, stem.charCodeAt(i));
    second = mix(second, stem.charCodeAt(i));
  }
  return {
    stem,
    first,
    second,
    phraseId: phraseIds.get(stem) ?? -1,
    concepts: single.get(stem) ?? NONE,
    entity: entityOf(word),
    functionWord: FUNCTION_WORDS.has(word),
  };
}

function entityOf(word: string): number {
  const code = word.charCodeAt(0);
  if (code >= 0x30 && code <= 0x39) {
    if (/^\d+$/.test(word)) return ENTITY_NUMBER;
    if (/^\d+(?:st|nd|rd|th)$/.test(word)) return ENTITY_NUMBER;
    if (/^\d+(?:am|pm|h)$/.test(word)) return ENTITY_TIME;
    if (/^\d+(?:k|m|bn)$/.test(word)) return ENTITY_MONEY;
    return ENTITY_NONE;
  }
  if (NUMBER_WORDS.has(word)) return ENTITY_NUMBER;
  if (TIME_WORDS.has(word)) return ENTITY_TIME;
  if (DATE_WORDS.has(word)) return ENTITY_DATE;
  if (MONEY_WORDS.has(word)) return ENTITY_MONEY;
  if (word === 'www' || word === 'http' || word === 'https') return ENTITY_ADDRESS;
  return ENTITY_NONE;
}

const NONE = new Int32Array(0);

function concepts(): ConceptTable {
  table ??= compileConcepts(CONCEPT_GROUPS);
  return table;
}

/** Compiles the concept groups: members are analysed like text, so they match its stems. */
function compileConcepts(groups: readonly string[]): ConceptTable {
  const heads: string[] = [];
  const single = new Map<string, number[]>();
  const phraseIds = new Map<string, number>();
  const phrases = new Map<number, number[]>();
  const add = <K>(map: Map<K, number[]>, key: K, concept: number) => {
    const list = map.get(key);
    if (list === undefined) map.set(key, [concept]);
    else if (!list.includes(concept)) list.push(concept);
  };
  for (const line of groups) {
    const colon = line.indexOf(':');
    const head = line.slice(0, colon).trim();
    const members = [head, ...line.slice(colon + 1).split(',')];
    const concept = heads.length;
    heads.push(head);
    for (const member of members) {
      const stems = (member.toLowerCase().match(/[a-z0-9]+/g) ?? []).map(stemOf);
      if (stems.length === 1) add(single, stems[0]!, concept);
      else if (stems.length <= 3) {
        const ids = stems.map((stem) => {
          let id = phraseIds.get(stem);
          if (id === undefined) {
            id = phraseIds.size + 1;
            phraseIds.set(stem, id);
          }
          return id;
        });
        add(phrases, phraseKey(ids), concept);
      }
    }
  }
  const frozen = <K>(map: Map<K, number[]>) =>
    new Map([...map].map(([key, list]) => [key, Int32Array.from(list)]));
  return { heads, single: frozen(single), phraseIds, phrases: frozen(phrases) };
}

function phraseKey(ids: readonly number[]): number {
  return ids.reduce((key, id) => key * PHRASE_BASE + id, 0);
}
