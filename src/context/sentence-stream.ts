import { type SentenceSplitter, sentenceSplitter } from './sentences.js';

/** Options of a {@link SentenceStream}. */
export interface SentenceStreamOptions {
  /** Stop after this many sentences; `null` or absent = no cap. */
  readonly maxSentences?: number | null;
  /**
   * Called once, when the cap cuts the answer: the moment to abort the upstream request (the
   * source's iterator is also closed, through its `return()`).
   */
  readonly onLimit?: (emitted: number) => void;
  /** The splitter (default: the shared one, which `limitSentences` also uses). */
  readonly splitter?: SentenceSplitter;
}

/**
 * The sentence cap while streaming (the original design, `brain.py`): text chunks in, whole sentences
 * out, as soon as each is known to be complete, for a text-to-speech engine or a UI.
 *
 * A sentence split across chunks is put back together; a possible end that needs the next
 * characters to be decided (`Dr.` or the end of a sentence? `3.` or `3.14`?) waits for them. With
 * `maxSentences`, the stream stops right after the last sentence allowed: it stops reading the
 * source (closing its iterator, which ends an SDK stream or a `fetch` body), sets
 * {@link limited}, and calls `onLimit`, so the caller can also abort the request and stop paying
 * for tokens nobody will hear. Sentences agree with `splitSentences` on the whole text, however
 * the text is chunked.
 *
 * ```ts
 * const sentences = new SentenceStream(llmTextChunks, { maxSentences: 2, onLimit: () => ac.abort() });
 * for await (const sentence of sentences) speak(sentence);
 * if (sentences.limited) log('answer cut at two sentences');
 * ```
 */
export class SentenceStream implements AsyncIterable<string> {
  readonly #source: AsyncIterable<string>;
  readonly #max: number;
  readonly #onLimit: ((emitted: number) => void) | undefined;
  readonly #splitter: SentenceSplitter;
  #emitted = 0;
  #limited = false;
  #started = false;

  constructor(source: AsyncIterable<string>, options: SentenceStreamOptions = {}) {
    const { maxSentences } = options;
    if (maxSentences !== undefined && maxSentences !== null && !(maxSentences >= 1)) {
      throw new RangeError(`maxSentences must be at least 1 or null, got ${maxSentences}`);
    }
    this.#source = source;
    this.#max = maxSentences ?? Number.POSITIVE_INFINITY;
    this.#onLimit = options.onLimit;
    this.#splitter = options.splitter ?? sentenceSplitter;
  }

  /** Sentences emitted so far. */
  get emitted(): number {
    return this.#emitted;
  }

  /**
   * True when the cap cut the answer: the stream stopped before the source ended (the rest was
   * not read), or the source ended with more sentences than the cap (they were dropped).
   */
  get limited(): boolean {
    return this.#limited;
  }

  [Symbol.asyncIterator](): AsyncIterator<string> {
    if (this.#started) throw new TypeError('a SentenceStream can be iterated only once');
    this.#started = true;
    return this.#sentences();
  }

  #limit(): void {
    this.#limited = true;
    this.#onLimit?.(this.#emitted);
  }

  async *#sentences(): AsyncGenerator<string> {
    let buffer = '';
    // Where the current sentence starts in `buffer`; the character before it is kept, because
    // the splitter looks back (is `1.` at the start of a line?).
    let start = 0;
    let scanFrom = 0;
    const splitter = this.#splitter;
    for await (const chunk of this.#source) {
      buffer += chunk;
      for (;;) {
        const found = splitter.nextBoundary(buffer, scanFrom, false);
        if (found.kind !== 'end') {
          scanFrom = found.kind === 'pending' ? found.at : buffer.length;
          break;
        }
        const sentence = buffer.slice(start, found.end).trim();
        const keep = Math.max(0, found.end - 1);
        buffer = buffer.slice(keep);
        start = found.end - keep;
        scanFrom = start;
        if (sentence === '') continue;
        this.#emitted++;
        yield sentence;
        if (this.#emitted >= this.#max) {
          this.#limit();
          return; // leaving the for-await closes the source's iterator
        }
      }
    }
    // The source ended: what is left is complete text.
    const rest = splitter.split(buffer, start);
    for (let k = 0; k < rest.length; k++) {
      this.#emitted++;
      yield rest[k]!;
      if (this.#emitted >= this.#max) {
        if (k + 1 < rest.length) this.#limit();
        return;
      }
    }
  }
}
