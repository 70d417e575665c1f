import type { IncomingHttpHeaders } from 'node:http';
import { HttpError } from './errors.js';

/**
 * The time a chat request has to get the first byte of an answer, across every model tried
 * (`server.deadlineMs`): without it, failures add up to one timeout per model. A client may ask
 * for less with a header, never for more.
 */

/** The request header that lowers the deadline, in milliseconds. */
export const DEADLINE_HEADER = 'x-triage-deadline-ms';

/** A request's deadline. */
export interface RequestDeadline {
  /** When it passes, on the `performance.now()` clock. */
  readonly at: number;
  /** Its length in milliseconds, for messages. */
  readonly ms: number;
}

/**
 * The deadline of a request received at `started`: `configuredMs`, or the header's value when
 * that is shorter. A header that is not a positive integer is a 400: a client that asked for a
 * deadline must not silently get another.
 */
export function requestDeadline(
  headers: IncomingHttpHeaders,
  configuredMs: number,
  started: number,
): RequestDeadline {
  const asked = headers[DEADLINE_HEADER];
  if (asked === undefined) return { at: started + configuredMs, ms: configuredMs };
  const ms = typeof asked === 'string' && /^\d{1,10}$/.test(asked) ? Number(asked) : 0;
  if (ms < 1) {
    throw new HttpError(
      400,
      'invalid_header',
      `${DEADLINE_HEADER} must be a whole number of milliseconds, at least 1`,
      { param: DEADLINE_HEADER },
    );
  }
  const chosen = Math.min(ms, configuredMs);
  return { at: started + chosen, ms: chosen };
}
