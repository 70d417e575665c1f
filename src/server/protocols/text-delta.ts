import { bytesAt, jsonIndexEnd, stringifiedStringEnd } from './json-bytes.js';

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
const DELTA = Buffer.from(',"delta":{"type":"text_delta","text":');
const PING = Buffer.from('{"type":"ping"}');
const BLOCK_STOP = Buffer.from('{"type":"content_block_stop","index":');
const BLOCK_START = Buffer.from('{"type":"content_block_start","index":');
const TEXT_BLOCK = Buffer.from(',"content_block":{"type":"text","text":""}}');

const BRACE = 0x7d;

/**
 * The JSON string literal (quotes included) of the text of the text-delta event whose data is
 * `bytes[start, end)`; `undefined` when the data is anything else, or its literal is not written
 * as `JSON.stringify` writes it.
 */
export function textDeltaLiteral(bytes: Buffer, start: number, end: number): Buffer | undefined {
  if (!bytesAt(bytes, start, HEAD)) return undefined;
  const afterIndex = jsonIndexEnd(bytes, start + HEAD.length, end);
  if (afterIndex < 0 || !bytesAt(bytes, afterIndex, DELTA)) return undefined;
  const open = afterIndex + DELTA.length;
  const close = stringifiedStringEnd(bytes, open, end);
  // Exactly `}}` after the text: any other field means the general path.
  if (close < 0 || end !== close + 2 || bytes[close] !== BRACE || bytes[close + 1] !== BRACE) {
    return undefined;
  }
  return bytes.subarray(open, close);
}

/**
 * Whether the event whose data is `bytes[start, end)` translates to nothing whatever the stream's
 * state: a `ping`, a `content_block_stop`, or the start of a text block (text arrives in deltas).
 */
export function isSilentEvent(bytes: Buffer, start: number, end: number): boolean {
  if (end - start === PING.length && bytesAt(bytes, start, PING)) return true;
  if (bytesAt(bytes, start, BLOCK_STOP)) {
    const after = jsonIndexEnd(bytes, start + BLOCK_STOP.length, end);
    return after === end - 1 && bytes[after] === BRACE;
  }
  if (bytesAt(bytes, start, BLOCK_START)) {
    const after = jsonIndexEnd(bytes, start + BLOCK_START.length, end);
    return after >= 0 && end - after === TEXT_BLOCK.length && bytesAt(bytes, after, TEXT_BLOCK);
  }
  return false;
}
