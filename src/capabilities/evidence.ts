import { FeatureExtractor, type FeatureOptions, FeatureTable, type ReadWord } from './features.js';
import { conceptHeads, ENTITY_NAMES, ENTITY_NONE } from './word-analyzer.js';

/**
 * Why the pre-matcher thinks a task resembles a capability, word by word: which of the task's
 * words met which word of which example (the same word, another form of it, a word of the same
 * meaning, or an entity of the same kind). Built only when a reason is read: matching never pays
 * for it.
 */

/** How a word of the task met a word of the capability. */
export type EvidenceKind = 'word' | 'form' | 'concept' | 'entity';

/** One word of the task and what it met. */
export interface Evidence {
  /** The task's word (folded). */
  readonly word: string;
  /** The word it met in the capability's examples or own text. */
  readonly matched: string;
  readonly kind: EvidenceKind;
  /** What they share: the concept ("buy") or the kind of entity ("a name"). */
  readonly shared?: string | undefined;
  /** The example the word is in, or -1 for the capability's own words (name, description…). */
  readonly example: number;
  /** That example's text, or "its description". */
  readonly source: string;
}

/** The texts of one capability: its positive examples, and its own words. */
export interface EvidenceTexts {
  readonly examples: readonly string[];
  readonly guide: string;
}

/** Where a capability has a word, a concept or an entity: the first word that carries it. */
interface Posting {
  readonly capability: number;
  readonly matched: string;
  /** The example it is in, -1 for the capability's own words. */
  readonly part: number;
}

/** Most pieces of evidence reported per capability. */
export const MAX_EVIDENCE = 4;
const DESCRIPTION = 'its description';
/** An n-gram size no word reaches: the evidence reader needs words only. */
const NO_GRAMS = 1_000;
const SOURCE_CHARS = 60;
const NOTHING: readonly Posting[] = [];

/**
 * The words of every capability, indexed by stem, concept and entity (each with the
 * capabilities that have it), so that the evidence of a task for every capability is found in one
 * pass over the task's words.
 */
export class EvidenceIndex {
  /** Each capability's examples, quoted for reasons. */
  readonly #sources: readonly (readonly string[])[];
  readonly #stems = new Map<string, Posting[]>();
  readonly #concepts = new Map<number, Posting[]>();
  readonly #entities = new Map<number, Posting[]>();
  readonly #extractor: FeatureExtractor;
  readonly #table = new FeatureTable(64);
  /** Stems that many capabilities' texts have ("the", "my", "what"): no evidence of anything. */
  readonly #common: ReadonlySet<string>;

  constructor(texts: readonly EvidenceTexts[], features?: FeatureOptions) {
    this.#sources = texts.map(({ examples }) => examples.map(quote));
    // Only words are needed here: n-grams longer than any word are never produced.
    this.#extractor = new FeatureExtractor({ ...features, minGram: NO_GRAMS, maxGram: NO_GRAMS });
    const post = <K>(map: Map<K, Posting[]>, key: K, posting: Posting) => {
      const list = map.get(key);
      if (list === undefined) map.set(key, [posting]);
      // First occurrence per capability: examples come before the capability's own words.
      else if (list[list.length - 1]!.capability !== posting.capability) list.push(posting);
    };
    texts.forEach(({ examples, guide }, capability) => {
      [...examples, guide].forEach((text, i) => {
        const part = i < examples.length ? i : -1;
        for (const word of this.#read(text)) {
          const posting = { capability, matched: word.text, part };
          post(this.#stems, word.stem, posting);
          for (const concept of word.concepts) post(this.#concepts, concept, posting);
          if (word.entity !== ENTITY_NONE) post(this.#entities, word.entity, posting);
        }
      });
    });
    // More than a fifth of the capabilities (in a registry of up to ten, more than two).
    const most = Math.max(2, texts.length / 5);
    this.#common = new Set(
      [...this.#stems].filter(([, list]) => list.length > most).map(([stem]) => stem),
    );
  }

  /** The words of `task` as the pre-matcher reads them. */
  read(task: string): ReadWord[] {
    return this.#read(task);
  }

  /**
   * The evidence of the task's `words` for every capability that has some, strongest first
   * (exact words and forms, then shared meanings, then entities), at most `max` each.
   */
  evidence(words: readonly ReadWord[], max = MAX_EVIDENCE): Map<number, Evidence[]> {
    const out = new Map<number, Evidence[]>();
    const seen = new Map<number, string[]>();
    const heads = conceptHeads();
    const add = (posting: Posting, word: ReadWord, kind: EvidenceKind, shared?: string) => {
      const { capability } = posting;
      const list = out.get(capability) ?? [];
      const stems = seen.get(capability) ?? [];
      if (list.length >= max || stems.includes(word.stem)) return;
      if (list.length === 0) {
        out.set(capability, list);
        seen.set(capability, stems);
      }
      stems.push(word.stem);
      list.push({
        word: word.text,
        matched: posting.matched,
        kind,
        shared,
        example: posting.part,
        source: posting.part < 0 ? DESCRIPTION : this.#sources[capability]![posting.part]!,
      });
    };
    const useful = words.filter((w) => !w.functionWord && !this.#common.has(w.stem));
    for (const word of useful) {
      for (const posting of this.#stems.get(word.stem) ?? NOTHING) {
        add(posting, word, posting.matched === word.text ? 'word' : 'form');
      }
    }
    for (const word of useful) {
      for (const concept of word.concepts) {
        for (const posting of this.#concepts.get(concept) ?? NOTHING) {
          add(posting, word, 'concept', heads[concept]);
        }
      }
    }
    for (const word of useful) {
      if (word.entity === ENTITY_NONE) continue;
      for (const posting of this.#entities.get(word.entity) ?? NOTHING) {
        add(posting, word, 'entity', ENTITY_NAMES[word.entity]);
      }
    }
    return out;
  }

  #read(text: string): ReadWord[] {
    const words: ReadWord[] = [];
    this.#extractor.extract(text, this.#table, words);
    return words;
  }
}

/**
 * The evidence as a phrase for a reason: `"email", "bob" as in "Send an email to Bob…"; "rain"
 * ~ "forecast" (weather) in its description`.
 */
export function describeEvidence(evidence: readonly Evidence[]): string {
  let out = '';
  const done: boolean[] = [];
  for (let i = 0; i < evidence.length; i++) {
    if (done[i]) continue;
    const source = evidence[i]!.source;
    let words = describeWord(evidence[i]!);
    for (let j = i + 1; j < evidence.length; j++) {
      if (evidence[j]!.source !== source) continue;
      words += `, ${describeWord(evidence[j]!)}`;
      done[j] = true;
    }
    if (out !== '') out += '; ';
    out += source === DESCRIPTION ? `${words} in its description` : `${words} as in ${source}`;
  }
  return out;
}

function describeWord(item: Evidence): string {
  switch (item.kind) {
    case 'word':
      return `"${item.word}"`;
    case 'form':
      return `"${item.word}" ~ "${item.matched}"`;
    case 'concept':
      return item.shared === item.matched
        ? `"${item.word}" ~ "${item.matched}"`
        : `"${item.word}" ~ "${item.matched}" (${item.shared})`;
    default:
      return `"${item.word}" (${item.shared}, like "${item.matched}")`;
  }
}

function quote(text: string): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return `"${flat.length > SOURCE_CHARS ? `${flat.slice(0, SOURCE_CHARS - 1)}…` : flat}"`;
}
