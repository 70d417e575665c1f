import type { ServerResponse } from 'node:http';
import { errorBody } from './errors.js';

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
  #closedByServer = false;
  #attempt: CancellableAttempt | undefined;
  /** When the request's deadline passes (`performance.now()` clock), once it is known. */
  deadlineAt: number | undefined;

  /** `open`: the set that tracks the server's exchanges in flight, for shutdown. */
  constructor(res: ServerResponse, open?: OpenExchanges) {
    this.res = res;
    open?.add(this);
    // `on`, not `once`: a response closes once, and `once` wraps the listener for each request.
    res.on('close', () => {
      open?.delete(this);
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

  /** True once the client went away (or the server ended the exchange, shutting down). */
  get gone(): boolean {
    return this.#gone;
  }

  /** True when the server ended the exchange because it was shutting down. */
  get closedByServer(): boolean {
    return this.#closedByServer;
  }

  /** Makes `attempt` the upstream request to cancel if the client goes away. */
  beginAttempt(attempt: CancellableAttempt): void {
    this.#attempt = attempt;
    if (this.#gone) attempt.cancel();
  }

  /**
   * Ends the exchange because the server is shutting down: a stream under way ends with an
   * error event, a request not answered yet gets a 503; nothing is cut with a reset. Resolves
   * once the response is closed.
   */
  shutDown(): Promise<void> {
    const res = this.res;
    if (this.#gone || res.writableEnded) return Promise.resolve();
    this.#closedByServer = true;
    const closed = new Promise<void>((resolve) => res.once('close', () => resolve()));
    if (!this.#attempt?.shutDown()) {
      // Deciding, or between two attempts: answer here, and stop whatever comes next.
      this.#gone = true;
      this.#client?.abort();
      sendShuttingDown(res);
    }
    return closed;
  }
}

/** The exchanges of a server that are in flight. */
export class OpenExchanges {
  readonly #open = new Set<Exchange>();

  add(exchange: Exchange): void {
    this.#open.add(exchange);
  }

  delete(exchange: Exchange): void {
    this.#open.delete(exchange);
  }

  get size(): number {
    return this.#open.size;
  }

  /**
   * Ends every exchange in flight ({@link Exchange.shutDown}); resolves when their responses are
   * closed, or after `maxWaitMs` (a client that does not read may never take the last bytes).
   */
  async shutDownAll(maxWaitMs: number): Promise<void> {
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([
      Promise.all([...this.#open].map((exchange) => exchange.shutDown())),
      new Promise((resolve) => {
        timer = setTimeout(resolve, maxWaitMs);
      }),
    ]);
    clearTimeout(timer);
  }
}

/** The error a request gets when the server shuts down before answering it. */
export function shuttingDownBody() {
  return errorBody(
    'the server is shutting down; send the request again',
    'server_error',
    'server_shutting_down',
  );
}

/** Answers 503 (or ends a response already started) for a request the server stopped. */
export function sendShuttingDown(res: ServerResponse): void {
  if (res.headersSent) {
    res.end();
    return;
  }
  const body = JSON.stringify(shuttingDownBody());
  res.writeHead(503, {
    'content-type': 'application/json',
    'content-length': Buffer.byteLength(body),
    connection: 'close',
  });
  res.end(body);
}
