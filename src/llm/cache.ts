import { createHash } from 'node:crypto';
import { LRUCache } from 'lru-cache';
import type { CompletionRequest, CompletionResponse, LlmProvider } from './types.js';

/** Options of {@link withCache}. */
export interface CompletionCacheOptions {
  /** Most answers kept. Default 10,000. */
  readonly max?: number;
  /** How long an answer stays valid, in milliseconds. Default 10 minutes. */
  readonly ttlMs?: number;
}

/** Hit and miss counters of a cached provider. */
export interface CompletionCacheStats {
  hits: number;
  misses: number;
}

/** A provider whose answers are cached. */
export interface CachedProvider extends LlmProvider {
  /** A copy of the counters. */
  readonly cacheStats: CompletionCacheStats;
  /** Forgets every cached answer. */
  clearCache(): void;
}

/**
 * The cache key of a request: a SHA-256 of everything that shapes the answer (provider, model,
 * system prompt, messages, schema, token limit, temperature, seed). Hashed so that the cache holds
 * 64 characters per entry, not the prompts.
 */
export function completionCacheKey(providerId: string, model: string, request: CompletionRequest) {
  return createHash('sha256')
    .update(
      JSON.stringify([
        providerId,
        model,
        request.system ?? null,
        request.messages,
        request.schema ?? null,
        request.schemaName ?? null,
        request.maxTokens ?? null,
        request.temperature ?? null,
        request.seed ?? null,
      ]),
    )
    .digest('hex');
}

/**
 * Wraps `provider` with a decision cache (an LRU with TTL): a request identical to one answered
 * before returns the stored answer with `cached: true` and `latencyMs: 0`, without a call.
 * Only successful answers are stored; failures always reach the provider again.
 */
export function withCache(
  provider: LlmProvider,
  options: CompletionCacheOptions = {},
): CachedProvider {
  const cache = new LRUCache<string, CompletionResponse>({
    max: options.max ?? 10_000,
    ttl: options.ttlMs ?? 600_000,
  });
  const stats: CompletionCacheStats = { hits: 0, misses: 0 };
  return {
    id: provider.id,
    model: provider.model,
    ...(provider.timeoutMs === undefined ? {} : { timeoutMs: provider.timeoutMs }),
    get cacheStats() {
      return { ...stats };
    },
    clearCache: () => cache.clear(),
    async complete(request: CompletionRequest): Promise<CompletionResponse> {
      const key = completionCacheKey(provider.id, request.model ?? provider.model, request);
      const hit = cache.get(key);
      if (hit) {
        stats.hits++;
        return { ...hit, latencyMs: 0, cached: true };
      }
      stats.misses++;
      const response = await provider.complete(request);
      cache.set(key, response);
      return response;
    },
    close: async () => {
      cache.clear();
      await provider.close?.();
    },
  };
}
