import { randomUUID } from 'node:crypto';
import type {
  Admission,
  AttemptKind,
  BreakerListener,
  BreakerSettings,
  BreakerState,
  UpstreamBreaker,
  Verdict,
} from './breaker-store.js';
import { MemoryBreaker } from './memory-breaker.js';
import type { RedisLink } from './redis-link.js';

/**
 * The breakers shared by every instance through Redis. The request path reads them from this
 * instance's memory, never from Redis, except to claim the one probe of a half-open model
 * (`SET NX PX`: one round trip, once per model every `openMs` at most). What each attempt says
 * is written to Redis in the background (one Lua script each: failures in a row, and the opening
 * at the threshold, are counted there atomically for all instances), and the shared state is read
 * back every {@link REFRESH_MS} in one round trip for all models: an upstream found dead by one
 * instance is skipped by all within a fraction of a second. A healthy answer is written only when
 * it changes something (a model with failures counted, or open): not one write per request.
 *
 * While Redis is away the instance's own breakers carry on alone (every refresh answered locally
 * is counted as a fallback of `breaker`); when it is back, the shared state wins again.
 *
 * Keys (under the link's prefix): the hash `breaker:open` (model → when it opened, epoch ms of
 * the instance that opened it: instances' clocks should agree well within `openMs`), the hash
 * `breaker:failures` (model → unhealthy attempts in a row), and `breaker:probe:<model>` (the
 * probe out, expiring with its lease).
 */

/** How often the shared state is read, in milliseconds. */
export const REFRESH_MS = 250;

const OPEN = 'breaker:open';
const FAILURES = 'breaker:failures';
const probeKey = (model: string) => `breaker:probe:${model}`;

/** Releases the probe's key when it is still the one this instance holds. */
const RELEASE = `if ARGV[1] ~= '' and redis.call('GET', KEYS[1]) == ARGV[1] then
  redis.call('DEL', KEYS[1])
end`;

const VIEW = {
  numberOfKeys: 2,
  lua: `return {redis.call('HGETALL', KEYS[1]), redis.call('HGETALL', KEYS[2])}`,
};

/** KEYS: open, failures, probe. ARGV: model, threshold, reopen ('1': a probe or forced), now, token. */
const FAIL = {
  numberOfKeys: 3,
  lua: `${RELEASE.replaceAll('ARGV[1]', 'ARGV[5]').replaceAll('KEYS[1]', 'KEYS[3]')}
if redis.call('HEXISTS', KEYS[1], ARGV[1]) == 1 then
  if ARGV[3] == '1' then redis.call('HSET', KEYS[1], ARGV[1], ARGV[4]) end
  return 0
end
if redis.call('HINCRBY', KEYS[2], ARGV[1], 1) >= tonumber(ARGV[2]) then
  redis.call('HSET', KEYS[1], ARGV[1], ARGV[4])
  redis.call('HDEL', KEYS[2], ARGV[1])
  return 1
end
return 0`,
};

/** KEYS: open, failures, probe. ARGV: model, token. */
const SUCCEED = {
  numberOfKeys: 3,
  lua: `${RELEASE.replaceAll('ARGV[1]', 'ARGV[2]').replaceAll('KEYS[1]', 'KEYS[3]')}
redis.call('HDEL', KEYS[2], ARGV[1])
return redis.call('HDEL', KEYS[1], ARGV[1])`,
};

/** The scripts, as ioredis defines them on the client. */
interface BreakerScripts {
  triageBreakerView(open: string, failures: string): Promise<[string[], string[]]>;
  triageBreakerFail(
    open: string,
    failures: string,
    probe: string,
    model: string,
    threshold: number,
    reopen: string,
    now: number,
    token: string,
  ): Promise<number>;
  triageBreakerSucceed(
    open: string,
    failures: string,
    probe: string,
    model: string,
    token: string,
  ): Promise<number>;
  triageBreakerRelease(probe: string, token: string): Promise<unknown>;
}

/** Breakers shared through Redis, with this instance's memory as their local state. */
export class RedisBreaker implements UpstreamBreaker {
  readonly #link: RedisLink;
  readonly #local: MemoryBreaker;
  /** The token of each probe this instance holds in Redis. */
  readonly #probes = new Map<string, string>();
  readonly #timer: NodeJS.Timeout;
  #refreshing = false;

  /** `now`: the clock (epoch ms), for tests. */
  constructor(link: RedisLink, now: () => number = Date.now) {
    this.#link = link;
    this.#local = new MemoryBreaker(now);
    const client = link.client;
    client.defineCommand('triageBreakerView', VIEW);
    client.defineCommand('triageBreakerFail', FAIL);
    client.defineCommand('triageBreakerSucceed', SUCCEED);
    client.defineCommand('triageBreakerRelease', { numberOfKeys: 1, lua: RELEASE });
    this.#timer = setInterval(() => void this.refresh(), REFRESH_MS);
    this.#timer.unref();
  }

  configure(settings: BreakerSettings): void {
    this.#local.configure(settings);
  }

  onChange(listener: BreakerListener): void {
    this.#local.onChange(listener);
  }

  admit(model: string, leaseMs: number): Admission | Promise<Admission> {
    const local = this.#local.admit(model, leaseMs);
    if (local !== 'probe') return local;
    const token = randomUUID();
    return this.#link.attempt(
      'breaker',
      async (redis) => {
        if ((await redis.set(probeKey(model), token, 'PX', leaseMs, 'NX')) === 'OK') {
          this.#probes.set(model, token);
          return 'probe';
        }
        // Another instance's probe is out: ask again at the next refresh at the earliest.
        this.#local.holdProbe(model, this.#local.now() + REFRESH_MS);
        return 'skip';
      },
      () => 'probe',
    );
  }

  report(model: string, kind: AttemptKind, verdict: Verdict): void {
    const token = kind === 'probe' ? (this.#probes.get(model) ?? '') : '';
    if (kind === 'probe') this.#probes.delete(model);
    const quiet = this.#local.isQuiet(model);
    this.#local.report(model, kind, verdict);
    if (!this.#local.settings.enabled) return;
    // Nothing to tell the others: nothing learned and no probe to hand back, or a healthy answer
    // of a model with nothing counted.
    if (verdict === 'unknown' && token === '') return;
    if (verdict === 'healthy' && quiet && token === '') return;
    const probe = probeKey(model);
    this.#link.send((redis) => {
      const scripts = redis as unknown as BreakerScripts;
      if (verdict === 'unknown') return scripts.triageBreakerRelease(probe, token);
      if (verdict === 'healthy') {
        return scripts.triageBreakerSucceed(OPEN, FAILURES, probe, model, token);
      }
      const reopen = kind === 'probe' || kind === 'forced' ? '1' : '0';
      const { failures } = this.#local.settings;
      const now = this.#local.now();
      return scripts.triageBreakerFail(OPEN, FAILURES, probe, model, failures, reopen, now, token);
    });
  }

  openedAt(model: string): number | undefined {
    return this.#local.openedAt(model);
  }

  states(): Iterable<readonly [string, BreakerState]> {
    return this.#local.states();
  }

  /**
   * Reads the shared state into this instance's memory (every {@link REFRESH_MS}, and whenever
   * called), except for models this instance reported on since the read was sent: the next read
   * includes those reports.
   */
  async refresh(): Promise<void> {
    if (this.#refreshing || !this.#local.settings.enabled) return;
    this.#refreshing = true;
    try {
      const since = this.#local.reportsMade;
      const view = await this.#link.attempt(
        'breaker',
        (redis) => (redis as unknown as BreakerScripts).triageBreakerView(OPEN, FAILURES),
        () => undefined,
      );
      if (view === undefined) return;
      const opened = pairs(view[0]);
      const failures = pairs(view[1]);
      const models = new Set([...this.#local.models(), ...opened.keys(), ...failures.keys()]);
      for (const model of models) {
        if (this.#local.lastReport(model) > since) continue;
        this.#local.adopt(model, failures.get(model) ?? 0, opened.get(model));
      }
    } finally {
      this.#refreshing = false;
    }
  }

  close(): void {
    clearInterval(this.#timer);
  }
}

/** A flat `HGETALL` answer as a map of numbers. */
function pairs(flat: readonly string[]): Map<string, number> {
  const map = new Map<string, number>();
  for (let i = 0; i + 1 < flat.length; i += 2) map.set(flat[i] as string, Number(flat[i + 1]));
  return map;
}
