import { type DestinationStream, type LevelWithSilent, type Logger, pino } from 'pino';
import type { ChatRequestBody } from './decide.js';

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

/** Longest prompt excerpt written when prompt logging is on. */
const MAX_LOGGED_PROMPT_CHARS = 2000;

/** The text of the last user message (text parts joined), for prompt logging only. */
export function lastUserText(body: ChatRequestBody): string {
  for (let i = body.messages.length - 1; i >= 0; i--) {
    const message = body.messages[i] as { role?: unknown; content?: unknown } | null;
    if (message?.role !== 'user') continue;
    const { content } = message;
    let text = '';
    if (typeof content === 'string') text = content;
    else if (Array.isArray(content)) {
      text = content
        .map((part: { text?: unknown } | null) => (typeof part?.text === 'string' ? part.text : ''))
        .filter((part) => part.length > 0)
        .join('\n');
    }
    return text.length > MAX_LOGGED_PROMPT_CHARS
      ? `${text.slice(0, MAX_LOGGED_PROMPT_CHARS)}…`
      : text;
  }
  return '';
}
