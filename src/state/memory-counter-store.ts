import type { CheckAndAdd, CounterStore } from './counter-store.js';

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
    const counter = this.#live(key);
    const value = (counter?.value ?? 0) + amount;
    this.#write(key, value, counter?.expiresAt ?? expiresAt);
    return Promise.resolve(value);
  }

  get(key: string): Promise<number> {
    return Promise.resolve(this.#live(key)?.value ?? 0);
  }

  checkAndAdd(key: string, amount: number, limit: number, expiresAt: number): Promise<CheckAndAdd> {
    const counter = this.#live(key);
    const current = counter?.value ?? 0;
    if (current + amount > limit) return Promise.resolve({ allowed: false, total: current });
    this.#write(key, current + amount, counter?.expiresAt ?? expiresAt);
    return Promise.resolve({ allowed: true, total: current + amount });
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
