import { ConfigError, type ConfigIssue } from '../core/errors.js';
import {
  compileLexicon,
  extendFoldTable,
  type FoldTable,
  foldString,
  type Lexicon,
  type LexiconEntryInput,
} from '../text/index.js';
import {
  ARABIC_FOLDS,
  KEYWORD_DIMENSIONS,
  KEYWORD_PACKS,
  type KeywordDimension,
  type KeywordLanguage,
} from './keywords/index.js';
import type { TierOptions } from './options.js';

/**
 * The one lexicon of the tier scorer: a category per keyword dimension, built from the chosen
 * language packs and the user's keywords, compiled once. One scan of the prompt feeds all thirteen
 * keyword dimensions and the text statistics (tokens, question marks, numbered lines).
 *
 * Keywords of one dimension often overlap, within a language (`fiction`, `science fiction`) and
 * across languages (English `imagine`, French `imagine*`). Counted naively, one word of the prompt
 * would count twice. So each entry weighs only what it adds to the entries it always contains: an
 * entry that is always matched together with others keeps its weight minus theirs, and is dropped
 * when that leaves nothing. Whatever the lists, a span of text counts once per dimension, at the
 * weight of its most specific entry.
 */

/** A compiled tier lexicon with the category index of each dimension. */
export interface TierLexicon {
  readonly lexicon: Lexicon;
  readonly index: Readonly<Record<KeywordDimension, number>>;
  /** The category of the trained weights' learned words, -1 without any. */
  readonly learned: number;
}

/** The lexicon category of learned words (trained weights). */
export const LEARNED_CATEGORY = 'learned';

let foldTable: FoldTable | undefined;

/** The default fold table plus the Arabic folds (alef forms, alef maqsura, taa marbuta). */
export function tierFoldTable(): FoldTable {
  foldTable ??= extendFoldTable(ARABIC_FOLDS);
  return foldTable;
}

/** Builds the lexicon for validated options. Throws a `ConfigError` for a malformed keyword. */
export function buildTierLexicon(
  options: TierOptions,
  source = 'tier router options',
): TierLexicon {
  const fold = tierFoldTable();
  const issues: ConfigIssue[] = [];
  const spec: Record<string, LexiconEntryInput[]> = {};
  for (const dimension of KEYWORD_DIMENSIONS) {
    const config = options.dimensions[dimension];
    const path = `/dimensions/${dimension}`;
    const own = config.keywords ?? builtIn(dimension, options.languages as KeywordLanguage[]);
    checkEntries(config.keywords ?? [], `${path}/keywords`, issues);
    checkEntries(config.extraKeywords, `${path}/extraKeywords`, issues);
    spec[dimension] = [...own, ...config.extraKeywords];
  }
  if (issues.length > 0) throw new ConfigError(source, issues);
  for (const dimension of KEYWORD_DIMENSIONS) {
    spec[dimension] = withoutOverlaps(spec[dimension] ?? [], fold);
  }
  // Learned words are whole words, each its own entry: no overlaps to remove.
  const words = Object.entries(options.weights?.learned?.words ?? {});
  if (words.length > 0) {
    spec[LEARNED_CATEGORY] = words.map(([phrase, weight]) => ({ phrase, weight }));
  }
  const lexicon = compileLexicon(spec, { fold });
  const index = Object.fromEntries(
    KEYWORD_DIMENSIONS.map((dimension) => [dimension, lexicon.categoryIndex(dimension)]),
  ) as Record<KeywordDimension, number>;
  const learned = words.length > 0 ? lexicon.categoryIndex(LEARNED_CATEGORY) : -1;
  return { lexicon, index, learned };
}

function builtIn(dimension: KeywordDimension, languages: readonly KeywordLanguage[]) {
  return languages.flatMap((language) => KEYWORD_PACKS[language][dimension] ?? []);
}

interface Candidate {
  phrase: string;
  weight: number;
  label?: string;
  /** The phrase without its stars. */
  literal: string;
  leftOpen: boolean;
  rightOpen: boolean;
}

function checkEntries(entries: readonly LexiconEntryInput[], path: string, issues: ConfigIssue[]) {
  entries.forEach((entry, i) => {
    const phrase = (typeof entry === 'string' ? entry : entry.phrase).trim();
    const inner = phrase.replace(/^\*/, '').replace(/\*$/, '');
    if (inner.length === 0) issues.push({ path: `${path}/${i}`, message: 'is empty' });
    else if (inner.includes('*')) {
      issues.push({ path: `${path}/${i}`, message: 'may have * only at its start or end' });
    }
  });
}

/**
 * Deduplicates entries (same folded phrase and stars: the highest weight stays) and gives each the
 * weight it adds to the entries it always contains (see the module comment).
 */
function withoutOverlaps(
  entries: readonly LexiconEntryInput[],
  fold: FoldTable,
): LexiconEntryInput[] {
  const byKey = new Map<string, Candidate>();
  for (const entry of entries) {
    const phrase = (typeof entry === 'string' ? entry : entry.phrase).trim();
    const weight = typeof entry === 'string' ? 1 : (entry.weight ?? 1);
    const leftOpen = phrase.startsWith('*');
    const rightOpen = phrase.length > 1 && phrase.endsWith('*');
    const literal = phrase.slice(leftOpen ? 1 : 0, rightOpen ? -1 : undefined);
    const key = `${leftOpen ? '*' : ''}${foldString(literal, fold).replace(/[\s-]+/g, ' ')}${rightOpen ? '*' : ''}`;
    const known = byKey.get(key);
    if (known && known.weight >= weight) continue;
    const label = typeof entry === 'string' ? undefined : entry.label;
    byKey.set(key, { phrase, weight, literal, leftOpen, rightOpen, ...(label ? { label } : {}) });
  }
  const candidates = [...byKey.values()];
  if (candidates.length < 2) return candidates.map(toInput);
  const lexicon = compileLexicon({ all: candidates.map((c) => c.phrase) }, { fold });
  // contained[i]: the entries always matched wherever entry i is.
  const contained = candidates.map((outer, i) => {
    const scan = lexicon.scan(outer.literal);
    const inside: number[] = [];
    for (let k = 0; k < scan.hitCount; k++) {
      const j = scan.hitEntry(k).id;
      if (j === i) continue;
      const inner = candidates[j]!;
      const at = scan.hitIndex(k);
      const touchesOpenEnd =
        (outer.rightOpen &&
          !inner.rightOpen &&
          at + inner.literal.length >= outer.literal.length) ||
        (outer.leftOpen && !inner.leftOpen && at === 0);
      if (!touchesOpenEnd) inside.push(j);
    }
    return inside;
  });
  // Fewest contained entries first, so each entry's inner entries have their final weight.
  const order = candidates
    .map((_, i) => i)
    .sort((a, b) => contained[a]!.length - contained[b]!.length);
  const effective = new Float64Array(candidates.length);
  const done = new Uint8Array(candidates.length);
  for (const i of order) {
    let weight = candidates[i]!.weight;
    for (const j of contained[i]!) {
      // Two entries that contain each other match the same texts: keep the first one done.
      if (done[j]) weight -= effective[j]!;
    }
    effective[i] = Math.max(0, weight);
    done[i] = 1;
  }
  return candidates
    .map((candidate, i) => ({ ...candidate, weight: Math.round(effective[i]! * 1e6) / 1e6 }))
    .filter((candidate) => candidate.weight > 0)
    .map(toInput);
}

function toInput(candidate: Candidate): LexiconEntryInput {
  return {
    phrase: candidate.phrase,
    weight: candidate.weight,
    ...(candidate.label ? { label: candidate.label } : {}),
  };
}
