/**
 * How a caller of the front door's parts (the server, the framework adapters) says that a
 * request was cancelled and when its deadline passes.
 */

/** Where a decision learns that its request was cancelled (an `AbortController` is one). */
export interface Cancellation {
  readonly signal: AbortSignal;
  /**
   * When the request's deadline passes, on the `performance.now()` clock: an LLM check waits no
   * longer (it falls back), so that deciding and answering share one deadline.
   */
  readonly deadlineAt?: number | undefined;
}

/** What is left of a cancellation's deadline, as the front door's `deadlineMs` option. */
export function deadlineOf(cancel: Cancellation): { deadlineMs?: number } {
  const at = cancel.deadlineAt;
  return at === undefined ? {} : { deadlineMs: Math.max(0, at - performance.now()) };
}
