/**
 * The word hash (FNV-1a over folded units) shared by the JS scanner, the tables built from a
 * lexicon, and the WebAssembly scanner (`scan.wat`), which must all compute the same values.
 * A hash only selects candidates: every hit is verified against the entry's units.
 */

export const FNV_OFFSET = 0x811c9dc5 | 0;
export const FNV_PRIME = 0x01000193;

/** The hash of the first `length` folded units of `units`. */
export function hashUnits(units: Int32Array, length: number): number {
  let hash = FNV_OFFSET;
  for (let i = 0; i < length; i++) hash = Math.imul(hash ^ units[i]!, FNV_PRIME);
  return hash;
}

/** The key of a pair of consecutive words. */
export function pairHash(first: number, second: number): number {
  return Math.imul(first ^ (second >>> 16), 0x2c1b3c6d) ^ second;
}
