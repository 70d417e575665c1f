import type { ContextRouterConfig } from '../context/index.js';
import type { DecisionCache } from '../core/hybrid.js';
import type { DecisionCaches, VerdictCacheOptions } from '../state/decision-caches.js';
import type { TierOptions } from '../tier/options.js';
import type { TriagePart } from '../triage.js';

/** The injection guard's verdict cache (the guard's own default: `lruDecisionCache()`'s). */
const INJECTION_CACHE: VerdictCacheOptions = { max: 10_000, ttlMs: 600_000 };

/**
 * The verdict cache of each part the server decides with, from the state's caches and sized as
 * each part's section configures its own (`llm.cacheSize` and `llm.cacheTtlMs` for tier and
 * context, `cache` on or off for the injection guard); `undefined` for a part whose cache is off.
 */
export function verdictCachesOf(
  decisions: DecisionCaches,
  sections: {
    readonly tier: TierOptions | undefined;
    readonly context: ContextRouterConfig | undefined;
    readonly injectionGuard: unknown;
  },
): (part: TriagePart) => DecisionCache<unknown> | undefined {
  const { tier, context, injectionGuard } = sections;
  const options: Partial<Record<TriagePart, VerdictCacheOptions>> = {
    ...(tier && { tier: { max: tier.llm.cacheSize, ttlMs: tier.llm.cacheTtlMs } }),
    ...(context && { context: { max: context.llm.cacheSize, ttlMs: context.llm.cacheTtlMs } }),
    ...((injectionGuard as { cache?: unknown } | undefined)?.cache !== false && {
      injection: INJECTION_CACHE,
    }),
  };
  return (part) => {
    const sized = options[part];
    return sized === undefined || sized.max === 0 ? undefined : decisions.of(part, sized);
  };
}
