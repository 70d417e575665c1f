import { isEpochTimestamp, isNoiseKey, normaliseParam } from './normalise.js';

/**
 * Fingerprints of tool calls and outputs: 53-bit hashes (two 32-bit FNV-1a lanes), computed once
 * per call when it enters the trajectory, so that every later comparison is a number compare and
 * no history is ever rescanned.
 *
 * - The exact key hashes the tool name and params as given (key order ignored).
 * - The near key hashes them with the noise folded (see {@link normaliseParam}, and the values of
 *   noise keys such as `requestId` or `timeout`, and epoch timestamps), so that retries that
 *   differ only in a timestamp, a generated id, a temp directory, a wait, spacing or path spelling
 *   match. Numbers otherwise count: offset 0 and offset 100 are two pages.
 * - The content key hashes a result's message and value.
 *
 * Long strings count by their length, first and last {@link STRING_WINDOW} characters
 * ({@link OUTPUT_WINDOW} for outputs): a hash stays
 * bounded in time whatever a tool was given, at the price of treating two huge strings with the
 * same length, head and tail as equal. Nesting deeper than {@link MAX_DEPTH} or beyond
 * {@link MAX_NODES} values counts by shape only, for the same reason.
 */

/** Characters hashed at each end of a long param string. */
export const STRING_WINDOW = 1024;
/**
 * Characters hashed at each end of a long tool output. Outputs are often large and only feed the
 * "produced something new" test, where a false "same" costs at most an early stall hint.
 */
export const OUTPUT_WINDOW = 256;
/** Object/array nesting followed. */
export const MAX_DEPTH = 8;
/** Values visited per fingerprint. */
export const MAX_NODES = 512;

const OFFSET_A = 0x811c9dc5 | 0;
const OFFSET_B = 0x5bd1e995 | 0;
const PRIME_A = 0x01000193;
const PRIME_B = 0x01000193 ^ 0x2c1b3c6d;

// The hasher's state. Hashing is synchronous, so one set of lanes serves every call.
let laneA = OFFSET_A;
let laneB = OFFSET_B;
let nodes = 0;
let stringWindow = STRING_WINDOW;

function start(windowSize: number): void {
  laneA = OFFSET_A;
  laneB = OFFSET_B;
  nodes = 0;
  stringWindow = windowSize;
}

function finish(): number {
  // 32 bits of lane A and 21 of lane B: an exact integer below 2^53.
  return (laneA >>> 0) * 0x200000 + ((laneB >>> 11) & 0x1fffff);
}

function unit(code: number): void {
  laneA = Math.imul(laneA ^ code, PRIME_A);
  laneB = Math.imul(laneB ^ (code + 0x9e37), PRIME_B);
}

function text(value: string, from: number, to: number): void {
  for (let i = from; i < to; i++) unit(value.charCodeAt(i));
}

function string(value: string, near: boolean): void {
  const folded = near ? nearString(value) : value;
  const length = folded.length;
  unit(0x73); // 's', then the length, so that "ab","c" and "a","bc" differ
  unit(length & 0xffff);
  unit(length >>> 16);
  if (length <= 2 * stringWindow) {
    text(folded, 0, length);
  } else {
    text(folded, 0, stringWindow);
    text(folded, length - stringWindow, length);
  }
}

function nearString(value: string): string {
  if (value.length <= 2 * stringWindow) return normaliseParam(value);
  // Normalise the two ends only: the length is not folded, so huge strings stay distinguishable.
  return `${normaliseParam(value.slice(0, stringWindow))}\u0000${normaliseParam(value.slice(-stringWindow))}`;
}

function value(input: unknown, near: boolean, depth: number): void {
  if (++nodes > MAX_NODES) {
    unit(0x2026);
    return;
  }
  switch (typeof input) {
    case 'string':
      string(input, near);
      return;
    case 'number':
      if (near && isEpochTimestamp(input)) unit(0x23);
      else string(String(input), false);
      return;
    case 'boolean':
      unit(input ? 0x54 : 0x46);
      return;
    case 'bigint':
      string(input.toString(), false);
      return;
    case 'object':
      break;
    default:
      unit(0x75); // undefined, functions, symbols: no JSON value
      return;
  }
  if (input === null) {
    unit(0x4e);
    return;
  }
  if (depth >= MAX_DEPTH) {
    unit(0x2026);
    return;
  }
  if (Array.isArray(input)) {
    unit(0x5b);
    for (const item of input) value(item, near, depth + 1);
    unit(0x5d);
    return;
  }
  unit(0x7b);
  const record = input as Record<string, unknown>;
  // Key order is noise: {a, b} and {b, a} are the same arguments.
  for (const key of Object.keys(record).sort()) {
    string(key, false);
    if (near && isNoiseKey(key)) unit(0x23);
    else value(record[key], near, depth + 1);
  }
  unit(0x7d);
}

/** The exact key of a call: tool name and params as given, key order ignored. */
export function exactCallKey(tool: string, params: unknown): number {
  start(STRING_WINDOW);
  string(tool, false);
  value(params, false, 0);
  return finish();
}

/** The near key of a call: tool name and params with the noise folded. */
export function nearCallKey(tool: string, params: unknown): number {
  start(STRING_WINDOW);
  string(tool, false);
  value(params, true, 0);
  return finish();
}

/** The content key of a result: its message and value as given ({@link OUTPUT_WINDOW}). */
export function contentKey(message: string, result: unknown): number {
  start(OUTPUT_WINDOW);
  string(message, false);
  value(result, false, 0);
  return finish();
}
