import { createRequire } from 'node:module';
import type { Redis } from 'ioredis';

/**
 * ioredis, loaded when the first link is made: its modules take about 100 ms to load, which a
 * server keeping its state in memory (the default) should not pay at start.
 */
function redisClass(): typeof Redis {
  const require = createRequire(import.meta.url);
  return (require('ioredis') as typeof import('ioredis')).Redis;
}

/**
 * The connection to the Redis (or Valkey) that several triage instances share their state through,
 * and the rule every shared part follows when it is not there: **a failure of Redis never fails a
 * request.** Each operation is tried against Redis only while the link is up, under a short time
 * limit; when the link is down, or the operation fails or is late, the part's local answer (its
 * in-memory state) is used instead. The first failure marks the link down and is reported once
 * ({@link RedisLinkEvents.down}); every operation answered locally meanwhile is counted
 * ({@link RedisLinkEvents.fallback}); the client reconnects in the background, and the link is up
 * again ({@link RedisLinkEvents.up}) as soon as Redis answers.
 */

/** Where the shared state is kept. */
export interface RedisLinkOptions {
  /** `redis://[user:password@]host:port[/db]` or `rediss://…` (TLS). */
  readonly url: string;
  /** Put before every key, so that several deployments can share one Redis. */
  readonly keyPrefix: string;
  /** Longest wait for one operation, in milliseconds, before the local state answers. */
  readonly timeoutMs: number;
}

/** What the link tells its owner (logs and metrics); none of it carries the URL (a secret). */
export interface RedisLinkEvents {
  /** Redis became unreachable (or an operation failed): said once per outage. */
  down?(error: Error): void;
  /** Redis answers again. */
  up?(): void;
  /** One operation of `part` was answered from local state. */
  fallback?(part: string): void;
}

/** How often a connection that stopped answering is asked again, in milliseconds. */
const PROBE_EVERY_MS = 250;

/** Longest pause between two reconnection attempts, in milliseconds. */
const MAX_RECONNECT_DELAY_MS = 1_000;

/** A shared-state connection with a local fallback for every operation. */
export class RedisLink {
  /** The client; keys given to it are prefixed with the configured `keyPrefix`. */
  readonly client: Redis;
  readonly #events: RedisLinkEvents;
  #up = false;
  #closed = false;
  /** Whether the current outage was reported (once per outage, and once at start). */
  #downReported = false;
  #probe: NodeJS.Timeout | undefined;

  constructor(options: RedisLinkOptions, events: RedisLinkEvents = {}) {
    this.#events = events;
    const RedisClient = redisClass();
    this.client = new RedisClient(options.url, {
      keyPrefix: options.keyPrefix,
      // A command while disconnected fails at once (the local state answers) instead of
      // waiting in a queue that would hold the request.
      enableOfflineQueue: false,
      maxRetriesPerRequest: 0,
      commandTimeout: options.timeoutMs,
      connectTimeout: Math.max(1_000, options.timeoutMs),
      // Reconnect forever, soon: instances should see Redis again within a second of its return.
      retryStrategy: (attempt) => Math.min(50 * attempt, MAX_RECONNECT_DELAY_MS),
    });
    this.client.on('ready', () => this.#markUp());
    this.client.on('error', (error: Error) => this.#fail(error));
    this.client.on('close', () => {
      if (!this.#closed) this.#fail(new Error('connection to Redis closed'));
    });
  }

  /** Whether Redis answered last time it was asked (and is connected). */
  get up(): boolean {
    return this.#up;
  }

  /** Resolves once Redis answers, or after `timeoutMs`, with whether it is up. */
  async ready(timeoutMs: number): Promise<boolean> {
    if (this.#up) return true;
    return new Promise((resolve) => {
      const done = (value: boolean) => {
        clearTimeout(timer);
        this.client.off('ready', onReady);
        resolve(value);
      };
      const onReady = () => done(true);
      const timer = setTimeout(() => done(this.#up), timeoutMs);
      this.client.on('ready', onReady);
    });
  }

  /**
   * `shared(redis)` when Redis is up and answers in time; otherwise `local()`, counted as a
   * fallback of `part`. Never rejects because of Redis (only when `local` itself throws).
   */
  async attempt<T>(
    part: string,
    shared: (redis: Redis) => Promise<T>,
    local: () => T | Promise<T>,
  ): Promise<T> {
    if (this.#up) {
      try {
        return await shared(this.client);
      } catch (error) {
        this.#fail(error as Error);
      }
    }
    this.#events.fallback?.(part);
    return local();
  }

  /**
   * Runs `shared(redis)` in the background when Redis is up, for writes whose result the request
   * does not wait for; a failure marks the link down like any other.
   */
  send(shared: (redis: Redis) => Promise<unknown>): void {
    if (!this.#up) return;
    shared(this.client).catch((error: unknown) => this.#fail(error as Error));
  }

  /** Closes the connection (what was written stays in Redis). */
  async close(): Promise<void> {
    this.#closed = true;
    this.#up = false;
    this.#stopProbing();
    try {
      await this.client.quit();
    } catch {
      this.client.disconnect();
    }
  }

  #markUp(): void {
    this.#stopProbing();
    if (this.#up || this.#closed) return;
    this.#up = true;
    this.#downReported = false;
    this.#events.up?.();
  }

  #fail(error: Error): void {
    if (this.#closed) return;
    this.#up = false;
    if (!this.#downReported) {
      this.#downReported = true;
      this.#events.down?.(error);
    }
    // A late or failed command on a connection that stays open brings no new `ready` event:
    // ask Redis until it answers again.
    if (this.client.status === 'ready') this.#startProbing();
  }

  #startProbing(): void {
    if (this.#probe !== undefined) return;
    this.#probe = setInterval(() => {
      this.client.ping().then(
        () => this.#markUp(),
        () => {},
      );
    }, PROBE_EVERY_MS);
    this.#probe.unref();
  }

  #stopProbing(): void {
    clearInterval(this.#probe);
    this.#probe = undefined;
  }
}
