/** The model tiers, cheapest first (the original design). */
export const TIERS = ['SIMPLE', 'MEDIUM', 'COMPLEX', 'REASONING'] as const;

/** A model tier. */
export type Tier = (typeof TIERS)[number];

/** Whether `value` is a tier name (exact, upper case). */
export function isTier(value: unknown): value is Tier {
  return typeof value === 'string' && (TIERS as readonly string[]).includes(value);
}

/** The rank of a tier: 0 for SIMPLE up to 3 for REASONING (-1 for any other string). */
export function tierRank(tier: Tier): number {
  // By the first letter, then one comparison: it runs several times per decision, and a switch
  // over the four names compared strings that differ (a builtin call each), where equal
  // internalised strings compare by pointer.
  switch (tier.charCodeAt(0)) {
    case 83: // S
      return tier === 'SIMPLE' ? 0 : -1;
    case 77: // M
      return tier === 'MEDIUM' ? 1 : -1;
    case 67: // C
      return tier === 'COMPLEX' ? 2 : -1;
    case 82: // R
      return tier === 'REASONING' ? 3 : -1;
    default:
      return -1;
  }
}

/** The higher of two tiers. */
export function maxTier(a: Tier, b: Tier): Tier {
  return tierRank(a) >= tierRank(b) ? a : b;
}
