import type { ServerResponse } from 'node:http';

/** An upstream request in flight, which stops when the client goes away. */
export interface CancellableAttempt {
  cancel(): void;
  /**
   * The server is shutting down: end the client's response now (an error event for a stream
   * under way, a 503 before anything was sent). False when the attempt is over already.
   */
  shutDown(): boolean;
}

/**
 * The client side of one proxied request: its response, and cancellation. When the client
 * disconnects before the response is complete, `signal` aborts and so does the upstream request
 * in flight. The `AbortSignal` is only created when something asks for it (a decision that has
 * to wait for its LLM check): most requests never need one.
 */
export class Exchange {
  readonly res: ServerResponse;
  #client: AbortController | undefined;
  #gone = false;
  #attempt: CancellableAttempt | undefined;

  constructor(res: ServerResponse) {
    this.res = res;
    // `on`, not `once`: a response closes once, and `once` wraps the listener for each request.
    res.on('close', () => {
      if (res.writableFinished) return;
      this.#gone = true;
      this.#client?.abort();
      this.#attempt?.cancel();
    });
  }

  /** Aborts when the client goes away. */
  get signal(): AbortSignal {
    if (this.#client === undefined) {
      this.#client = new AbortController();
      if (this.#gone) this.#client.abort();
    }
    return this.#client.signal;
  }

  /** True once the client went away. */
  get gone(): boolean {
    return this.#gone;
  }

  /** Makes `attempt` the upstream request to cancel if the client goes away. */
  beginAttempt(attempt: CancellableAttempt): void {
    this.#attempt = attempt;
    if (this.#gone) attempt.cancel();
  }
}
