/**
 * What the console's live view shows, recorded from the chat endpoint: one small entry per
 * request in a fixed ring (an O(1) write: a slot assignment and a counter increment, no
 * aggregation, no timer, no I/O). Everything else (per-second buckets, percentiles, the push to
 * the page) happens only while a page is subscribed, on a one-second timer that exists only then.
 */

/** Tokens a request used, when the upstream reported them. */
export interface TrafficUsage {
  readonly promptTokens: number;
  readonly completionTokens: number;
}

/**
 * What a request cost and what it would have cost on the baseline model (the most capable
 * configured one), in US dollars, when model costs are configured.
 */
export interface TrafficCost {
  readonly usd: number;
  readonly baselineUsd: number;
}

/** One request as the live view records it: never prompt text unless prompt logging is on. */
export interface TrafficEntry {
  /** Milliseconds since the epoch when the request ended. */
  readonly at: number;
  readonly endpoint: 'chat' | 'route';
  readonly tier: string;
  /** The model that answered (`none` when none did). */
  readonly model: string;
  /** Where the tier came from: `local`, `llm`, `cached`, `forced`, `fallback`, `passthrough`. */
  readonly source: string;
  readonly confidence: number;
  /** The status the client got (499: it left first). */
  readonly status: number;
  /** Milliseconds from receiving the request to its end. */
  readonly ms: number;
  /** Milliseconds the decision took. */
  readonly decideMs: number;
  /** Models left for the next one (failed before their first byte). */
  readonly fallbacks: number;
  /** Upstream failures, by reason (`timeout`, `http_503`, …). */
  readonly upstreamErrors: readonly string[];
  /** The injection level, when the screen found one above `normal`. */
  readonly injection?: string | undefined;
  readonly usage?: TrafficUsage;
  readonly cost?: TrafficCost;
  /** The last user message, only when `server.log.prompts` is on. */
  readonly prompt?: string | undefined;
}

/** Default number of requests kept for a page that opens (the last minutes of most servers). */
export const DEFAULT_RING_SIZE = 4096;

/**
 * The recorder the chat endpoint writes to. Reading is for the console: `since(seq)` returns the
 * entries written after `seq` that are still in the ring.
 */
export class TrafficRecorder {
  readonly #ring: (TrafficEntry | undefined)[];
  readonly #size: number;
  #seq = 0;

  constructor(size = DEFAULT_RING_SIZE) {
    this.#size = size;
    this.#ring = new Array(size).fill(undefined);
  }

  /** Records one request: O(1), no allocation beyond the entry itself. */
  record(entry: TrafficEntry): void {
    this.#ring[this.#seq % this.#size] = entry;
    this.#seq++;
  }

  /** How many entries were ever recorded (the sequence number of the next one). */
  get seq(): number {
    return this.#seq;
  }

  /**
   * The entries recorded after sequence number `after`, oldest first, as many as the ring still
   * holds, and how many were recorded but are no longer held (`lost`).
   */
  since(after: number): { entries: TrafficEntry[]; lost: number } {
    const from = Math.max(after, this.#seq - this.#size, 0);
    const entries: TrafficEntry[] = [];
    for (let seq = from; seq < this.#seq; seq++) {
      entries.push(this.#ring[seq % this.#size] as TrafficEntry);
    }
    return { entries, lost: from - Math.max(after, 0) };
  }
}
