import { EventEmitter } from 'node:events';
import type { ServerResponse } from 'node:http';

/**
 * Cancels one upstream request. undici accepts an EventEmitter as a signal; it costs a fraction
 * of an `AbortController` (which the request path would otherwise create for every attempt).
 */
export class AttemptSignal extends EventEmitter {
  aborted = false;

  abort(): void {
    if (this.aborted) return;
    this.aborted = true;
    this.emit('abort');
  }
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
  #attempt: AttemptSignal | undefined;

  constructor(res: ServerResponse) {
    this.res = res;
    // `on`, not `once`: a response closes once, and `once` wraps the listener for each request.
    res.on('close', () => {
      if (res.writableFinished) return;
      this.#gone = true;
      this.#client?.abort();
      this.#attempt?.abort();
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

  /** A signal for the next upstream request, aborted if the client goes away. */
  beginAttempt(): AttemptSignal {
    const signal = new AttemptSignal();
    this.#attempt = signal;
    return signal;
  }
}
