import type { Admission, CheckAndAdd, CounterAddition, CounterStore } from './counter-store.js';

/** How many counters are written between two sweeps of expired ones. */
const SWEEP_EVERY = 1_024;

/**
 * A {@link CounterStore} in this process's memory: the default, for one instance. Operations run
 * synchronously within the event loop's turn, so each is atomic. Expired counters read as 0 and
 * are dropped on access and by a sweep every {@link SWEEP_EVERY} writes, so memory stays bounded
 * by the counters of the current windows.
 */
export class MemoryCounterStore implements CounterStore {
  readonly #counters = new Map<string, { value: number; expiresAt: number }>();
  readonly #now: () => number;
  #writes = 0;

  /** `now`: the clock (epoch ms), for tests. */
  constructor(now: () => number = Date.now) {
    this.#now = now;
  }

  /** Counters held (expired ones not yet swept included). */
  get size(): number {
    return this.#counters.size;
  }

  add(key: string, amount: number, expiresAt: number): Promise<number> {
    return Promise.resolve(this.#add(key, amount, expiresAt));
  }

  addAll(additions: readonly CounterAddition[]): Promise<void> {
    for (const { key, amount, expiresAt } of additions) this.#add(key, amount, expiresAt);
    return Promise.resolve();
  }

  get(key: string): Promise<number> {
    return Promise.resolve(this.#value(key));
  }

  checkAndAdd(key: string, amount: number, limit: number, expiresAt: number): Promise<CheckAndAdd> {
    return Promise.resolve(this.#checkAndAdd(key, amount, limit, expiresAt));
  }

  admit({ checks, take }: Admission): Promise<number | undefined> {
    const refused = checks.findIndex(({ key, limit }) => this.#value(key) >= limit);
    if (refused >= 0) return Promise.resolve(refused);
    if (take === undefined) return Promise.resolve(undefined);
    const { allowed } = this.#checkAndAdd(take.key, take.amount, take.limit, take.expiresAt);
    return Promise.resolve(allowed ? undefined : checks.length);
  }

  #value(key: string): number {
    return this.#live(key)?.value ?? 0;
  }

  #add(key: string, amount: number, expiresAt: number): number {
    const counter = this.#live(key);
    const value = (counter?.value ?? 0) + amount;
    this.#write(key, value, counter?.expiresAt ?? expiresAt);
    return value;
  }

  #checkAndAdd(key: string, amount: number, limit: number, expiresAt: number): CheckAndAdd {
    const counter = this.#live(key);
    const current = counter?.value ?? 0;
    if (current + amount > limit) return { allowed: false, total: current };
    this.#write(key, current + amount, counter?.expiresAt ?? expiresAt);
    return { allowed: true, total: current + amount };
  }

  #live(key: string): { value: number; expiresAt: number } | undefined {
    const counter = this.#counters.get(key);
    if (counter === undefined) return undefined;
    if (counter.expiresAt > this.#now()) return counter;
    this.#counters.delete(key);
    return undefined;
  }

  #write(key: string, value: number, expiresAt: number): void {
    this.#counters.set(key, { value, expiresAt });
    if (++this.#writes % SWEEP_EVERY === 0) this.#sweep();
  }

  #sweep(): void {
    const now = this.#now();
    for (const [key, counter] of this.#counters) {
      if (counter.expiresAt <= now) this.#counters.delete(key);
    }
  }
}
