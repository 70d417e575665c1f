import type { ChatRequestBody } from './decide.js';
import { HttpError } from './errors.js';
import {
  type ByteSpan,
  type JsonLimits,
  type JsonShape,
  JsonTooComplexError,
  scanJson,
} from './json-scan.js';

/**
 * A request body as the JSON parser leaves it: the parsed value, the bytes received, and where
 * its top-level `model` value lies in them (`null`: it has none).
 */
export interface ParsedBody {
  readonly json: unknown;
  readonly raw: Buffer;
  /**
   * Where the top-level `model` value is in `raw`; `null` when it has none; `undefined` when not
   * located (a body serialised again by the server): found again where it is needed.
   */
  readonly modelValue: ByteSpan | null | undefined;
}

/**
 * Parses a request body as JSON, whatever its declared content type (clients such as `curl -d`
 * send JSON as form data). The bytes are scanned first ({@link scanJson}): a body nested deeper
 * or holding more values than `limits` allow is refused before `JSON.parse` spends seconds on it,
 * and so is a body naming its top-level `model` twice (an upstream may read the other one than
 * triage routed on). The error names the position only: a JSON error message quotes the text
 * around it, which may be prompt text.
 */
export function parseJsonBody(raw: Buffer, limits: JsonLimits): ParsedBody {
  let shape: JsonShape;
  try {
    shape = scanJson(raw, limits);
  } catch (error) {
    if (!(error instanceof JsonTooComplexError)) throw error;
    throw new HttpError(400, 'json_too_complex', error.message);
  }
  if (shape.modelKeys > 1) {
    throw new HttpError(400, 'duplicate_key', 'request body names model more than once', {
      param: 'model',
    });
  }
  try {
    return { json: JSON.parse(raw.toString('utf8')), raw, modelValue: shape.modelValue ?? null };
  } catch (error) {
    const position = /position (\d+)/.exec((error as Error).message)?.[1];
    throw new HttpError(
      400,
      'invalid_json',
      `request body is not valid JSON${position === undefined ? '' : ` (at character ${position})`}`,
    );
  }
}

/**
 * The chat request of a parsed body: a JSON object with a `messages` array. Everything else is
 * left for the upstream to judge.
 */
export function chatRequestOf(body: unknown): {
  body: ChatRequestBody;
  raw: Buffer;
  modelValue: ByteSpan | null | undefined;
} {
  const parsed = body as ParsedBody | undefined;
  if (parsed === undefined || parsed === null) {
    throw new HttpError(400, 'missing_body', 'request body is required (a JSON chat request)');
  }
  const { json } = parsed;
  if (typeof json !== 'object' || json === null || Array.isArray(json)) {
    throw new HttpError(400, 'invalid_body', 'request body must be a JSON object');
  }
  const { messages } = json as { messages?: unknown };
  if (!Array.isArray(messages) || messages.length === 0) {
    throw new HttpError(400, 'invalid_messages', 'messages must be a non-empty array', {
      param: 'messages',
    });
  }
  return { body: json as ChatRequestBody, raw: parsed.raw, modelValue: parsed.modelValue };
}

/** The text helpers the server shares with the front door (one reading of a chat request). */
export { lastUserText, messageText, roleOf } from '../triage-request.js';
