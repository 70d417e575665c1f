import { type DestinationStream, type LevelWithSilent, type Logger, pino } from 'pino';
import type { Secrets } from './secrets.js';

/** How the server logs. */
export interface LogOptions {
  readonly level: LevelWithSilent;
  /** Add the last user message to request logs. Off by default: prompts are private. */
  readonly prompts: boolean;
  /** Where lines go (default standard output, written in batches). */
  readonly destination?: DestinationStream;
  /** Keys removed from every line, whatever field holds them. */
  readonly secrets?: Secrets;
}

/**
 * Each write to standard output is at most this long: a write of up to `PIPE_BUF` bytes to a pipe
 * is atomic, so the lines of several workers sharing it (`--workers`) never interleave.
 */
const MAX_WRITE_BYTES = 4096;
/** Standard output is written when this much is buffered … */
const BATCH_BYTES = 3072;
/** … or after this long at most. */
const FLUSH_EVERY_MS = 1000;

/** A logger, and how to stop it (flushing what is buffered). */
export interface ServerLogger {
  readonly logger: Logger;
  close(): Promise<void>;
}

/**
 * The server's structured logger (pino, one JSON line per event). Request lines carry the
 * decision, the upstream model, status and timings, never prompt text unless `prompts` is set;
 * client keys and upstream keys are redacted from every line (`secrets`), and from headers by
 * path should one ever be logged.
 *
 * Standard output is written in batches of 3-4 KiB, and at least every second: a write per
 * request (synchronous, or handed to the thread pool) cost the request path more than everything
 * else it does. A line may therefore appear up to a second late; what is buffered is written when
 * the server closes or the process exits (pino flushes on exit).
 */
export function createLogger(options: LogOptions): ServerLogger {
  if (options.destination) {
    const logger = pinoLogger(options, options.destination);
    return { logger, close: () => flushed(logger) };
  }
  const destination = pino.destination({
    dest: 1,
    sync: false,
    minLength: BATCH_BYTES,
    maxWrite: MAX_WRITE_BYTES,
  });
  const logger = pinoLogger(options, destination);
  const timer = setInterval(() => destination.flush(), FLUSH_EVERY_MS);
  timer.unref();
  return {
    logger,
    close() {
      clearInterval(timer);
      return flushed(logger);
    },
  };
}

function flushed(logger: Logger): Promise<void> {
  return new Promise((resolve) => logger.flush(() => resolve()));
}

function pinoLogger(options: LogOptions, destination: DestinationStream): Logger {
  const { secrets } = options;
  return pino(
    {
      level: options.level,
      base: { service: 'triage' },
      // Every line, as written: a key may hide in any field (an error's message, a stack).
      ...(secrets && !secrets.isEmpty
        ? { hooks: { streamWrite: (line: string) => secrets.redactText(line) } }
        : {}),
      redact: {
        paths: ['req.headers.authorization', 'req.headers["x-api-key"]', 'headers.authorization'],
        censor: '[redacted]',
      },
    },
    destination,
  );
}
