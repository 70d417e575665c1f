import type { Redis } from 'ioredis';
import type { Admission, CheckAndAdd, CounterAddition, CounterStore } from './counter-store.js';
import { MemoryCounterStore } from './memory-counter-store.js';
import type { RedisLink } from './redis-link.js';

/**
 * A {@link CounterStore} in Redis, shared by every instance pointed at it. Each operation is one
 * Lua script (one round trip, atomic: Redis runs a script with nothing in between), so that N
 * instances admitting at once never take more than a limit between them. Counters are
 * `INCRBYFLOAT` values (spend is fractional) that expire at the end of their window (`PEXPIREAT`,
 * set when a counter is created). While Redis is away every operation answers from this
 * instance's own memory (see {@link RedisLink}): the `limits` part of the fallback metrics.
 */

/**
 * Lua: adds ARGV `amount` to KEYS `key`, setting its expiry when this created it (a counter made
 * by INCRBYFLOAT has none, PTTL -1); keeps the expiry of a counter that exists. Returns the new
 * value (a string: Redis would truncate a Lua number to an integer).
 */
const ADD = `
local function add(key, amount, expiresAt)
  local total = redis.call('INCRBYFLOAT', key, amount)
  if redis.call('PTTL', key) == -1 then redis.call('PEXPIREAT', key, expiresAt) end
  return total
end
local function value(key)
  return tonumber(redis.call('GET', key) or '0')
end
`;

/** KEYS: counters; ARGV: amount and expiresAt of each, in pairs. Returns the new values. */
const ADD_ALL = `${ADD}
local totals = {}
for i, key in ipairs(KEYS) do totals[i] = add(key, ARGV[2 * i - 1], ARGV[2 * i]) end
return totals
`;

/** KEYS[1]: the counter; ARGV: amount, limit, expiresAt. Returns {added (0|1), value}. */
const CHECK_AND_ADD = `${ADD}
local current = value(KEYS[1])
if current + tonumber(ARGV[1]) > tonumber(ARGV[2]) then return {0, tostring(current)} end
return {1, add(KEYS[1], ARGV[1], ARGV[3])}
`;

/**
 * KEYS: the checked counters, then the taken one when ARGV[1] is '1'. ARGV: that flag, each
 * check's limit, then the take's amount, limit and expiresAt. Returns the index of the step that
 * refused, or -1 when admitted.
 */
const ADMIT = `${ADD}
local checks = #KEYS - tonumber(ARGV[1])
for i = 1, checks do
  if value(KEYS[i]) >= tonumber(ARGV[i + 1]) then return i - 1 end
end
if checks == #KEYS then return -1 end
local key = KEYS[#KEYS]
local amount = ARGV[checks + 2]
if value(key) + tonumber(amount) > tonumber(ARGV[checks + 3]) then return checks end
add(key, amount, ARGV[checks + 4])
return -1
`;

/** The scripts, as ioredis defines them on the client (keys first, after their count). */
interface CounterScripts {
  triageCountersAddAll(keys: number, ...args: (string | number)[]): Promise<string[]>;
  triageCountersCheckAndAdd(
    keys: 1,
    key: string,
    amount: number,
    limit: number,
    expiresAt: number,
  ): Promise<[number, string]>;
  triageCountersAdmit(keys: number, ...args: (string | number)[]): Promise<number>;
}

function scripts(redis: Redis): CounterScripts {
  return redis as unknown as CounterScripts;
}

/** Counters shared through Redis, with this instance's memory answering while Redis is away. */
export class RedisCounterStore implements CounterStore {
  readonly #link: RedisLink;
  readonly #local: CounterStore;

  /** `local`: the counters used while Redis is away (default: a fresh memory store). */
  constructor(link: RedisLink, local: CounterStore = new MemoryCounterStore()) {
    this.#link = link;
    this.#local = local;
    // Sent as EVALSHA, with the script itself when Redis does not know it yet (also after a
    // restart of Redis).
    link.client.defineCommand('triageCountersAddAll', { lua: ADD_ALL });
    link.client.defineCommand('triageCountersCheckAndAdd', { lua: CHECK_AND_ADD });
    link.client.defineCommand('triageCountersAdmit', { lua: ADMIT });
  }

  add(key: string, amount: number, expiresAt: number): Promise<number> {
    return this.#link.attempt(
      'limits',
      async (redis) =>
        Number((await scripts(redis).triageCountersAddAll(1, key, amount, expiresAt))[0]),
      () => this.#local.add(key, amount, expiresAt),
    );
  }

  addAll(additions: readonly CounterAddition[]): Promise<void> {
    if (additions.length === 0) return Promise.resolve();
    return this.#link.attempt(
      'limits',
      async (redis) => {
        const keys = additions.map(({ key }) => key);
        const args = additions.flatMap(({ amount, expiresAt }) => [amount, expiresAt]);
        await scripts(redis).triageCountersAddAll(keys.length, ...keys, ...args);
      },
      () => this.#local.addAll(additions),
    );
  }

  get(key: string): Promise<number> {
    return this.#link.attempt(
      'limits',
      async (redis) => Number((await redis.get(key)) ?? 0),
      () => this.#local.get(key),
    );
  }

  checkAndAdd(key: string, amount: number, limit: number, expiresAt: number): Promise<CheckAndAdd> {
    return this.#link.attempt(
      'limits',
      async (redis) => {
        const [added, total] = await scripts(redis).triageCountersCheckAndAdd(
          1,
          key,
          amount,
          limit,
          expiresAt,
        );
        return { allowed: added === 1, total: Number(total) };
      },
      () => this.#local.checkAndAdd(key, amount, limit, expiresAt),
    );
  }

  admit(admission: Admission): Promise<number | undefined> {
    return this.#link.attempt(
      'limits',
      async (redis) => {
        const { checks, take } = admission;
        const keys = checks.map(({ key }) => key);
        const args: (string | number)[] = [take === undefined ? 0 : 1];
        for (const { limit } of checks) args.push(limit);
        if (take !== undefined) {
          keys.push(take.key);
          args.push(take.amount, take.limit, take.expiresAt);
        }
        const refused = await scripts(redis).triageCountersAdmit(keys.length, ...keys, ...args);
        return refused < 0 ? undefined : refused;
      },
      () => this.#local.admit(admission),
    );
  }
}
