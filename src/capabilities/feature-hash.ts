/**
 * The two hash functions of the pre-matcher's features (64 bits together, so collisions are out
 * of the question at any registry's size), shared by the feature extractor and the word analyzer,
 * which must compute the same key for the same word.
 */

export const FNV_OFFSET = 0x811c9dc5 | 0;
const FNV_PRIME = 0x01000193;
export const MIX_SEED = 0x9747b28c | 0;
const MIX_PRIME = 0x5bd1e995;

/** Seeds that keep the kinds of feature apart: the word "the" and the 3-gram "the" differ. */
export const KIND_WORD = 1;
export const KIND_PAIR = 2;
/** n-grams of length n use `KIND_GRAM + n`. */
export const KIND_GRAM = 3;
export const KIND_CONCEPT = 32;
export const KIND_ENTITY = 33;
/** A content word paired with the next one across function words (a verb and its object). */
export const KIND_SKIP = 34;

/** One step of FNV-1a (over a whole value rather than a byte: enough for hashing features). */
export function fnv(hash: number, value: number): number {
  return Math.imul(hash ^ value, FNV_PRIME);
}

/** One step of a second, independent multiplicative hash. */
export function mix(hash: number, value: number): number {
  const h = Math.imul(hash ^ value, MIX_PRIME);
  return h ^ (h >>> 15);
}
