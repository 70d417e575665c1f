/**
 * Periodicity at the tail of a sequence of action keys, kept up to date one key at a time.
 *
 * For every candidate cycle length L (1 … maxLength) it keeps `run[L]`: how many keys in a row at
 * the tail equal the key L places before them. The last `run[L] + L` keys are then L-periodic,
 * i.e. a cycle of L actions repeated back to back. Appending a key costs O(maxLength) and never
 * looks further back than maxLength keys.
 */
export class CycleTracker {
  readonly maxLength: number;
  readonly #keys: Float64Array;
  readonly #runs: Int32Array;
  #count = 0;

  constructor(maxLength: number) {
    this.maxLength = maxLength;
    this.#keys = new Float64Array(maxLength + 1);
    this.#runs = new Int32Array(maxLength + 1);
  }

  /** Keys appended so far. */
  get count(): number {
    return this.#count;
  }

  /** Appends the next key. */
  push(key: number): void {
    const keys = this.#keys;
    const runs = this.#runs;
    const size = keys.length;
    const n = this.#count;
    for (let length = 1; length <= this.maxLength; length++) {
      runs[length] = n >= length && keys[(n - length) % size] === key ? runs[length]! + 1 : 0;
    }
    keys[n % size] = key;
    this.#count = n + 1;
  }

  /** How many keys at the tail are L-periodic (0 when fewer than L keys were seen). */
  span(length: number): number {
    return this.#count >= length ? this.#runs[length]! + length : 0;
  }

  /** Complete repetitions of the last L keys at the tail. */
  repetitions(length: number): number {
    return Math.floor(this.span(length) / length);
  }

  /**
   * Whether the cycle of length L at the tail is primitive: not itself a shorter cycle repeated
   * (A,A is A twice; A,B,A,B is A,B twice). When the tail is L-periodic over at least 2L keys and
   * its last L keys are d-periodic for a divisor d of L, the whole span is d-periodic, so the
   * run counters answer without looking at keys.
   */
  isPrimitive(length: number): boolean {
    const span = this.span(length);
    for (let d = 1; d < length; d++) {
      if (length % d === 0 && this.span(d) >= span) return false;
    }
    return true;
  }
}
