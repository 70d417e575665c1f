import { TriageError } from '../core/errors.js';

/**
 * One pass over the bytes of a JSON request body, before `JSON.parse` sees them: it rejects
 * bodies whose nesting or number of values would make parsing costly (10 MB of nested arrays
 * blocks `JSON.parse`, and the event loop with it, for seconds), and finds what the proxy needs
 * from the body's bytes: where the top-level `model` value lies, and how many top-level keys spell
 * `model`. Strings are skipped, not read (a prompt goes to `Buffer.indexOf`), so the pass costs
 * about a microsecond for a usual request.
 *
 * The bytes need not be valid JSON: the scan never fails on bad input, it only stops early when
 * a limit is passed, and `JSON.parse` judges validity afterwards.
 */

/** Where a value lies in a buffer: `[start, end)`. */
export interface ByteSpan {
  readonly start: number;
  readonly end: number;
}

/** What the scan found. */
export interface JsonShape {
  /** The value of the last top-level `model` key (the one `JSON.parse` keeps), if any. */
  readonly modelValue: ByteSpan | undefined;
  /** How many keys of the top-level object spell `model` (escapes decoded). */
  readonly modelKeys: number;
}

/** How complex a body may be. */
export interface JsonLimits {
  /** Deepest nesting of arrays and objects (the top-level object is level 1). */
  readonly maxDepth: number;
  /** Most values (arrays, objects and the elements and members inside them). */
  readonly maxValues: number;
}

/** No limit: for bodies already accepted. */
const UNLIMITED: JsonLimits = {
  maxDepth: Number.POSITIVE_INFINITY,
  maxValues: Number.POSITIVE_INFINITY,
};

/** A body past a {@link JsonLimits} limit. */
export class JsonTooComplexError extends TriageError {
  readonly limit: 'depth' | 'values';

  constructor(limit: 'depth' | 'values', limits: JsonLimits) {
    super(
      'json_too_complex',
      limit === 'depth'
        ? `request body nests deeper than ${limits.maxDepth} levels`
        : `request body holds more than ${limits.maxValues} values`,
    );
    this.limit = limit;
  }
}

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const OPEN_BRACE = 0x7b;
const CLOSE_BRACE = 0x7d;
const OPEN_BRACKET = 0x5b;
const CLOSE_BRACKET = 0x5d;
const COMMA = 0x2c;
const COLON = 0x3a;
const MODEL_KEY = Buffer.from('"model"');

/**
 * Scans `raw`; throws a {@link JsonTooComplexError} as soon as a limit is passed. Values are
 * counted as the arrays and objects opened plus the commas between elements, which is the number
 * of values give or take the first element of each container: what parsing costs grows with it.
 */
export function scanJson(raw: Buffer, limits: JsonLimits = UNLIMITED): JsonShape {
  const { maxDepth, maxValues } = limits;
  let modelValue: ByteSpan | undefined;
  let modelKeys = 0;
  let depth = 0;
  let values = 0;
  let topIsObject = false;
  // At depth 1 of an object, a string is a key when it follows `{` or `,`; its value runs to the
  // next `,` or `}` back at depth 1.
  let expectKey = false;
  let valueStart = -1;
  const n = raw.length;
  for (let i = 0; i < n; i++) {
    const byte = raw[i] as number;
    if (byte === QUOTE) {
      const end = stringEnd(raw, i);
      if (expectKey && depth === 1) {
        expectKey = false;
        if (topIsObject && isModelKey(raw, i, end)) {
          modelKeys++;
          valueStart = nextNonSpaceIndex(raw, raw.indexOf(COLON, end) + 1);
        }
      }
      i = end - 1;
    } else if (byte === OPEN_BRACE || byte === OPEN_BRACKET) {
      if (++depth > maxDepth) throw new JsonTooComplexError('depth', limits);
      if (++values > maxValues) throw new JsonTooComplexError('values', limits);
      if (depth === 1) {
        expectKey = true;
        topIsObject = byte === OPEN_BRACE;
      }
    } else if (byte === CLOSE_BRACE || byte === CLOSE_BRACKET) {
      if (depth === 1 && valueStart >= 0) {
        modelValue = { start: valueStart, end: lastNonSpaceIndex(raw, i) + 1 };
        valueStart = -1;
      }
      depth--;
    } else if (byte === COMMA) {
      if (++values > maxValues) throw new JsonTooComplexError('values', limits);
      if (depth === 1) {
        if (valueStart >= 0) {
          modelValue = { start: valueStart, end: lastNonSpaceIndex(raw, i) + 1 };
          valueStart = -1;
        }
        expectKey = true;
      }
    }
  }
  return { modelValue, modelKeys };
}

/**
 * The limits of {@link scanJson}, checked chunk by chunk as a body arrives: a body past them is
 * refused at the first chunk that shows it (10 MB of nested arrays, at the first 64 KiB), before
 * the rest is received, gathered in one buffer or parsed. Only nesting and values are tracked;
 * strings are skipped with `indexOf`, escapes followed across chunk boundaries.
 */
export class JsonLimitGuard {
  readonly #limits: JsonLimits;
  #depth = 0;
  #values = 0;
  #inString = false;
  /** Backslashes ending the previous chunk, inside a string (odd: the next byte is escaped). */
  #backslashes = 0;

  constructor(limits: JsonLimits) {
    this.#limits = limits;
  }

  /** Reads the next chunk of the body; throws a {@link JsonTooComplexError} past a limit. */
  push(chunk: Buffer): void {
    const { maxDepth, maxValues } = this.#limits;
    const n = chunk.length;
    let i = this.#inString ? this.#stringEnd(chunk, 0) : 0;
    while (i < n) {
      const byte = chunk[i] as number;
      if (byte === QUOTE) {
        this.#inString = true;
        this.#backslashes = 0;
        i = this.#stringEnd(chunk, i + 1);
        continue;
      }
      if (byte === OPEN_BRACE || byte === OPEN_BRACKET) {
        if (++this.#depth > maxDepth) throw new JsonTooComplexError('depth', this.#limits);
        if (++this.#values > maxValues) throw new JsonTooComplexError('values', this.#limits);
      } else if (byte === CLOSE_BRACE || byte === CLOSE_BRACKET) {
        this.#depth--;
      } else if (byte === COMMA && ++this.#values > maxValues) {
        throw new JsonTooComplexError('values', this.#limits);
      }
      i++;
    }
  }

  /**
   * Inside a string from `from`: the index just past its closing quote (leaving the string), or
   * the chunk's length when it goes on into the next chunk.
   */
  #stringEnd(chunk: Buffer, from: number): number {
    const n = chunk.length;
    for (
      let quote = chunk.indexOf(QUOTE, from);
      quote >= 0;
      quote = chunk.indexOf(QUOTE, quote + 1)
    ) {
      let run = 0;
      let k = quote - 1;
      while (k >= from && chunk[k] === BACKSLASH) {
        run++;
        k--;
      }
      // A run of backslashes from the start of this chunk continues the previous chunk's.
      if (k < from && from === 0) run += this.#backslashes;
      if (run % 2 === 0) {
        this.#inString = false;
        return quote + 1;
      }
    }
    let run = 0;
    for (let k = n - 1; k >= from && chunk[k] === BACKSLASH; k--) run++;
    this.#backslashes = run === n - from && from === 0 ? this.#backslashes + run : run;
    return n;
  }
}

/**
 * The index just past the closing quote of the string opening at `start`. Its first bytes are
 * read here: most strings of a request (keys, roles, model ids) are short, and `indexOf` is a
 * call into C++ (~100 ns); a long one (a prompt) is left to `indexOf`, which skips ahead.
 */
function stringEnd(raw: Buffer, start: number): number {
  const n = raw.length;
  const near = Math.min(n, start + 1 + SHORT_STRING);
  for (let i = start + 1; i < near; i++) {
    const byte = raw[i] as number;
    if (byte === QUOTE) return i + 1;
    if (byte === BACKSLASH) i++; // the escaped byte cannot close the string
  }
  if (near >= n) return n;
  // Past the short part, from a byte that is not escaped (a backslash there was stepped over).
  let quote = raw.indexOf(QUOTE, near);
  while (quote > 0 && isEscaped(raw, quote)) quote = raw.indexOf(QUOTE, quote + 1);
  return quote < 0 ? n : quote + 1;
}

/** Bytes of a string read one by one before `indexOf` takes over. */
const SHORT_STRING = 48;

/** True when the quote at `at` is preceded by an odd number of backslashes. */
function isEscaped(raw: Buffer, at: number): boolean {
  let backslashes = 0;
  for (let i = at - 1; raw[i] === BACKSLASH; i--) backslashes++;
  return backslashes % 2 === 1;
}

/** Whether the key string `raw[start, end)` is `"model"`, escapes decoded. */
function isModelKey(raw: Buffer, start: number, end: number): boolean {
  if (end - start === MODEL_KEY.length) {
    for (let k = 1; k < 6; k++) if (raw[start + k] !== MODEL_KEY[k]) return false;
    return true;
  }
  // Longer keys may still spell `model` with escapes (`"mod\u0065l"`): decode those.
  const backslash = raw.indexOf(BACKSLASH, start);
  if (backslash < 0 || backslash >= end || end - start > MAX_ESCAPED_MODEL_KEY) return false;
  try {
    return JSON.parse(raw.toString('utf8', start, end)) === 'model';
  } catch {
    return false; // not a valid string: JSON.parse of the whole body will say so
  }
}

/** The longest key that can still spell `model` with escapes: five `\uXXXX` and two quotes. */
const MAX_ESCAPED_MODEL_KEY = 5 * 6 + 2;

function isSpace(byte: number | undefined): boolean {
  return byte === 0x20 || byte === 0x0a || byte === 0x0d || byte === 0x09;
}

/** The index of the first byte from `from` on that is not JSON whitespace. */
export function nextNonSpaceIndex(raw: Buffer, from: number): number {
  let i = from;
  while (isSpace(raw[i])) i++;
  return i;
}

function lastNonSpaceIndex(raw: Buffer, before: number): number {
  let i = before - 1;
  while (isSpace(raw[i])) i--;
  return i;
}
