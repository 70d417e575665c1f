import Type, { type TObject } from 'typebox';
import { ConfigError } from '../core/errors.js';
import { compileConfig } from '../core/validate.js';
import { TrajectoryEventError } from './errors.js';
import type { TrajectoryEvent } from './types.js';

/**
 * Events from outside (a JSONL file, an HTTP body), checked before they reach a trajectory: each
 * type has its schema, unknown fields are rejected (a misspelt `sucess` must not pass as a
 * failure), and timestamps may be milliseconds or ISO 8601 strings.
 */

const Turn = Type.Integer({ minimum: 0 });
const Timestamp = Type.Union([Type.Number(), Type.String({ minLength: 1 })]);
const Params = Type.Record(Type.String(), Type.Unknown());
const Result = Type.Object(
  {
    success: Type.Boolean(),
    message: Type.Optional(Type.String()),
    value: Type.Optional(Type.Unknown()),
  },
  { additionalProperties: false },
);
const CallId = Type.String({ minLength: 1 });
const Tool = Type.String({ minLength: 1 });

const schemas: Record<TrajectoryEvent['type'], TObject> = {
  turn: Type.Object(
    { type: Type.Literal('turn'), turn: Type.Optional(Turn), timestamp: Type.Optional(Timestamp) },
    { additionalProperties: false },
  ),
  turn_end: Type.Object(
    { type: Type.Literal('turn_end'), timestamp: Type.Optional(Timestamp) },
    { additionalProperties: false },
  ),
  tool_call: Type.Object(
    {
      type: Type.Literal('tool_call'),
      callId: CallId,
      tool: Tool,
      params: Type.Optional(Params),
      turn: Type.Optional(Turn),
      timestamp: Type.Optional(Timestamp),
    },
    { additionalProperties: false },
  ),
  tool_result: Type.Object(
    {
      type: Type.Literal('tool_result'),
      callId: CallId,
      result: Result,
      timestamp: Type.Optional(Timestamp),
    },
    { additionalProperties: false },
  ),
  tool_invoked: Type.Object(
    {
      type: Type.Literal('tool_invoked'),
      callId: Type.Optional(CallId),
      tool: Tool,
      params: Type.Optional(Params),
      result: Result,
      turn: Type.Optional(Turn),
      timestamp: Type.Optional(Timestamp),
    },
    { additionalProperties: false },
  ),
};

const validators = new Map(
  Object.entries(schemas).map(([type, schema]) => [type, compileConfig(schema, `${type} event`)]),
);

/** The event types, as written in files. */
export const EVENT_TYPES: readonly string[] = Object.keys(schemas);

/**
 * Checks an untrusted value and returns it as a {@link TrajectoryEvent}, with an ISO timestamp
 * turned into milliseconds. Throws a {@link TrajectoryEventError} naming `where` and each bad
 * field, e.g. `events.jsonl:3: /result/success must be boolean`.
 */
export function parseTrajectoryEvent(value: unknown, where = 'event'): TrajectoryEvent {
  const type = (value as { type?: unknown } | null)?.type;
  const validate = typeof type === 'string' ? validators.get(type) : undefined;
  if (
    typeof value !== 'object' ||
    value === null ||
    Array.isArray(value) ||
    validate === undefined
  ) {
    throw new TrajectoryEventError(`${where}: /type must be one of: ${EVENT_TYPES.join(', ')}`);
  }
  let event: Record<string, unknown>;
  try {
    event = validate(value) as Record<string, unknown>;
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    const issues = error.issues.map((issue) => `${issue.path || '(root)'} ${issue.message}`);
    throw new TrajectoryEventError(`${where}: ${issues.join('; ')}`);
  }
  if (typeof event.timestamp === 'string') {
    const ms = Date.parse(event.timestamp);
    if (Number.isNaN(ms)) {
      throw new TrajectoryEventError(`${where}: /timestamp is not an ISO 8601 date or a number`);
    }
    event = { ...event, timestamp: ms };
  }
  return event as unknown as TrajectoryEvent;
}
