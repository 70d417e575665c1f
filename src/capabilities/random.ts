/**
 * Seeded pseudo-randomness, so that few-shot example order, the choice of evaluation examples and
 * retry jitter are reproducible: the same seed gives the same prompt (which keeps tests and
 * decision caches deterministic), and a different seed gives a different one.
 */

/** A function returning numbers in [0, 1), like `Math.random`. */
export type RandomSource = () => number;

/**
 * A small, fast PRNG (mulberry32) over a 32-bit seed. Not for cryptography; plenty for shuffling
 * examples and spreading retries.
 */
export function seededRandom(seed: number): RandomSource {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** A 32-bit hash (FNV-1a) of a string, to derive a seed from names and texts. */
export function hashString(text: string, seed = 0): number {
  let hash = (0x811c9dc5 ^ seed) >>> 0;
  for (let i = 0; i < text.length; i++) {
    hash = Math.imul(hash ^ text.charCodeAt(i), 0x01000193);
  }
  return hash >>> 0;
}

/** A shuffled copy of `items` (Fisher–Yates) under `random`; the input is left alone. */
export function shuffled<T>(items: readonly T[], random: RandomSource): T[] {
  const out = [...items];
  for (let i = out.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    const swap = out[i]!;
    out[i] = out[j]!;
    out[j] = swap;
  }
  return out;
}
