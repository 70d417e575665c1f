import type { CounterStore } from '../state/counter-store.js';
import type { LimitSet, LimitsSection } from './config-costs.js';
import { HttpError } from './errors.js';

/**
 * Rate limits and budgets per client: requests and tokens per minute, spend per UTC day and per
 * UTC calendar month, in fixed windows kept in a {@link CounterStore}. A request is refused (429,
 * with `retry-after` until its window ends) when a limit is already reached; the request count is
 * taken atomically as it is admitted. Tokens and spend are only known once an answer is complete,
 * so they count afterwards: an answer that crosses a budget finishes, and the next request is
 * refused.
 */

const MINUTE_MS = 60_000;

/** One fixed window: its id (part of the counter's key) and when it ends (epoch ms). */
interface Window {
  readonly id: string;
  readonly endsAt: number;
}

function minuteOf(now: number): Window {
  const minute = Math.floor(now / MINUTE_MS);
  return { id: `m${minute}`, endsAt: (minute + 1) * MINUTE_MS };
}

function dayOf(now: number): Window {
  const date = new Date(now);
  const start = Date.UTC(date.getUTCFullYear(), date.getUTCMonth(), date.getUTCDate());
  return { id: `d${date.toISOString().slice(0, 10)}`, endsAt: start + 24 * 60 * MINUTE_MS };
}

function monthOf(now: number): Window {
  const date = new Date(now);
  const next = Date.UTC(date.getUTCFullYear(), date.getUTCMonth() + 1, 1);
  return { id: `M${date.toISOString().slice(0, 7)}`, endsAt: next };
}

/** Applies the configured limits of each client. */
export class Limits {
  #section: LimitsSection;
  readonly #store: CounterStore;
  readonly #now: () => number;

  constructor(section: LimitsSection, store: CounterStore, now: () => number = Date.now) {
    this.#section = section;
    this.#store = store;
    this.#now = now;
  }

  /** Takes the limits of a reloaded configuration; what was counted carries on. */
  configure(section: LimitsSection): void {
    this.#section = section;
  }

  /** Whether any limit is configured. */
  get enabled(): boolean {
    return this.#section.default !== undefined || Object.keys(this.#section.keys).length > 0;
  }

  /** The limits of a client label. */
  limitsOf(client: string): LimitSet | undefined {
    return this.#section.keys[client] ?? this.#section.default;
  }

  /** Admits one request of `client`, or throws a 429 {@link HttpError} saying which limit. */
  async admit(client: string): Promise<void> {
    const limits = this.limitsOf(client);
    if (limits === undefined) return;
    const now = this.#now();
    const minute = minuteOf(now);
    if (limits.spendPerMonthUsd !== undefined) {
      const month = monthOf(now);
      const spent = await this.#store.get(`spend:${client}:${month.id}`);
      if (spent >= limits.spendPerMonthUsd) {
        throw refusal(
          'budget_exceeded',
          `the monthly budget of $${limits.spendPerMonthUsd} is spent`,
          month,
          now,
        );
      }
    }
    if (limits.spendPerDayUsd !== undefined) {
      const day = dayOf(now);
      const spent = await this.#store.get(`spend:${client}:${day.id}`);
      if (spent >= limits.spendPerDayUsd) {
        throw refusal(
          'budget_exceeded',
          `the daily budget of $${limits.spendPerDayUsd} is spent`,
          day,
          now,
        );
      }
    }
    if (limits.tokensPerMinute !== undefined) {
      const used = await this.#store.get(`tokens:${client}:${minute.id}`);
      if (used >= limits.tokensPerMinute) {
        throw refusal(
          'rate_limit_exceeded',
          `the limit of ${limits.tokensPerMinute} tokens a minute is reached`,
          minute,
          now,
        );
      }
    }
    if (limits.requestsPerMinute !== undefined) {
      const taken = await this.#store.checkAndAdd(
        `requests:${client}:${minute.id}`,
        1,
        limits.requestsPerMinute,
        minute.endsAt,
      );
      if (!taken.allowed) {
        throw refusal(
          'rate_limit_exceeded',
          `the limit of ${limits.requestsPerMinute} requests a minute is reached`,
          minute,
          now,
        );
      }
    }
  }

  /** Counts what an answer of `client` used: its tokens and its cost. */
  async spend(client: string, tokens: number, usd: number): Promise<void> {
    const limits = this.limitsOf(client);
    if (limits === undefined) return;
    const now = this.#now();
    const pending: Promise<number>[] = [];
    if (limits.tokensPerMinute !== undefined && tokens > 0) {
      const minute = minuteOf(now);
      pending.push(this.#store.add(`tokens:${client}:${minute.id}`, tokens, minute.endsAt));
    }
    if (usd > 0) {
      if (limits.spendPerDayUsd !== undefined) {
        const day = dayOf(now);
        pending.push(this.#store.add(`spend:${client}:${day.id}`, usd, day.endsAt));
      }
      if (limits.spendPerMonthUsd !== undefined) {
        const month = monthOf(now);
        pending.push(this.#store.add(`spend:${client}:${month.id}`, usd, month.endsAt));
      }
    }
    await Promise.all(pending);
  }
}

/** The 429 of a reached limit, with `retry-after` in whole seconds until its window ends. */
function refusal(code: string, what: string, window: Window, now: number): HttpError {
  const seconds = Math.max(1, Math.ceil((window.endsAt - now) / 1000));
  return new HttpError(429, code, `${what} for this client key; retry after ${seconds} s`, {
    type: 'rate_limit_error',
    headers: { 'retry-after': String(seconds) },
  });
}
