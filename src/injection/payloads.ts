import { clearArray } from '../core/arrays.js';
import type { SignalKind } from './types.js';

/**
 * Hidden payloads found outside the structural pass (markup, Morse code, pig Latin, strings
 * meant to be joined, reversed clauses): each is read again by the nested analyzer, like a
 * decoded base64 run, and reported with the inner signal's label at the payload's offsets.
 */

/** One payload to read again. */
export interface Payload {
  /** What it is, e.g. `HTML comment`; the signal's label starts with it. */
  readonly name: string;
  readonly kind: SignalKind;
  /** Offsets of the payload in the text. */
  readonly start: number;
  readonly end: number;
  /** The payload as readable text (decoded, joined, unwrapped). */
  readonly text: string;
  /** Read as data (a document) whatever the text's source: hidden markup is never the user's voice. */
  readonly asData: boolean;
  /** Weight of the payload's mere presence when what it hides is an instruction (0–1). */
  readonly base: number;
  /**
   * Whether its pieces were joined without spaces, so that words may run together
   * (`forgetyourrules`), which the keyword scan cannot split: attack stems count too.
   */
  readonly runTogether?: boolean;
}

/** Most payloads kept per text: enough for any real attack, bounded for hostile input. */
const MAX_PAYLOADS = 16;

/** The payloads of one text, reused between texts. */
export class PayloadList {
  readonly #items: Payload[] = [];

  get size(): number {
    return this.#items.length;
  }

  get items(): readonly Payload[] {
    return this.#items;
  }

  clear(): void {
    clearArray(this.#items);
  }

  /** Adds a payload (ignored beyond the limit, or when it is empty). */
  add(payload: Payload): void {
    if (this.#items.length < MAX_PAYLOADS && payload.text.trim().length > 0) {
      this.#items.push(payload);
    }
  }
}
