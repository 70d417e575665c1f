/**
 * Rewrites the `model` of a JSON request body in its bytes, leaving every other byte as the
 * client sent it. Re-serialising the parsed body instead would cost time in proportion to the
 * prompt (a 100 KB context is serialised again for each upstream attempt) and would change what
 * the client sent: integers beyond 2^53 (a `seed`, a user id) lose digits, `\u` escapes are
 * rewritten, keys lose their order.
 */

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
 * `raw` (a JSON object, already validated by `JSON.parse`) with its top-level `model` set to
 * `model`: the value of the last top-level `model` key is replaced (the one `JSON.parse` keeps),
 * or the key is added first when there is none. Keys nested deeper (a tool parameter named
 * `model`) are left alone.
 */
export function withModel(raw: Buffer, model: string): Buffer {
  const value = modelValue(model);
  const span = topLevelModelValue(raw);
  if (span === undefined) {
    const open = raw.indexOf(OPEN_BRACE);
    const empty = nextNonSpace(raw, open + 1) === CLOSE_BRACE;
    const field = Buffer.concat([MODEL_KEY, Buffer.of(COLON), value, empty ? EMPTY : COMMA_BYTE]);
    return Buffer.concat([raw.subarray(0, open + 1), field, raw.subarray(open + 1)]);
  }
  return Buffer.concat([raw.subarray(0, span.start), value, raw.subarray(span.end)]);
}

const EMPTY = Buffer.alloc(0);
const COMMA_BYTE = Buffer.of(COMMA);

/**
 * The JSON bytes of a model id, kept: the ids come from the configuration, a handful, and each
 * request would otherwise encode its id again. Bounded all the same.
 */
const modelValues = new Map<string, Buffer>();
const MAX_MODEL_VALUES = 256;

function modelValue(model: string): Buffer {
  let value = modelValues.get(model);
  if (value === undefined) {
    if (modelValues.size >= MAX_MODEL_VALUES) modelValues.clear();
    value = Buffer.from(JSON.stringify(model));
    modelValues.set(model, value);
  }
  return value;
}

/** Where the value of the last top-level `model` key lies in `raw`, if there is one. */
function topLevelModelValue(raw: Buffer): { start: number; end: number } | undefined {
  let found: { start: number; end: number } | undefined;
  let depth = 0;
  // At depth 1, a string is a key when it follows `{` or `,`; its value runs to the next `,` or
  // `}` back at depth 1.
  let expectKey = false;
  let modelValueStart = -1;
  const n = raw.length;
  for (let i = 0; i < n; i++) {
    const byte = raw[i] as number;
    if (byte === QUOTE) {
      const end = stringEnd(raw, i);
      if (depth === 1 && expectKey) {
        expectKey = false;
        if (isModelKey(raw, i, end)) {
          modelValueStart = nextNonSpaceIndex(raw, raw.indexOf(COLON, end) + 1);
        }
      }
      i = end - 1;
    } else if (byte === OPEN_BRACE || byte === OPEN_BRACKET) {
      depth++;
      if (depth === 1) expectKey = true;
    } else if (byte === CLOSE_BRACE || byte === CLOSE_BRACKET) {
      if (depth === 1 && modelValueStart >= 0) {
        found = { start: modelValueStart, end: lastNonSpaceIndex(raw, i) + 1 };
        modelValueStart = -1;
      }
      depth--;
    } else if (byte === COMMA && depth === 1) {
      if (modelValueStart >= 0) {
        found = { start: modelValueStart, end: lastNonSpaceIndex(raw, i) + 1 };
        modelValueStart = -1;
      }
      expectKey = true;
    }
  }
  return found;
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
  if (near === n) return n;
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
  return (
    backslash >= 0 && backslash < end && JSON.parse(raw.toString('utf8', start, end)) === 'model'
  );
}

function isSpace(byte: number | undefined): boolean {
  return byte === 0x20 || byte === 0x0a || byte === 0x0d || byte === 0x09;
}

function nextNonSpaceIndex(raw: Buffer, from: number): number {
  let i = from;
  while (isSpace(raw[i])) i++;
  return i;
}

function nextNonSpace(raw: Buffer, from: number): number | undefined {
  return raw[nextNonSpaceIndex(raw, from)];
}

function lastNonSpaceIndex(raw: Buffer, before: number): number {
  let i = before - 1;
  while (isSpace(raw[i])) i--;
  return i;
}
