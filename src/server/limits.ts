import type { CounterAddition, CounterCheck, CounterStore } from '../state/counter-store.js';
import type { LimitSet, LimitsSection } from './config-costs.js';
import { HttpError } from './errors.js';

/**
 * Rate limits and budgets per client: requests and tokens per minute, spend per UTC day and per
 * UTC calendar month, in fixed windows kept in a {@link CounterStore}. A request is refused (429,
 * with `retry-after` until its window ends) when a limit is already reached; the budgets and the
 * tokens are checked and the request count taken in one atomic step of the store (one round trip
 * when it is Redis, shared by every instance: docs/instances.md). Tokens and spend are only known
 * once an answer is complete, so they count afterwards, in one more step nothing waits for: an
 * answer that crosses a budget finishes, and the next request is refused.
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

  /**
   * Admits one request of `client`, or throws a 429 {@link HttpError} saying which limit. The
   * budgets and the tokens a minute are checked and the request unit is taken in one atomic step
   * of the store (one round trip to Redis, which the request waits for).
   */
  async admit(client: string): Promise<void> {
    const limits = this.limitsOf(client);
    if (limits === undefined) return;
    const now = this.#now();
    const minute = minuteOf(now);
    // Each check carries the refusal it makes (the store reads its key and limit only).
    const checks: (CounterCheck & { refused(): HttpError })[] = [];
    const month = limits.spendPerMonthUsd;
    if (month !== undefined) {
      const window = monthOf(now);
      checks.push({
        key: `spend:${client}:${window.id}`,
        limit: month,
        refused: () =>
          refusal('budget_exceeded', `the monthly budget of $${month} is spent`, window, now),
      });
    }
    const day = limits.spendPerDayUsd;
    if (day !== undefined) {
      const window = dayOf(now);
      checks.push({
        key: `spend:${client}:${window.id}`,
        limit: day,
        refused: () =>
          refusal('budget_exceeded', `the daily budget of $${day} is spent`, window, now),
      });
    }
    const tokens = limits.tokensPerMinute;
    if (tokens !== undefined) {
      checks.push({
        key: `tokens:${client}:${minute.id}`,
        limit: tokens,
        refused: () =>
          refusal(
            'rate_limit_exceeded',
            `the limit of ${tokens} tokens a minute is reached`,
            minute,
            now,
          ),
      });
    }
    const perMinute = limits.requestsPerMinute;
    if (checks.length === 0 && perMinute === undefined) return;
    const refused = await this.#store.admit({
      checks,
      ...(perMinute === undefined
        ? {}
        : {
            take: {
              key: `requests:${client}:${minute.id}`,
              amount: 1,
              limit: perMinute,
              expiresAt: minute.endsAt,
            },
          }),
    });
    if (refused === undefined) return;
    throw (
      checks[refused]?.refused() ??
      refusal(
        'rate_limit_exceeded',
        `the limit of ${perMinute} requests a minute is reached`,
        minute,
        now,
      )
    );
  }

  /**
   * Counts what an answer of `client` used: its tokens and its cost, in one step of the store (one
   * round trip to Redis, which nothing waits for: the answer was sent).
   */
  spend(client: string, tokens: number, usd: number): Promise<void> {
    const limits = this.limitsOf(client);
    if (limits === undefined) return Promise.resolve();
    const now = this.#now();
    const additions: CounterAddition[] = [];
    if (limits.tokensPerMinute !== undefined && tokens > 0) {
      const minute = minuteOf(now);
      additions.push({
        key: `tokens:${client}:${minute.id}`,
        amount: tokens,
        expiresAt: minute.endsAt,
      });
    }
    if (usd > 0) {
      if (limits.spendPerDayUsd !== undefined) {
        const day = dayOf(now);
        additions.push({ key: `spend:${client}:${day.id}`, amount: usd, expiresAt: day.endsAt });
      }
      if (limits.spendPerMonthUsd !== undefined) {
        const month = monthOf(now);
        additions.push({
          key: `spend:${client}:${month.id}`,
          amount: usd,
          expiresAt: month.endsAt,
        });
      }
    }
    return additions.length === 0 ? Promise.resolve() : this.#store.addAll(additions);
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
