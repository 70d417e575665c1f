import { bytesAt, jsonIndexEnd, jsonScalarEnd, QUOTE, stringifiedStringEnd } from './json-bytes.js';

/**
 * The fast path of OpenAI → Anthropic stream translation, on the upstream's bytes: most chunks of
 * a streamed chat completion carry a piece of text and nothing else that matters,
 * `{"id":…,"object":"chat.completion.chunk",…,"choices":[{"index":0,"delta":{"content":"…"},
 * "logprobs":null,"finish_reason":null}],"usage":null}`. Its text is already a JSON string
 * literal, so it can be copied into the Anthropic event without parsing the chunk. The chunk's
 * other fields may be any scalars (ids, names, times, fingerprints) in any order, except those the
 * translation reads: no `error`, a `usage` only when null, one `choices` of exactly that shape.
 * Anything else is left to the general path (`undefined`).
 */

const CHOICES = Buffer.from('"choices"');
const ERROR = Buffer.from('"error"');
const USAGE = Buffer.from('"usage"');
const NULL = Buffer.from('null');
const CHOICE_HEAD = Buffer.from('[{"index":');
const CONTENT = Buffer.from(',"delta":{"content":');
const LOGPROBS = Buffer.from(',"logprobs":null');
const CHOICE_TAIL = Buffer.from(',"finish_reason":null}]');
const COLON = 0x3a;
const COMMA = 0x2c;
const OPEN = 0x7b;
const CLOSE = 0x7d;
const BACKSLASH = 0x5c;

/**
 * The JSON string literal (quotes included) of the content of the chunk whose data is
 * `bytes[start, end)`, when it is a plain text chunk whose literal is written as `JSON.stringify`
 * writes it; `undefined` otherwise.
 */
export function chatTextLiteral(bytes: Buffer, start: number, end: number): Buffer | undefined {
  if (bytes[start] !== OPEN) return undefined;
  let literal: Buffer | undefined;
  let at = start + 1;
  for (;;) {
    const keyEnd = plainKeyEnd(bytes, at, end);
    if (keyEnd < 0 || bytes[keyEnd] !== COLON) return undefined;
    const value = keyEnd + 1;
    let next: number;
    if (isKey(bytes, at, keyEnd, CHOICES)) {
      if (literal !== undefined || !bytesAt(bytes, value, CHOICE_HEAD)) return undefined;
      const index = jsonIndexEnd(bytes, value + CHOICE_HEAD.length, end);
      if (index < 0 || !bytesAt(bytes, index, CONTENT)) return undefined;
      const open = index + CONTENT.length;
      const close = stringifiedStringEnd(bytes, open, end);
      if (close < 0 || bytes[close] !== CLOSE) return undefined;
      literal = bytes.subarray(open, close);
      next = close + 1;
      if (bytesAt(bytes, next, LOGPROBS)) next += LOGPROBS.length;
      if (!bytesAt(bytes, next, CHOICE_TAIL)) return undefined;
      next += CHOICE_TAIL.length;
    } else if (isKey(bytes, at, keyEnd, USAGE)) {
      if (!bytesAt(bytes, value, NULL)) return undefined;
      next = value + NULL.length;
    } else if (isKey(bytes, at, keyEnd, ERROR)) {
      return undefined;
    } else {
      next = jsonScalarEnd(bytes, value, end);
      if (next < 0) return undefined;
    }
    if (bytes[next] === COMMA) at = next + 1;
    else return bytes[next] === CLOSE && next === end - 1 ? literal : undefined;
  }
}

/**
 * The end of the key at `at` when it is a string without escapes (a key with an escape could
 * spell one of the keys the translation reads: the general path reads it); -1 otherwise.
 */
function plainKeyEnd(bytes: Buffer, at: number, end: number): number {
  if (bytes[at] !== QUOTE) return -1;
  for (let i = at + 1; i < end; i++) {
    const c = bytes[i] as number;
    if (c === QUOTE) return i + 1;
    if (c === BACKSLASH || c < 0x20) return -1;
  }
  return -1;
}

function isKey(bytes: Buffer, at: number, keyEnd: number, key: Buffer): boolean {
  return keyEnd - at === key.length && bytesAt(bytes, at, key);
}
