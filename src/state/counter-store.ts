/**
 * The state the server's limits and budgets keep: numeric counters, each for one key in one
 * window (the window is part of the key, e.g. `spend:key-1a2b3c4d:day:2026-11-26`), that expire
 * when their window ends. Every operation is atomic, so that instances sharing one store (a later
 * Redis implementation, with the same contract) never let two requests both take the last unit
 * of a limit. Operations are asynchronous for that reason, even in memory.
 */

/** The outcome of {@link CounterStore.checkAndAdd}. */
export interface CheckAndAdd {
  /** Whether the amount was added (the total stayed within the limit). */
  readonly allowed: boolean;
  /** The counter's value after the operation. */
  readonly total: number;
}

/** Counters that expire, with atomic updates. */
export interface CounterStore {
  /** Adds `amount` to `key` (created at 0, expiring at `expiresAt`, epoch ms); the new value. */
  add(key: string, amount: number, expiresAt: number): Promise<number>;
  /** The value of `key` (0 when absent or expired). */
  get(key: string): Promise<number>;
  /**
   * Adds `amount` to `key` only when the result stays at or below `limit`; otherwise leaves it.
   * One step: no other operation on `key` comes in between.
   */
  checkAndAdd(key: string, amount: number, limit: number, expiresAt: number): Promise<CheckAndAdd>;
}
