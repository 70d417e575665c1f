import { isUtf8 } from 'node:buffer';
import { hasAt } from './sse-events.js';

/**
 * The fast path of Anthropic → OpenAI stream translation, on the upstream's bytes: most events of
 * a streamed answer are text deltas,
 * `{"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"…"}}`, and
 * most of the others (`ping`, `content_block_stop`, the start of a text block) translate to
 * nothing. A text delta's text is already a JSON string literal, so it can be copied into the
 * chunk without decoding the event, parsing it and serialising the chunk again. Only a literal
 * written exactly as `JSON.stringify` writes it (valid UTF-8, no `\u` or `\/` escape) is copied,
 * so that the chunk is byte for byte the one the general path writes; any other shape is left to
 * the general path (`undefined`, `false`).
 */

const HEAD = Buffer.from('{"type":"content_block_delta","index":');
const DELTA = Buffer.from(',"delta":{"type":"text_delta","text":"');
const PING = Buffer.from('{"type":"ping"}');
const BLOCK_STOP = Buffer.from('{"type":"content_block_stop","index":');
const BLOCK_START = Buffer.from('{"type":"content_block_start","index":');
const TEXT_BLOCK = Buffer.from(',"content_block":{"type":"text","text":""}}');

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const BRACE = 0x7d;

/**
 * The JSON string literal (quotes included) of the text of the text-delta event whose data is
 * `bytes[start, end)`; `undefined` when the data is anything else, or its literal is not written
 * as `JSON.stringify` writes it.
 */
export function textDeltaLiteral(bytes: Buffer, start: number, end: number): Buffer | undefined {
  if (!hasAt(bytes, start, HEAD)) return undefined;
  const afterIndex = jsonIndexEnd(bytes, start + HEAD.length, end);
  if (afterIndex < 0 || !hasAt(bytes, afterIndex, DELTA)) return undefined;
  const open = afterIndex + DELTA.length - 1; // the opening quote of the text
  let close = open + 1;
  for (;;) {
    if (close >= end) return undefined; // cut short
    const c = bytes[close] as number;
    if (c < 0x20) return undefined; // a raw control character: not JSON
    if (c === QUOTE) break;
    if (c === BACKSLASH) {
      if (!isShortEscape(bytes[close + 1])) return undefined; // `\u…`, `\/`: not as stringify writes
      close += 2;
    } else close++;
  }
  // Exactly `}}` after the text: any other field means the general path.
  if (end !== close + 3 || bytes[close + 1] !== BRACE || bytes[close + 2] !== BRACE) {
    return undefined;
  }
  const literal = bytes.subarray(open, close + 1);
  // Invalid UTF-8 is decoded (with replacement characters) by the general path.
  return isUtf8(literal) ? literal : undefined;
}

/**
 * Whether the event whose data is `bytes[start, end)` translates to nothing whatever the stream's
 * state: a `ping`, a `content_block_stop`, or the start of a text block (text arrives in deltas).
 */
export function isSilentEvent(bytes: Buffer, start: number, end: number): boolean {
  if (end - start === PING.length && hasAt(bytes, start, PING)) return true;
  if (hasAt(bytes, start, BLOCK_STOP)) {
    const after = jsonIndexEnd(bytes, start + BLOCK_STOP.length, end);
    return after === end - 1 && bytes[after] === BRACE;
  }
  if (hasAt(bytes, start, BLOCK_START)) {
    const after = jsonIndexEnd(bytes, start + BLOCK_START.length, end);
    return after >= 0 && end - after === TEXT_BLOCK.length && hasAt(bytes, after, TEXT_BLOCK);
  }
  return false;
}

/**
 * The offset after the block index (a JSON non-negative integer: digits, no leading zero) that
 * starts at `at`; -1 when there is none.
 */
function jsonIndexEnd(bytes: Buffer, at: number, end: number): number {
  let i = at;
  while (i < end && isDigit(bytes[i] as number)) i++;
  if (i === at || (bytes[at] === 0x30 && i > at + 1)) return -1;
  return i;
}

function isDigit(c: number): boolean {
  return c >= 0x30 && c <= 0x39;
}

/** `\"`, `\\`, `\b`, `\f`, `\n`, `\r`, `\t`: the escapes `JSON.stringify` writes by name. */
function isShortEscape(c: number | undefined): boolean {
  return (
    c === QUOTE ||
    c === BACKSLASH ||
    c === 0x62 ||
    c === 0x66 ||
    c === 0x6e ||
    c === 0x72 ||
    c === 0x74
  );
}
