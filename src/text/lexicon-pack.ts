import type { LexiconEntry, LexiconTables, Pattern } from './lexicon.js';

/**
 * A lexicon's compiled tables in a few flat arrays, as the build stores them ahead (see
 * `core/prebuilt.ts`). `v8.serialize` writes an object's keys with every object, so the tier
 * lexicon's ~3,000 entry and pattern objects took ~720 KB and ~10 ms to read back; as columns
 * they take a fraction of that, and rebuilding the objects from them is quick.
 */
export interface PackedLexiconTables {
  readonly categories: readonly string[];
  readonly phrases: readonly string[];
  readonly labels: readonly string[];
  readonly categoryOf: Int32Array;
  readonly weights: Float64Array;
  /** The units of pattern p: units[unitStart[p], unitStart[p + 1]). */
  readonly units: Int32Array;
  readonly unitStart: Int32Array;
  /** Per pattern: 1 left-bounded, 2 right-bounded, 4 letters only. */
  readonly flags: Uint8Array;
  /** The entries of pattern p: entryIds[entryStart[p], entryStart[p + 1]). */
  readonly entryIds: Int32Array;
  readonly entryStart: Int32Array;
  readonly rest: Omit<LexiconTables, 'categories' | 'entries' | 'patterns'>;
}

/** Packs compiled tables into columns. */
export function packLexiconTables(tables: LexiconTables): PackedLexiconTables {
  const { categories, entries, patterns, ...rest } = tables;
  const unitStart = new Int32Array(patterns.length + 1);
  const entryStart = new Int32Array(patterns.length + 1);
  patterns.forEach((pattern, p) => {
    unitStart[p + 1] = unitStart[p]! + pattern.units.length;
    entryStart[p + 1] = entryStart[p]! + pattern.entries.length;
  });
  const units = new Int32Array(unitStart[patterns.length]!);
  const entryIds = new Int32Array(entryStart[patterns.length]!);
  const flags = new Uint8Array(patterns.length);
  patterns.forEach((pattern, p) => {
    units.set(pattern.units, unitStart[p]);
    entryIds.set(pattern.entries, entryStart[p]);
    flags[p] =
      (pattern.leftBounded ? 1 : 0) |
      (pattern.rightBounded ? 2 : 0) |
      (pattern.lettersOnly ? 4 : 0);
  });
  return {
    categories,
    phrases: entries.map((entry) => entry.phrase),
    labels: entries.map((entry) => entry.label),
    categoryOf: Int32Array.from(entries, (entry) => entry.categoryIndex),
    weights: Float64Array.from(entries, (entry) => entry.weight),
    units,
    unitStart,
    flags,
    entryIds,
    entryStart,
    rest,
  };
}

/** The tables {@link packLexiconTables} packed (plain loops: it runs once, cold, at start-up). */
export function unpackLexiconTables(packed: PackedLexiconTables): LexiconTables {
  const { categories, phrases, labels, categoryOf, weights, units, unitStart, flags } = packed;
  const { entryIds, entryStart } = packed;
  const entries: LexiconEntry[] = new Array(phrases.length);
  for (let id = 0; id < phrases.length; id++) {
    const categoryIndex = categoryOf[id]!;
    entries[id] = {
      id,
      phrase: phrases[id]!,
      category: categories[categoryIndex]!,
      categoryIndex,
      weight: weights[id]!,
      label: labels[id]!,
    };
  }
  const patterns: Pattern[] = new Array(flags.length);
  for (let p = 0; p < flags.length; p++) {
    const ids: number[] = [];
    for (let k = entryStart[p]!; k < entryStart[p + 1]!; k++) ids.push(entryIds[k]!);
    patterns[p] = {
      units: units.subarray(unitStart[p], unitStart[p + 1]),
      leftBounded: (flags[p]! & 1) !== 0,
      rightBounded: (flags[p]! & 2) !== 0,
      lettersOnly: (flags[p]! & 4) !== 0,
      entries: ids,
    };
  }
  return { categories, entries, patterns, ...packed.rest };
}
