import {
  type Admission,
  type AttemptKind,
  type BreakerListener,
  type BreakerSettings,
  type BreakerState,
  DEFAULT_BREAKER,
  type UpstreamBreaker,
  type Verdict,
} from './breaker-store.js';

/** One model's breaker. */
interface Entry {
  /** Unhealthy attempts in a row, while closed. */
  failures: number;
  /** When it opened (epoch ms); `undefined` while closed. */
  openedAt: number | undefined;
  /**
   * Until when the probe let through is out (epoch ms; 0: none). Only the probe's own report or
   * the end of its lease ends it, whatever happens to the breaker meanwhile, so that there is
   * never more than one probe out and a probe's report always refers to it.
   */
  probeUntil: number;
  /** The number of the last report about it (see {@link MemoryBreaker.reportsMade}). */
  lastReport: number;
}

/**
 * The breakers in this process's memory: the default, for one instance, and the local state of
 * the Redis-backed ones (which also adopt what the other instances found, {@link adopt}).
 * Entries are made for the models requests try, whose ids come from the configuration: their
 * number is bounded by it.
 */
export class MemoryBreaker implements UpstreamBreaker {
  readonly #entries = new Map<string, Entry>();
  readonly #listeners: BreakerListener[] = [];
  readonly #now: () => number;
  #settings: BreakerSettings = DEFAULT_BREAKER;
  #reports = 0;

  /** `now`: the clock (epoch ms), for tests. */
  constructor(now: () => number = Date.now) {
    this.#now = now;
  }

  /** The rules in force. */
  get settings(): BreakerSettings {
    return this.#settings;
  }

  /** The clock. */
  now(): number {
    return this.#now();
  }

  /** Reports made so far: a snapshot taken before a report must not undo it. */
  get reportsMade(): number {
    return this.#reports;
  }

  configure(settings: BreakerSettings): void {
    this.#settings = settings;
    if (!settings.enabled) {
      for (const [model, entry] of this.#entries) this.#close(model, entry, false);
    }
  }

  onChange(listener: BreakerListener): void {
    this.#listeners.push(listener);
  }

  admit(model: string, leaseMs: number): Admission {
    if (!this.#settings.enabled) return 'pass';
    const entry = this.#entry(model);
    if (entry.openedAt === undefined) return 'pass';
    const now = this.#now();
    if (now < entry.openedAt + this.#settings.openMs || now < entry.probeUntil) return 'skip';
    entry.probeUntil = now + leaseMs;
    return 'probe';
  }

  report(model: string, kind: AttemptKind, verdict: Verdict): void {
    const entry = this.#entry(model);
    // The probe is back (when nothing was learned, the next request probes instead).
    if (kind === 'probe') entry.probeUntil = 0;
    if (!this.#settings.enabled || verdict === 'unknown') return;
    entry.lastReport = ++this.#reports;
    if (verdict === 'healthy') {
      entry.failures = 0;
      this.#close(model, entry, false);
      return;
    }
    if (entry.openedAt !== undefined) {
      // Only an attempt made while open says anything new; others were let through before it
      // opened and merely confirm it.
      if (kind === 'probe' || kind === 'forced') this.#open(model, entry, false);
      return;
    }
    if (++entry.failures >= this.#settings.failures) this.#open(model, entry, false);
  }

  openedAt(model: string): number | undefined {
    return this.#entries.get(model)?.openedAt;
  }

  state(model: string): BreakerState {
    const entry = this.#entries.get(model);
    if (entry?.openedAt === undefined) return 'closed';
    return this.#now() < entry.openedAt + this.#settings.openMs ? 'open' : 'half_open';
  }

  *states(): Iterable<readonly [string, BreakerState]> {
    for (const model of this.#entries.keys()) yield [model, this.state(model)];
  }

  /** The models seen so far. */
  models(): Iterable<string> {
    return this.#entries.keys();
  }

  /** Unhealthy attempts in a row of `model`, while closed. */
  failures(model: string): number {
    return this.#entries.get(model)?.failures ?? 0;
  }

  /** Whether a healthy report about `model` would change nothing here. */
  isQuiet(model: string): boolean {
    const entry = this.#entries.get(model);
    return entry === undefined || (entry.failures === 0 && entry.openedAt === undefined);
  }

  /** The number of the last report about `model` (0: none). */
  lastReport(model: string): number {
    return this.#entries.get(model)?.lastReport ?? 0;
  }

  /** Another instance holds `model`'s probe: skip it here until `until` (epoch ms). */
  holdProbe(model: string, until: number): void {
    this.#entry(model).probeUntil = until;
  }

  /**
   * Takes the state the instances share for `model`: its failures in a row, and when it opened
   * (`undefined`: closed). Said to the listeners as `shared` when it opens or closes it here.
   */
  adopt(model: string, failures: number, openedAt: number | undefined): void {
    const entry = this.#entry(model);
    entry.failures = failures;
    if (openedAt === undefined) this.#close(model, entry, true);
    else if (entry.openedAt !== openedAt) {
      const opening = entry.openedAt === undefined;
      entry.openedAt = openedAt;
      if (opening) this.#tell(model, 'open', true);
    }
  }

  close(): void {}

  #entry(model: string): Entry {
    let entry = this.#entries.get(model);
    if (entry === undefined) {
      entry = { failures: 0, openedAt: undefined, probeUntil: 0, lastReport: 0 };
      this.#entries.set(model, entry);
    }
    return entry;
  }

  #open(model: string, entry: Entry, shared: boolean): void {
    entry.openedAt = this.#now();
    entry.failures = 0;
    this.#tell(model, 'open', shared);
  }

  #close(model: string, entry: Entry, shared: boolean): void {
    if (entry.openedAt === undefined) return;
    entry.openedAt = undefined;
    entry.failures = 0;
    this.#tell(model, 'closed', shared);
  }

  #tell(model: string, state: 'open' | 'closed', shared: boolean): void {
    for (const listener of this.#listeners) listener(model, state, shared);
  }
}
