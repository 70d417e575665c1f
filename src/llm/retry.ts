/** When and how long to wait before trying an LLM call again. */
export interface RetryPolicy {
  /** Retries after the first attempt (0 = no retry). */
  readonly maxRetries: number;
  /** The first backoff, in milliseconds; it doubles on each retry. */
  readonly baseMs: number;
  /** The longest backoff, in milliseconds. */
  readonly maxMs: number;
  /** Source of jitter in [0, 1). Default `Math.random`. */
  readonly random?: () => number;
}

/**
 * The wait before retry number `retry` (0 for the first): exponential, capped, with "equal
 * jitter": half of the capped delay is fixed, half random, so that clients failing together do
 * not retry together, yet never retry at once.
 */
export function backoffMs(retry: number, policy: RetryPolicy): number {
  const ceiling = Math.min(policy.maxMs, policy.baseMs * 2 ** retry);
  return ceiling / 2 + (policy.random ?? Math.random)() * (ceiling / 2);
}

/**
 * The wait a response asks for, in milliseconds: `retry-after-ms` (OpenAI, Azure), else
 * `Retry-After` as seconds or as an HTTP date. `undefined` when absent or unreadable.
 */
export function retryAfterMs(
  headers: Readonly<Record<string, string | string[] | undefined>>,
  now = Date.now(),
): number | undefined {
  const ms = first(headers['retry-after-ms']);
  if (ms !== undefined && /^\d+(\.\d+)?$/.test(ms.trim())) return Number(ms);
  const value = first(headers['retry-after'])?.trim();
  if (!value) return undefined;
  if (/^\d+(\.\d+)?$/.test(value)) return Number(value) * 1000;
  // An HTTP date names a weekday and a month; without letters `Date.parse` reads "-1" as a year.
  if (!/[A-Za-z]/.test(value)) return undefined;
  const date = Date.parse(value);
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}

function first(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}
