/**
 * The state the server's limits and budgets keep: numeric counters, each for one key in one
 * window (the window is part of the key, e.g. `spend:key-1a2b3c4d:d2026-11-26`), that expire
 * when their window ends. Every operation is atomic, so that instances sharing one store (Redis,
 * with the same contract as memory) never let two requests both take the last unit of a limit.
 * Operations are asynchronous for that reason, even in memory.
 */

/** The outcome of {@link CounterStore.checkAndAdd}. */
export interface CheckAndAdd {
  /** Whether the amount was added (the total stayed within the limit). */
  readonly allowed: boolean;
  /** The counter's value after the operation. */
  readonly total: number;
}

/** A counter that must be below `limit` for an admission to pass (it is only read). */
export interface CounterCheck {
  readonly key: string;
  readonly limit: number;
}

/** An amount added to a counter only when the result stays at or below `limit`. */
export interface CounterTake {
  readonly key: string;
  readonly amount: number;
  readonly limit: number;
  /** When the counter expires if this creates it (epoch ms). */
  readonly expiresAt: number;
}

/** An amount added to a counter unconditionally. */
export interface CounterAddition {
  readonly key: string;
  readonly amount: number;
  /** When the counter expires if this creates it (epoch ms). */
  readonly expiresAt: number;
}

/**
 * What one request's admission asks in one step: every check must pass, in order, and then the
 * take (if any) must fit.
 */
export interface Admission {
  readonly checks: readonly CounterCheck[];
  readonly take?: CounterTake;
}

/** Counters that expire, with atomic updates. */
export interface CounterStore {
  /** Adds `amount` to `key` (created at 0, expiring at `expiresAt`, epoch ms); the new value. */
  add(key: string, amount: number, expiresAt: number): Promise<number>;
  /** Adds each amount to its counter, as {@link add} does, in one step. */
  addAll(additions: readonly CounterAddition[]): Promise<void>;
  /** The value of `key` (0 when absent or expired). */
  get(key: string): Promise<number>;
  /**
   * Adds `amount` to `key` only when the result stays at or below `limit`; otherwise leaves it.
   * One step: no other operation on `key` comes in between.
   */
  checkAndAdd(key: string, amount: number, limit: number, expiresAt: number): Promise<CheckAndAdd>;
  /**
   * Checks each counter of `admission.checks` (in order) against its limit and then takes
   * `admission.take`, all in one step (one round trip to a shared store). Resolves to the index
   * of the step that refused (a check's index, or `checks.length` for the take, which is then not
   * added), or `undefined` when everything passed and the take was added.
   */
  admit(admission: Admission): Promise<number | undefined>;
}
