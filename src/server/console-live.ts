import type { ServerResponse } from 'node:http';
import type { TrafficEntry, TrafficRecorder } from './console-recorder.js';

/**
 * The live view's feed: server-sent events to each open console page. On connecting a page gets
 * the recent history (the recorder's ring, in one-second buckets), then one bucket a second with
 * the requests recorded since. The timer exists only while a page is connected.
 */

/** One second (or one tick) of traffic, as the page draws it. */
export interface TrafficBucket {
  /** Milliseconds since the epoch at the end of the bucket. */
  readonly t: number;
  readonly count: number;
  readonly byTier: Record<string, number>;
  readonly byModel: Record<string, number>;
  readonly bySource: Record<string, number>;
  /** Status classes: `2xx`, `4xx`, `5xx`, `499`. */
  readonly byStatus: Record<string, number>;
  readonly fallbacks: number;
  readonly upstreamErrors: Record<string, number>;
  /** Request latency in milliseconds (null without requests). */
  readonly latency: { p50: number; p90: number; p99: number } | null;
  readonly decideP50: number | null;
  readonly tokens: { prompt: number; completion: number };
  /** Cost and baseline cost in US dollars; null when no request of the bucket had cost data. */
  readonly cost: { usd: number; baselineUsd: number } | null;
}

/** A recent decision as the page lists it (prompt text only when prompt logging is on). */
export type RecentDecision = TrafficEntry;

/** A message of the feed. */
export interface FeedMessage {
  readonly type: 'history' | 'tick';
  readonly buckets: readonly TrafficBucket[];
  /** The last decisions, newest last (at most {@link RECENT}). */
  readonly recent: readonly RecentDecision[];
  /** Requests recorded that the ring no longer held when they were to be sent. */
  readonly lost: number;
  readonly promptLogging: boolean;
}

/** How many decisions a message lists. */
export const RECENT = 25;
/** How often a bucket is pushed, in milliseconds. */
export const TICK_MS = 1000;

/** The feed of one server. */
export class LiveFeed {
  readonly #recorder: TrafficRecorder;
  readonly #promptLogging: boolean;
  readonly #pages = new Set<ServerResponse>();
  #timer: NodeJS.Timeout | undefined;
  #sent = 0;

  constructor(recorder: TrafficRecorder, options: { promptLogging: boolean }) {
    this.#recorder = recorder;
    this.#promptLogging = options.promptLogging;
  }

  /** Pages connected now. */
  get pages(): number {
    return this.#pages.size;
  }

  /** Streams the feed to a page until it goes away. */
  open(res: ServerResponse): void {
    res.writeHead(200, {
      'content-type': 'text/event-stream; charset=utf-8',
      'cache-control': 'no-store',
      'x-accel-buffering': 'no',
    });
    const { entries, lost } = this.#recorder.since(0);
    if (this.#pages.size === 0) this.#sent = this.#recorder.seq;
    send(res, this.#message('history', bySecond(entries), entries, lost));
    this.#pages.add(res);
    res.on('close', () => {
      this.#pages.delete(res);
      if (this.#pages.size === 0) this.#stop();
    });
    this.#timer ??= setInterval(() => this.#tick(), TICK_MS);
    this.#timer.unref();
  }

  /** Ends every page's stream (the server is closing). */
  closeAll(): void {
    for (const res of this.#pages) res.end();
    this.#pages.clear();
    this.#stop();
  }

  #tick(): void {
    const { entries, lost } = this.#recorder.since(this.#sent);
    this.#sent = this.#recorder.seq;
    const message = this.#message('tick', [bucketOf(Date.now(), entries)], entries, lost);
    for (const res of this.#pages) send(res, message);
  }

  #stop(): void {
    if (this.#timer !== undefined) clearInterval(this.#timer);
    this.#timer = undefined;
  }

  #message(
    type: FeedMessage['type'],
    buckets: TrafficBucket[],
    entries: readonly TrafficEntry[],
    lost: number,
  ): FeedMessage {
    const recent = entries.slice(-RECENT).map((entry) => {
      if (this.#promptLogging || entry.prompt === undefined) return entry;
      const { prompt: _, ...rest } = entry;
      return rest;
    });
    return { type, buckets, recent, lost, promptLogging: this.#promptLogging };
  }
}

function send(res: ServerResponse, message: FeedMessage): void {
  if (!res.writableEnded) res.write(`data: ${JSON.stringify(message)}\n\n`);
}

/** Entries grouped by the second they ended in, oldest first. */
export function bySecond(entries: readonly TrafficEntry[]): TrafficBucket[] {
  const groups = new Map<number, TrafficEntry[]>();
  for (const entry of entries) {
    const second = Math.ceil(entry.at / 1000) * 1000;
    const group = groups.get(second);
    if (group === undefined) groups.set(second, [entry]);
    else group.push(entry);
  }
  return [...groups.entries()].sort(([a], [b]) => a - b).map(([t, list]) => bucketOf(t, list));
}

/** The bucket of some entries. */
export function bucketOf(t: number, entries: readonly TrafficEntry[]): TrafficBucket {
  const byTier: Record<string, number> = {};
  const byModel: Record<string, number> = {};
  const bySource: Record<string, number> = {};
  const byStatus: Record<string, number> = {};
  const upstreamErrors: Record<string, number> = {};
  const ms: number[] = [];
  const decide: number[] = [];
  let fallbacks = 0;
  let prompt = 0;
  let completion = 0;
  let usd = 0;
  let baselineUsd = 0;
  let costed = false;
  for (const e of entries) {
    add(byTier, e.tier);
    add(byModel, e.model);
    add(bySource, e.source);
    add(byStatus, statusClass(e.status));
    for (const reason of e.upstreamErrors) add(upstreamErrors, reason);
    fallbacks += e.fallbacks;
    ms.push(e.ms);
    decide.push(e.decideMs);
    if (e.usage) {
      prompt += e.usage.promptTokens;
      completion += e.usage.completionTokens;
    }
    if (e.cost) {
      costed = true;
      usd += e.cost.usd;
      baselineUsd += e.cost.baselineUsd;
    }
  }
  ms.sort((a, b) => a - b);
  decide.sort((a, b) => a - b);
  return {
    t,
    count: entries.length,
    byTier,
    byModel,
    bySource,
    byStatus,
    fallbacks,
    upstreamErrors,
    latency:
      ms.length === 0
        ? null
        : { p50: quantile(ms, 0.5), p90: quantile(ms, 0.9), p99: quantile(ms, 0.99) },
    decideP50: decide.length === 0 ? null : quantile(decide, 0.5),
    tokens: { prompt, completion },
    cost: costed ? { usd, baselineUsd } : null,
  };
}

function add(counts: Record<string, number>, key: string): void {
  counts[key] = (counts[key] ?? 0) + 1;
}

function statusClass(status: number): string {
  if (status === 499) return '499';
  return `${Math.floor(status / 100)}xx`;
}

/** The q-quantile of sorted values (nearest rank). */
function quantile(sorted: readonly number[], q: number): number {
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1))]!;
}
