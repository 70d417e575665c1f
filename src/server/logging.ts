import { type DestinationStream, type LevelWithSilent, type Logger, pino } from 'pino';

/** How the server logs. */
export interface LogOptions {
  readonly level: LevelWithSilent;
  /** Add the last user message to request logs. Off by default: prompts are private. */
  readonly prompts: boolean;
  /** Where lines go (default standard output, written asynchronously). */
  readonly destination?: DestinationStream;
}

/**
 * The server's structured logger (pino, one JSON line per event). Request lines carry the
 * decision, the upstream model, status and timings, never prompt text unless `prompts` is set;
 * client keys and upstream keys are redacted should a header ever be logged.
 *
 * Standard output is written asynchronously (lines written in the same tick go out in one
 * write): a synchronous write per request costs the request path more than everything else it
 * does. Pino flushes what is buffered when the process exits.
 */
export function createLogger(options: LogOptions): Logger {
  return pino(
    {
      level: options.level,
      base: { service: 'triage' },
      redact: {
        paths: ['req.headers.authorization', 'req.headers["x-api-key"]', 'headers.authorization'],
        censor: '[redacted]',
      },
    },
    options.destination ?? pino.destination({ dest: 1, sync: false }),
  );
}
