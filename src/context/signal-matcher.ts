import { clearArray } from '../core/arrays.js';
import { prebuildable, prebuilt } from '../core/prebuilt.js';
import {
  charTables,
  foldString,
  UNBOUNDED as UNBOUNDED_CLASS,
  WORD as WORD_CLASS,
} from '../text/chars.js';
import { expandAlternatives } from '../text/expand.js';
import {
  type Lexicon,
  type LexiconScan,
  type LexiconTables,
  lexiconTables,
  restoreLexicon,
} from '../text/lexicon.js';
import {
  type PackedLexiconTables,
  packLexiconTables,
  unpackLexiconTables,
} from '../text/lexicon-pack.js';
import type { SignalSpec } from './schema.js';
import { DEFAULT_SIGNALS } from './signals.js';

/**
 * Finds which signals a question carries, in one pass of a compiled {@link Lexicon}.
 *
 * Phrases are lexicon entries. A sequence (the original design's `what does .* mean` and
 * `(on|in|from) the ([a-z]+ ){0,3}(page|…)`) is checked only when the same pass found every one
 * of its parts; its order and gaps are then checked from the positions the pass recorded, and
 * only when a part occurs more than once before the point of interest is part of the question
 * scanned again. A bounded-gap sequence is tried at the first {@link MAX_SEQUENCE_ATTEMPTS}
 * occurrences of its first part, which keeps the work linear in the question's length.
 */

// Local copies: some loaders turn imported bindings into getters, a call per character.
const WORD: number = WORD_CLASS;
const UNBOUNDED: number = UNBOUNDED_CLASS;

/** Occurrences of a bounded-gap sequence's first part that are tried before giving up. */
export const MAX_SEQUENCE_ATTEMPTS = 8;

interface CompiledSequence {
  readonly signal: number;
  /** Lexicon category of each part. */
  readonly parts: Int32Array;
  /** Most words between consecutive parts; -1 = any. */
  readonly maxGap: number;
}

/** Where a part was found: start and (estimated) end index, and the lexicon entry. */
interface Found {
  start: number;
  end: number;
  entry: number;
}

/** A compiled set of signals. Not safe for concurrent use (it reuses scan buffers): scans are sync. */
export class SignalMatcher {
  /** Signal names, in configuration order (the index of a flag). */
  readonly names: readonly string[];
  readonly #lexicon: Lexicon;
  readonly #scan: LexiconScan;
  readonly #rescan: LexiconScan;
  /** The non-ASCII phrases (absent when there are none), with their own scan. */
  readonly #wide: { readonly lexicon: Lexicon; readonly scan: LexiconScan } | undefined;
  /** Lexicon category of each signal's phrases (the same index in both lexicons). */
  readonly #phraseCategory: Int32Array;
  readonly #sequences: readonly CompiledSequence[];
  /** Length of each lexicon entry's literal text, to estimate where a match ends. */
  readonly #entryLength: Int32Array;
  readonly #found: Found = { start: -1, end: -1, entry: -1 };

  constructor(signals: Readonly<Record<string, SignalSpec>>) {
    this.names = Object.keys(signals);
    const sequenceSpecs: { signal: number; categories: string[]; maxGap: number }[] = [];
    this.names.forEach((name, signal) => {
      signals[name]!.sequences.forEach((sequence, j) => {
        const categories = sequence.parts.map((_, k) => sequenceCategory(name, j, k));
        sequenceSpecs.push({ signal, categories, maxGap: sequence.maxGap ?? -1 });
      });
    });
    const stored = prebuilt<StoredSignalTables>(PREBUILT, signalsInput(signals));
    const tables = stored ? unpackSignalTables(stored) : signalTables(signals);
    this.#lexicon = restoreLexicon(tables.main);
    const lexicon = this.#lexicon;
    if (tables.wide) {
      const wideLexicon = restoreLexicon(tables.wide);
      this.#wide = { lexicon: wideLexicon, scan: wideLexicon.scan('') };
    }
    this.#scan = lexicon.scan('');
    this.#rescan = lexicon.scan('');
    this.#phraseCategory = Int32Array.from(this.names, (name) => lexicon.categoryIndex(name));
    this.#sequences = sequenceSpecs.map(({ signal, categories, maxGap }) => ({
      signal,
      parts: Int32Array.from(categories, (category) => lexicon.categoryIndex(category)),
      maxGap,
    }));
    this.#entryLength = Int32Array.from(
      lexicon.entries,
      (entry) => entry.phrase.replace(/^\*|\*$/g, '').length,
    );
  }

  /**
   * Sets `flags[i]` to 1 for every signal found in `text[0, end)` and 0 for the others; returns
   * how many were found. Allocates nothing.
   */
  match(text: string, end: number, flags: Uint8Array): number {
    const scan = this.#lexicon.scan(text, this.#scan, 0, end);
    const wide = this.#wideScan(text, end);
    let count = 0;
    for (let i = 0; i < this.#phraseCategory.length; i++) {
      const found =
        scan.distinct(this.#phraseCategory[i]!) > 0 || (wide !== undefined && wide.distinct(i) > 0)
          ? 1
          : 0;
      flags[i] = found;
      count += found;
    }
    for (const sequence of this.#sequences) {
      if (flags[sequence.signal] === 1 || !this.#allPartsPresent(sequence)) continue;
      if (this.#sequenceFound(sequence, text, end)) {
        flags[sequence.signal] = 1;
        count++;
      }
    }
    return count;
  }

  /**
   * What made each signal fire in `text[0, end)`: the phrases found (a sequence shows as its parts
   * joined by `…`). For explanations; allocates.
   */
  evidence(text: string, end: number): Record<string, string[]> {
    const flags = new Uint8Array(this.names.length);
    this.match(text, end, flags);
    const scan = this.#scan;
    const wide = this.#wideScan(text, end);
    const out: Record<string, string[]> = {};
    this.names.forEach((name, signal) => {
      if (flags[signal] !== 1) return;
      const labels = scan.labels(this.#phraseCategory[signal]!);
      if (wide) labels.push(...wide.labels(signal));
      for (const sequence of this.#sequences) {
        if (sequence.signal !== signal || !this.#allPartsPresent(sequence)) continue;
        const entries: number[] = [];
        if (!this.#sequenceFound(sequence, text, end, entries)) continue;
        const { entries: all } = this.#lexicon;
        labels.push(entries.map((id) => all[id]!.label).join(' … '));
      }
      out[name] = labels;
    });
    return out;
  }

  /** Scans for the non-ASCII phrases when the main scan saw letters outside ASCII. */
  #wideScan(text: string, end: number): LexiconScan | undefined {
    const wide = this.#wide;
    const { stats } = this.#scan;
    if (wide === undefined || stats.nonAsciiWordChars + stats.unboundedChars === 0)
      return undefined;
    return wide.lexicon.scan(text, wide.scan, 0, end);
  }

  #allPartsPresent(sequence: CompiledSequence): boolean {
    for (const part of sequence.parts) if (this.#scan.distinct(part) === 0) return false;
    return true;
  }

  /**
   * Whether the parts occur in order within the gaps: from an occurrence of the first part, take
   * the earliest occurrence of each next part after the previous one ends.
   */
  #sequenceFound(
    sequence: CompiledSequence,
    text: string,
    end: number,
    entries?: number[],
  ): boolean {
    const { parts, maxGap } = sequence;
    const found = this.#found;
    let from = 0;
    for (let attempt = 0; attempt < MAX_SEQUENCE_ATTEMPTS; attempt++) {
      if (!this.#firstAfter(parts[0]!, from, text, end)) return false;
      if (entries) clearArray(entries);
      entries?.push(found.entry);
      const firstEnd = found.end;
      let previousEnd = firstEnd;
      let fits = true;
      for (let k = 1; k < parts.length; k++) {
        // No occurrence after this point means none after any later start either.
        if (!this.#firstAfter(parts[k]!, previousEnd, text, end)) return false;
        if (maxGap >= 0 && wordsBetween(text, previousEnd, found.start) > maxGap) {
          fits = false;
          break;
        }
        entries?.push(found.entry);
        previousEnd = found.end;
      }
      if (fits) return true;
      from = firstEnd;
    }
    return false;
  }

  /**
   * Sets {@link #found} to the earliest occurrence of `category` starting at or after `from`.
   * The main scan knows the first occurrence of each entry; when an entry occurs before `from`
   * and again later, the rest of the question is scanned again.
   */
  #firstAfter(category: number, from: number, text: string, end: number): boolean {
    const scan = this.#scan;
    let best = -1;
    let bestEntry = -1;
    let ambiguous = false;
    for (let k = 0; k < scan.hitCount; k++) {
      const entry = scan.hitEntry(k);
      if (entry.categoryIndex !== category) continue;
      const index = scan.hitIndex(k);
      if (index < from) {
        if (scan.hitOccurrences(k) > 1) ambiguous = true;
      } else if (best < 0 || index < best) {
        best = index;
        bestEntry = entry.id;
      }
    }
    if (ambiguous) {
      const rescan = this.#lexicon.scan(text, this.#rescan, from, end);
      best = -1;
      for (let k = 0; k < rescan.hitCount; k++) {
        const entry = rescan.hitEntry(k);
        if (entry.categoryIndex !== category) continue;
        const index = rescan.hitIndex(k);
        if (best < 0 || index < best) {
          best = index;
          bestEntry = entry.id;
        }
      }
    }
    if (best < 0) return false;
    this.#found.start = best;
    this.#found.end = best + this.#entryLength[bestEntry]!;
    this.#found.entry = bestEntry;
    return true;
  }
}

/** Words in `text[from, to)`: runs of word characters, each Han/kana/Thai character counting one. */
function wordsBetween(text: string, from: number, to: number): number {
  const { fold, classOf } = charTables();
  let words = 0;
  let inWord = false;
  for (let i = from; i < to; i++) {
    const f = fold[text.charCodeAt(i)]!;
    if (f === 0) continue;
    const cls = classOf[f]!;
    if (cls === UNBOUNDED) {
      words++;
      inWord = false;
    } else if (cls === WORD) {
      if (!inWord) words++;
      inWord = true;
    } else {
      inWord = false;
    }
  }
  return words;
}

/**
 * Whether a phrase, folded as the scanner folds, has a letter outside ASCII: only a question with
 * such a letter can contain it.
 */
function hasWideLetter(phrase: string): boolean {
  const { classOf } = charTables();
  const folded = foldString(phrase);
  for (let i = 0; i < folded.length; i++) {
    const code = folded.charCodeAt(i);
    if (code > 0x7f && (classOf[code] === WORD || classOf[code] === UNBOUNDED)) return true;
  }
  return false;
}

/** The lexicon category of part `k` of sequence `j` of a signal. */
function sequenceCategory(name: string, j: number, k: number): string {
  return `${name}#${j}.${k}`;
}

/**
 * The compiled tables of a set of signals: its phrases and sequence parts, and apart its phrases
 * with letters outside ASCII (absent when there are none).
 */
interface SignalTables {
  readonly main: LexiconTables;
  readonly wide: LexiconTables | undefined;
}

function signalTables(signals: Readonly<Record<string, SignalSpec>>): SignalTables {
  const spec: Record<string, string[]> = {};
  const wide: Record<string, string[]> = {};
  for (const [name, { phrases, sequences }] of Object.entries(signals)) {
    const expanded = phrases.flatMap((phrase) => expandAlternatives(phrase));
    spec[name] = expanded.filter((phrase) => !hasWideLetter(phrase));
    wide[name] = expanded.filter(hasWideLetter);
    sequences.forEach((sequence, j) => {
      sequence.parts.forEach((part, k) => {
        spec[sequenceCategory(name, j, k)] = part.flatMap((phrase) => expandAlternatives(phrase));
      });
    });
  }
  const hasWide = Object.values(wide).some((list) => list.length > 0);
  return { main: lexiconTables(spec), wide: hasWide ? lexiconTables(wide) : undefined };
}

/*
 * The default signals' tables, stored ahead by the build (see `core/prebuilt.ts`): compiling them
 * takes tens of milliseconds, which every process would otherwise pay on its first context router.
 * A router with other signals compiles its own.
 */
const PREBUILT = 'context-signals';
prebuildable(PREBUILT, () => {
  const tables = signalTables(DEFAULT_SIGNALS);
  const stored: StoredSignalTables = {
    main: packLexiconTables(tables.main),
    wide: tables.wide && packLexiconTables(tables.wide),
  };
  return { input: signalsInput(DEFAULT_SIGNALS), value: stored };
});

interface StoredSignalTables {
  readonly main: PackedLexiconTables;
  readonly wide: PackedLexiconTables | undefined;
}

function unpackSignalTables(stored: StoredSignalTables): SignalTables {
  return {
    main: unpackLexiconTables(stored.main),
    wide: stored.wide && unpackLexiconTables(stored.wide),
  };
}

/** The signals the tables are compiled from, as text: the stored tables are for one such input. */
function signalsInput(signals: Readonly<Record<string, SignalSpec>>): string {
  return JSON.stringify(signals);
}
