import { prebuildable, prebuilt } from '../core/prebuilt.js';
import { expandAlternatives, type Lexicon, type LexiconEntryInput } from '../text/index.js';
import { type LexiconTables, lexiconTables, restoreLexicon } from '../text/lexicon.js';
import {
  type PackedLexiconTables,
  packLexiconTables,
  unpackLexiconTables,
} from '../text/lexicon-pack.js';
import { injectionFoldTable } from './fold.js';
import { POLICY_CUES, type PolicyCue } from './patterns/policy.js';
import { CITIES, COUNTRIES, STATES, TOPICS } from './patterns/topics.js';

/**
 * The lexicon of system prompts and of scope checks: the cues that say what a prompt protects or
 * restricts (`patterns/policy.ts`), the topics, the cities and the regions (`patterns/topics.ts`), compiled
 * once per process (on the first system prompt) with the detector's fold table, with per-entry
 * tables read by entry id.
 */

/** The cue names, by index. */
export const CUES: readonly PolicyCue[] = Object.keys(POLICY_CUES) as PolicyCue[];
/** Place levels: a city lies in a state, which lies in a country. */
export const CITY = 0;
export const STATE = 1;
export const COUNTRY = 2;

/** The topic names, by index (their bit is `1 << index`). */
export const TOPIC_NAMES: readonly string[] = Object.keys(TOPICS);

/** The compiled lexicon and what each entry is. */
export interface PolicyLexicon {
  readonly lexicon: Lexicon;
  /** Per entry: its cue's index in {@link CUES}, or -1. */
  readonly cue: Int8Array;
  /** Per entry: its topic's index in {@link TOPIC_NAMES}, or -1. */
  readonly topic: Int8Array;
  /** Per entry: its place (row of `PLACES`), or -1. */
  readonly place: Int16Array;
  /** Each place's name (its first alternative), by row. */
  readonly placeNames: readonly string[];
  /** Per place: its level, {@link CITY}, {@link STATE} or {@link COUNTRY}. */
  readonly placeLevel: Uint8Array;
  /** Bits of the topics that can be about a place (a city guide covers its food). */
  readonly localTopics: number;
}

let compiled: PolicyLexicon | undefined;

/** The policy lexicon, loaded on first use (see {@link loadPolicyLexicon}). */
export function policyLexicon(): PolicyLexicon {
  compiled ??= loadPolicyLexicon();
  return compiled;
}

/**
 * @internal The policy lexicon the build stored ahead (see `core/prebuilt.ts`), or compiled here
 * when there is none (run from source): compiling it takes tens of milliseconds. Not cached.
 */
export function loadPolicyLexicon(): PolicyLexicon {
  return restore(prebuilt<StoredPolicyLexicon>(PREBUILT, '')) ?? compile().compiled;
}

const PREBUILT = 'policy-lexicon';
prebuildable(PREBUILT, () => {
  const { compiled: policy, tables } = compile();
  const { lexicon: _, ...perEntry } = policy;
  const stored: StoredPolicyLexicon = { ...perEntry, tables: packLexiconTables(tables) };
  return { input: '', value: stored };
});

/** The policy lexicon as the build stores it: the lexicon's tables packed in columns. */
interface StoredPolicyLexicon extends Omit<PolicyLexicon, 'lexicon'> {
  readonly tables: PackedLexiconTables;
}

function restore(stored: StoredPolicyLexicon | undefined): PolicyLexicon | undefined {
  if (stored === undefined) return undefined;
  const { tables, ...perEntry } = stored;
  const lexicon = restoreLexicon(unpackLexiconTables(tables), { fold: injectionFoldTable() });
  return { lexicon, ...perEntry };
}

interface Source {
  readonly cue?: number;
  readonly topic?: number;
  readonly place?: number;
}

/** Compiles the lexicon; its tables too, for the build to store. */
function compile(): { compiled: PolicyLexicon; tables: LexiconTables } {
  if (TOPIC_NAMES.length > 31) throw new RangeError('at most 31 topics: they are stored as bits');
  const spec: Record<string, LexiconEntryInput[]> = {};
  const sources: Source[] = [];
  const category = (name: string, source: Source, patterns: readonly string[]) => {
    const phrases = new Set<string>();
    for (const pattern of patterns)
      for (const phrase of expandAlternatives(pattern)) phrases.add(phrase);
    spec[name] = [...phrases];
    sources.push(source);
  };
  CUES.forEach((cue, index) => {
    category(
      cue,
      { cue: index },
      POLICY_CUES[cue].map(([pattern]) => pattern),
    );
  });
  TOPIC_NAMES.forEach((name, index) => {
    category(
      `topic.${name}`,
      { topic: index },
      TOPICS[name]!.rows.map(([pattern]) => pattern),
    );
  });
  const placeNames: string[] = [];
  const levels = [
    ...CITIES.map(() => CITY),
    ...STATES.map(() => STATE),
    ...COUNTRIES.map(() => COUNTRY),
  ];
  [...CITIES, ...STATES, ...COUNTRIES].forEach(([pattern], row) => {
    placeNames.push(expandAlternatives(pattern)[0]!);
    category(`place.${row}`, { place: row }, [pattern]);
  });
  const placeLevel = Uint8Array.from(levels);
  const fold = injectionFoldTable();
  const tables = lexiconTables(spec, fold);
  const lexicon = restoreLexicon(tables, { fold });
  const count = lexicon.entries.length;
  const cue = new Int8Array(count).fill(-1);
  const topic = new Int8Array(count).fill(-1);
  const place = new Int16Array(count).fill(-1);
  for (const entry of lexicon.entries) {
    const source = sources[entry.categoryIndex]!;
    if (source.cue !== undefined) cue[entry.id] = source.cue;
    if (source.topic !== undefined) topic[entry.id] = source.topic;
    if (source.place !== undefined) place[entry.id] = source.place;
  }
  let localTopics = 0;
  TOPIC_NAMES.forEach((name, index) => {
    if (TOPICS[name]!.local) localTopics |= 1 << index;
  });
  const compiled = { lexicon, cue, topic, place, placeNames, placeLevel, localTopics };
  return { compiled, tables };
}
