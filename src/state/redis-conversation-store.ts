import {
  type ConversationMark,
  type ConversationStore,
  decodeMark,
  encodeMark,
} from './conversation-store.js';
import { MemoryConversationStore } from './memory-conversation-store.js';
import type { RedisLink } from './redis-link.js';

/** The key of a conversation's mark (after the link's `keyPrefix`). */
export const markKey = (conversation: string): string => `guidance:${conversation}`;

/**
 * A {@link ConversationStore} in Redis, shared by every instance pointed at it: one string per
 * conversation (`guidance:<id>` → `<applied>:<fingerprint>`, under 300 bytes with the longest
 * id), swapped in one round trip by `SET … EX <ttl> GET` (Redis ≥ 6.2, Valkey), which is atomic,
 * so two instances serving one conversation at once see each other's mark in the order Redis
 * received them. The request waits for that round trip (it decides whether the latest step is
 * nudged). Every swap is also kept in this instance's memory, which answers when Redis is away
 * (counted as a fallback of part `guidance`).
 */
export class RedisConversationStore implements ConversationStore {
  readonly #link: RedisLink;
  readonly #local: MemoryConversationStore;

  constructor(link: RedisLink, local: MemoryConversationStore = new MemoryConversationStore()) {
    this.#link = link;
    this.#local = local;
  }

  swap(
    conversation: string,
    mark: ConversationMark,
    ttlSeconds: number,
  ): Promise<ConversationMark | undefined> {
    const before = this.#local.swap(conversation, mark, ttlSeconds);
    return this.#link.attempt(
      'guidance',
      async (redis) =>
        decodeMark(
          await redis.set(markKey(conversation), encodeMark(mark), 'EX', ttlSeconds, 'GET'),
        ),
      () => before,
    );
  }
}
