import { type ByteSpan, nextNonSpaceIndex, scanJson } from './json-scan.js';

/**
 * Rewrites the `model` of a JSON request body in its bytes, leaving every other byte as the
 * client sent it. Re-serialising the parsed body instead would cost time in proportion to the
 * prompt (a 100 KB context is serialised again for each upstream attempt) and would change what
 * the client sent: integers beyond 2^53 (a `seed`, a user id) lose digits, `\u` escapes are
 * rewritten, keys lose their order.
 */

const OPEN_BRACE = 0x7b;
const CLOSE_BRACE = 0x7d;
const COMMA = 0x2c;
const COLON = 0x3a;
const MODEL_KEY = Buffer.from('"model"');

/**
 * `raw` (a JSON object, already validated by `JSON.parse`) with its top-level `model` set to
 * `model`: the value of the last top-level `model` key is replaced (the one `JSON.parse` keeps),
 * or the key is added first when there is none. Keys nested deeper (a tool parameter named
 * `model`) are left alone. `span` is where that value lies, when the body was scanned already
 * ({@link scanJson}); `null` when it has no top-level `model`.
 */
export function withModel(
  raw: Buffer,
  model: string,
  span: ByteSpan | null = scanJson(raw).modelValue ?? null,
): Buffer {
  const value = modelValue(model);
  if (span === null) {
    const open = raw.indexOf(OPEN_BRACE);
    const empty = raw[nextNonSpaceIndex(raw, open + 1)] === CLOSE_BRACE;
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
