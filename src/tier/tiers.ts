/** The model tiers, cheapest first (the original design). */
export const TIERS = ['SIMPLE', 'MEDIUM', 'COMPLEX', 'REASONING'] as const;

/** A model tier. */
export type Tier = (typeof TIERS)[number];

/** Whether `value` is a tier name (exact, upper case). */
export function isTier(value: unknown): value is Tier {
  return typeof value === 'string' && (TIERS as readonly string[]).includes(value);
}

/** The rank of a tier: 0 for SIMPLE up to 3 for REASONING. */
export function tierRank(tier: Tier): number {
  // A switch, not TIERS.indexOf: it runs on every decision, and the builtin call costs ~10 ns.
  switch (tier) {
    case 'SIMPLE':
      return 0;
    case 'MEDIUM':
      return 1;
    case 'COMPLEX':
      return 2;
    case 'REASONING':
      return 3;
    default:
      return -1;
  }
}

/** The higher of two tiers. */
export function maxTier(a: Tier, b: Tier): Tier {
  return tierRank(a) >= tierRank(b) ? a : b;
}
