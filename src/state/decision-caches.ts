import { createHash } from 'node:crypto';
import { LRUCache } from 'lru-cache';
import { lruDecisionCache } from '../core/decision-cache.js';
import type { DecisionCache, LlmVerdict } from '../core/hybrid.js';
import type { RedisLink } from './redis-link.js';

/**
 * The caches of LLM verdicts (tier, injection, context), one per part: in this process's memory,
 * or in two levels, this instance's LRU and then Redis, so that a verdict one instance paid an
 * LLM call for is used by every other.
 */

/** How one part's cache is sized. */
export interface VerdictCacheOptions {
  /** Most verdicts this instance keeps in memory. */
  readonly max: number;
  /** How long a verdict is used, in milliseconds (in memory and in Redis alike). */
  readonly ttlMs: number;
}

/** Builds the verdict cache of each part. */
export interface DecisionCaches {
  /** The cache of `part`'s verdicts (its keys are kept apart from other parts'). */
  of<T>(part: string, options: VerdictCacheOptions): DecisionCache<T>;
}

/** Verdicts in this process's memory: an LRU per part, as each part keeps by default. */
export const memoryDecisionCaches: DecisionCaches = {
  of: (_part, options) => lruDecisionCache(options),
};

/**
 * Verdicts in this instance's LRU, then in Redis: a local hit answers at once (no round trip);
 * Redis is read on a local miss only, that is, only when the LLM would be asked otherwise (its
 * answer is kept locally for the time it has left there); a new verdict is written to both, to
 * Redis in the background (nothing waits for it) with the TTL. Redis keys are
 * `decision:<part>:<SHA-256 of the part's key>`, so no prompt text is stored in a key; values are
 * JSON: `{ verdict, expiresAt }`. While Redis is away the LRU alone answers (`cache` in the fallback
 * metrics).
 */
export function redisDecisionCaches(link: RedisLink): DecisionCaches {
  return {
    of: <T>(part: string, options: VerdictCacheOptions) => twoLevel<T>(link, part, options),
  };
}

function twoLevel<T>(
  link: RedisLink,
  part: string,
  { max, ttlMs }: VerdictCacheOptions,
): DecisionCache<T> {
  const local = new LRUCache<string, LlmVerdict<T>>({ max, ttl: ttlMs });
  const sharedKey = (key: string) =>
    `decision:${part}:${createHash('sha256').update(key).digest('base64url')}`;
  return {
    get(key) {
      const hit = local.get(key);
      if (hit !== undefined) return hit;
      return link.attempt(
        'cache',
        async (redis) => {
          const stored = storedOf<T>(await redis.get(sharedKey(key)));
          const left = (stored?.expiresAt ?? 0) - Date.now();
          if (stored === undefined || left <= 0) return undefined;
          local.set(key, stored.verdict, { ttl: left });
          return stored.verdict;
        },
        () => undefined,
      );
    },
    set(key, verdict) {
      local.set(key, verdict);
      const stored: Stored<T> = { verdict, expiresAt: Date.now() + ttlMs };
      link.send((redis) => redis.set(sharedKey(key), JSON.stringify(stored), 'PX', ttlMs));
    },
  };
}

/**
 * A verdict as Redis holds it, with when it expires (epoch ms), so that an instance reading it
 * keeps it locally only for the time it has left.
 */
interface Stored<T> {
  readonly verdict: LlmVerdict<T>;
  readonly expiresAt: number;
}

/** A stored verdict read back from Redis; `undefined` (a miss) for anything that is not one. */
function storedOf<T>(raw: string | null): Stored<T> | undefined {
  if (raw === null) return undefined;
  try {
    const value = JSON.parse(raw) as Partial<Stored<T>> | null;
    const verdict: unknown = value?.verdict;
    if (
      typeof value?.expiresAt === 'number' &&
      typeof verdict === 'object' &&
      verdict !== null &&
      'value' in verdict
    ) {
      return value as Stored<T>;
    }
  } catch {
    // Not JSON: not written by triage; a miss.
  }
  return undefined;
}
