import { LRUCache } from 'lru-cache';
import type { ConversationMark, ConversationStore } from './conversation-store.js';

/** Conversations whose mark a memory store keeps by default (about 100 bytes each). */
export const DEFAULT_MARKS = 100_000;

/**
 * A {@link ConversationStore} in this process's memory: the default, for one instance, and the
 * fallback of the shared one. Marks expire `ttlSeconds` after their last swap; at most `max`
 * are kept (the least recently used leave first: such a conversation's next request is read as
 * new, and nudged about its latest step only).
 */
export class MemoryConversationStore implements ConversationStore {
  readonly #marks: LRUCache<string, ConversationMark>;

  /** `now`: the clock (ms), for tests. */
  constructor(max: number = DEFAULT_MARKS, now?: () => number) {
    this.#marks = new LRUCache({
      max,
      // Expired marks are dropped when read (no timer per mark); `max` bounds the rest.
      ttlAutopurge: false,
      ...(now ? { perf: { now }, ttlResolution: 0 } : {}),
    });
  }

  /** Marks held (expired ones not yet dropped included). */
  get size(): number {
    return this.#marks.size;
  }

  swap(
    conversation: string,
    mark: ConversationMark,
    ttlSeconds: number,
  ): ConversationMark | undefined {
    const before = this.#marks.get(conversation);
    this.#marks.set(conversation, mark, { ttl: ttlSeconds * 1000 });
    return before;
  }
}
