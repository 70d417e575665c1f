import { LRUCache } from 'lru-cache';
import type { DecisionCache, LlmVerdict } from './hybrid.js';

/** Options of {@link lruDecisionCache}. */
export interface LruDecisionCacheOptions {
  /** Most entries kept. Default 10,000. */
  readonly max?: number;
  /** Time to live of an entry in milliseconds. Default 10 minutes. */
  readonly ttlMs?: number;
}

/** An in-memory LRU cache with TTL for LLM verdicts, for a {@link HybridPolicy}'s `cache`. */
export function lruDecisionCache<T>(options: LruDecisionCacheOptions = {}): DecisionCache<T> {
  const cache = new LRUCache<string, LlmVerdict<T>>({
    max: options.max ?? 10_000,
    ttl: options.ttlMs ?? 600_000,
  });
  return {
    get: (key) => cache.get(key),
    set: (key, verdict) => {
      cache.set(key, verdict);
    },
  };
}

/**
 * A view of a shared cache that prefixes every key with `namespace:`, so that several subsystems
 * (tier, injection, context, …) can share one store without their keys meeting.
 */
export function namespacedCache<T>(
  cache: DecisionCache<unknown>,
  namespace: string,
): DecisionCache<T> {
  const prefix = `${namespace}:`;
  return {
    get: (key) =>
      cache.get(prefix + key) as LlmVerdict<T> | undefined | Promise<LlmVerdict<T> | undefined>,
    set: (key, verdict) => cache.set(prefix + key, verdict),
  };
}
