import type { UpstreamBreaker } from './breaker-store.js';
import type { ConversationStore } from './conversation-store.js';
import type { CounterStore } from './counter-store.js';
import {
  type DecisionCaches,
  memoryDecisionCaches,
  redisDecisionCaches,
} from './decision-caches.js';
import { MemoryBreaker } from './memory-breaker.js';
import { MemoryConversationStore } from './memory-conversation-store.js';
import { MemoryCounterStore } from './memory-counter-store.js';
import { RedisBreaker } from './redis-breaker.js';
import { RedisConversationStore } from './redis-conversation-store.js';
import { RedisCounterStore } from './redis-counter-store.js';
import { RedisLink, type RedisLinkEvents, type RedisLinkOptions } from './redis-link.js';

/**
 * The state a server keeps beyond one request, in one place: in this process's memory (one
 * instance), or in Redis, shared by every instance pointed at it (docs/instances.md). Each part
 * has one interface and both implementations; the Redis ones answer from the instance's memory
 * whenever Redis is away (see {@link RedisLink}).
 */
export interface SharedState {
  /** The link to Redis; `undefined` when the state is in memory. */
  readonly redis: RedisLink | undefined;
  /** Counters of the rate limits and budgets (`limits` in the fallback metrics). */
  readonly counters: CounterStore;
  /** The circuit breaker of each upstream model. */
  readonly breaker: UpstreamBreaker;
  /**
   * How far each agent conversation's guidance has gone; kept across reloads of the
   * configuration (a reload does not repeat a nudge already given).
   */
  readonly conversations: ConversationStore;
  /** The caches of LLM verdicts, one per part (`cache` in the fallback metrics). */
  readonly decisions: DecisionCaches;
  /** Closes the link to Redis, if any. */
  close(): Promise<void>;
}

/** State in this process's memory: the default, for one instance. */
export function memoryState(): SharedState {
  return {
    redis: undefined,
    counters: new MemoryCounterStore(),
    breaker: new MemoryBreaker(),
    conversations: new MemoryConversationStore(),
    decisions: memoryDecisionCaches,
    close: () => Promise.resolve(),
  };
}

/** State shared through the Redis of `options`, with this process's memory as the fallback. */
export function redisState(options: RedisLinkOptions, events: RedisLinkEvents = {}): SharedState {
  const redis = new RedisLink(options, events);
  const breaker = new RedisBreaker(redis);
  return {
    redis,
    counters: new RedisCounterStore(redis),
    decisions: redisDecisionCaches(redis),
    conversations: new RedisConversationStore(redis),
    breaker,
    close: () => {
      breaker.close();
      return redis.close();
    },
  };
}
