import { isUtf8 } from 'node:buffer';

/**
 * Reading JSON values in place, in the bytes of a stream's event, for the fast paths of stream
 * translation: where a string literal, a number or a literal name ends, without decoding or
 * parsing the event. Each function returns the offset just past the value at `at` (before `end`),
 * or -1 when no valid value of that kind is there. No whitespace is accepted between tokens (the
 * streams read here have none; any that does goes the general way).
 */

export const QUOTE = 0x22;
const BACKSLASH = 0x5c;

/**
 * The end of the string literal at `at` when it is written exactly as `JSON.stringify` writes its
 * text: valid UTF-8, no raw control character, and only the escapes written by name (`\"`, `\\`,
 * `\b`, `\f`, `\n`, `\r`, `\t`; no `\u`, no `\/`). Such a literal can be copied into a new event
 * instead of being decoded and serialised again, and the bytes are the same.
 */
export function stringifiedStringEnd(bytes: Buffer, at: number, end: number): number {
  if (bytes[at] !== QUOTE) return -1;
  let i = at + 1;
  let ascii = true;
  for (;;) {
    if (i >= end) return -1; // cut short
    const c = bytes[i] as number;
    if (c < 0x20) return -1; // a raw control character: not JSON
    if (c === QUOTE) break;
    if (c === BACKSLASH) {
      if (!isNamedEscape(bytes[i + 1])) return -1;
      i += 2;
    } else {
      if (c >= 0x80) ascii = false;
      i++;
    }
  }
  // Invalid UTF-8 is decoded (with replacement characters) by the general path.
  return ascii || isUtf8(bytes.subarray(at + 1, i)) ? i + 1 : -1;
}

/** The end of any valid JSON string literal at `at` (its content is not checked as UTF-8). */
export function jsonStringEnd(bytes: Buffer, at: number, end: number): number {
  if (bytes[at] !== QUOTE) return -1;
  let i = at + 1;
  for (;;) {
    if (i >= end) return -1;
    const c = bytes[i] as number;
    if (c < 0x20) return -1;
    if (c === QUOTE) return i + 1;
    if (c !== BACKSLASH) i++;
    else if (isNamedEscape(bytes[i + 1]) || bytes[i + 1] === 0x2f) i += 2;
    else if (bytes[i + 1] === 0x75 && isHex(bytes, i + 2, end)) i += 6;
    else return -1;
  }
}

/** The end of a non-negative JSON integer at `at` (digits, no leading zero). */
export function jsonIndexEnd(bytes: Buffer, at: number, end: number): number {
  let i = at;
  while (i < end && isDigit(bytes[i])) i++;
  if (i === at || (bytes[at] === 0x30 && i > at + 1)) return -1;
  return i;
}

/** The end of a JSON number at `at` (`-`, integer part, fraction, exponent). */
export function jsonNumberEnd(bytes: Buffer, at: number, end: number): number {
  let i = bytes[at] === 0x2d ? at + 1 : at;
  i = jsonIndexEnd(bytes, i, end);
  if (i < 0) return -1;
  if (bytes[i] === 0x2e) {
    const from = ++i;
    while (i < end && isDigit(bytes[i])) i++;
    if (i === from) return -1;
  }
  if (bytes[i] === 0x65 || bytes[i] === 0x45) {
    i++;
    if (bytes[i] === 0x2b || bytes[i] === 0x2d) i++;
    const from = i;
    while (i < end && isDigit(bytes[i])) i++;
    if (i === from) return -1;
  }
  return i;
}

const NULL = Buffer.from('null');
const TRUE = Buffer.from('true');
const FALSE = Buffer.from('false');

/** The end of a JSON scalar at `at`: a string, a number, `null`, `true` or `false`. */
export function jsonScalarEnd(bytes: Buffer, at: number, end: number): number {
  const c = bytes[at];
  if (c === QUOTE) return jsonStringEnd(bytes, at, end);
  if (c === 0x6e) return bytesAt(bytes, at, NULL) ? at + 4 : -1;
  if (c === 0x74) return bytesAt(bytes, at, TRUE) ? at + 4 : -1;
  if (c === 0x66) return bytesAt(bytes, at, FALSE) ? at + 5 : -1;
  return jsonNumberEnd(bytes, at, end);
}

/** Whether `bytes` holds `expected` at `at` (a loop: faster than a native call for a few bytes). */
export function bytesAt(bytes: Buffer, at: number, expected: Buffer): boolean {
  if (at + expected.length > bytes.length) return false;
  for (let i = 0; i < expected.length; i++) if (bytes[at + i] !== expected[i]) return false;
  return true;
}

function isDigit(c: number | undefined): boolean {
  return c !== undefined && c >= 0x30 && c <= 0x39;
}

function isHex(bytes: Buffer, at: number, end: number): boolean {
  if (at + 4 > end) return false;
  for (let i = at; i < at + 4; i++) {
    const c = bytes[i] as number;
    const hex = (c >= 0x30 && c <= 0x39) || (c >= 0x41 && c <= 0x46) || (c >= 0x61 && c <= 0x66);
    if (!hex) return false;
  }
  return true;
}

/** `\"`, `\\`, `\b`, `\f`, `\n`, `\r`, `\t`: the escapes `JSON.stringify` writes by name. */
function isNamedEscape(c: number | undefined): boolean {
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
