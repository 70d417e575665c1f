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
  readonly shared?: string;
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

interface Found {
  readonly matched: string;
  readonly part: number;
}

interface CapabilityWords {
  readonly stems: ReadonlyMap<string, Found>;
  readonly concepts: ReadonlyMap<number, Found>;
  readonly entities: ReadonlyMap<number, Found>;
}

/** Most pieces of evidence reported per capability. */
export const MAX_EVIDENCE = 4;
const SOURCE_CHARS = 60;

/** The words of every capability, indexed for {@link evidenceFor}. */
export class EvidenceIndex {
  readonly #texts: readonly EvidenceTexts[];
  readonly #words: readonly CapabilityWords[];
  readonly #extractor: FeatureExtractor;
  readonly #table = new FeatureTable(64);
  /** Stems that most capabilities' texts have ("the", "my"): no evidence of anything. */
  readonly #common: ReadonlySet<string>;

  constructor(texts: readonly EvidenceTexts[], features?: FeatureOptions) {
    this.#texts = texts;
    this.#extractor = new FeatureExtractor(features);
    const share = new Map<string, number>();
    this.#words = texts.map(({ examples, guide }) => {
      const stems = new Map<string, Found>();
      const concepts = new Map<number, Found>();
      const entities = new Map<number, Found>();
      // Examples first: a word is shown in an example rather than in the description.
      [...examples, guide].forEach((text, i) => {
        const part = i < examples.length ? i : -1;
        for (const word of this.#read(text)) {
          if (!stems.has(word.stem)) stems.set(word.stem, { matched: word.text, part });
          for (const concept of word.concepts) {
            if (!concepts.has(concept)) concepts.set(concept, { matched: word.text, part });
          }
          if (word.entity !== ENTITY_NONE && !entities.has(word.entity)) {
            entities.set(word.entity, { matched: word.text, part });
          }
        }
      });
      for (const stem of stems.keys()) share.set(stem, (share.get(stem) ?? 0) + 1);
      return { stems, concepts, entities };
    });
    const half = Math.max(2, texts.length / 2);
    this.#common = new Set([...share].filter(([, n]) => n > half).map(([stem]) => stem));
  }

  /** The words of `task` as the pre-matcher reads them. */
  read(task: string): ReadWord[] {
    return this.#read(task);
  }

  /** What of `words` (a task, read) capability `i` has, strongest first, at most `max`. */
  evidenceFor(i: number, words: readonly ReadWord[], max = MAX_EVIDENCE): Evidence[] {
    const own = this.#words[i]!;
    const texts = this.#texts[i]!;
    const out: Evidence[] = [];
    const seen = new Set<string>();
    const heads = conceptHeads();
    const source = (part: number) =>
      part < 0 ? 'its description' : quote(texts.examples[part] ?? '');
    // Exact words and forms first, then shared meanings, then entities.
    for (const pass of ['word', 'concept', 'entity'] as const) {
      for (const word of words) {
        if (out.length >= max) return out;
        if (word.functionWord || seen.has(word.stem) || this.#common.has(word.stem)) continue;
        let found: Found | undefined;
        let kind: EvidenceKind = pass;
        let shared: string | undefined;
        if (pass === 'word') {
          found = own.stems.get(word.stem);
          if (found && found.matched !== word.text) kind = 'form';
        } else if (pass === 'concept') {
          for (const concept of word.concepts) {
            found = own.concepts.get(concept);
            if (found) {
              shared = heads[concept];
              break;
            }
          }
        } else if (word.entity !== ENTITY_NONE) {
          found = own.entities.get(word.entity);
          shared = ENTITY_NAMES[word.entity];
        }
        if (found === undefined) continue;
        seen.add(word.stem);
        out.push({
          word: word.text,
          matched: found.matched,
          kind,
          ...(shared === undefined ? {} : { shared }),
          example: found.part,
          source: source(found.part),
        });
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
  const bySource = new Map<string, string[]>();
  for (const item of evidence) {
    const words = bySource.get(item.source) ?? [];
    bySource.set(item.source, words);
    words.push(describeWord(item));
  }
  return [...bySource]
    .map(([source, words]) =>
      source === 'its description'
        ? `${words.join(', ')} in its description`
        : `${words.join(', ')} as in ${source}`,
    )
    .join('; ');
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
