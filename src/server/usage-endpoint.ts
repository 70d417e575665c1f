import type { FastifyInstance, FastifyRequest } from 'fastify';
import { HttpError } from './errors.js';
import type { ServerContext } from './server-context.js';
import { RETENTION_DAYS } from './usage-ledger.js';

/**
 * `GET /v1/usage`: requests, tokens, cost and savings against the baseline over a time window,
 * in all, by model and tier, and by client. The window is `?from=…&to=…` (ISO 8601 times or
 * epoch milliseconds; `to` defaults to now) or `?window=…` back from now (`90s`, `15m`, `24h`,
 * `7d`); default the last 24 hours. Usage is kept by the minute, for 35 days.
 */
export function registerUsage(app: FastifyInstance, ctx: ServerContext): void {
  app.get('/v1/usage', async (request: FastifyRequest) => {
    const { from, to } = windowOf(request.query as Record<string, string | undefined>, Date.now());
    return ctx.accounting.ledger.summary(from, to);
  });
}

const UNIT_MS: Readonly<Record<string, number>> = { s: 1e3, m: 60e3, h: 3_600e3, d: 86_400e3 };

function timeOf(value: string, name: string): number {
  const ms = /^\d+$/.test(value) ? Number(value) : Date.parse(value);
  if (!Number.isFinite(ms)) {
    throw new HttpError(
      400,
      'invalid_query',
      `${name} must be an ISO 8601 time or epoch milliseconds`,
      {
        param: name,
      },
    );
  }
  return ms;
}

function windowOf(
  query: Record<string, string | undefined>,
  now: number,
): { from: number; to: number } {
  const to = query.to === undefined ? now : timeOf(query.to, 'to');
  if (query.from !== undefined) {
    const from = timeOf(query.from, 'from');
    if (from > to)
      throw new HttpError(400, 'invalid_query', 'from must not be after to', { param: 'from' });
    return { from, to };
  }
  const window = query.window ?? '24h';
  const match = /^(\d{1,9})([smhd])$/.exec(window);
  if (!match) {
    throw new HttpError(
      400,
      'invalid_query',
      'window must be a number and a unit: s, m, h or d (e.g. 24h)',
      {
        param: 'window',
      },
    );
  }
  const ms = Number(match[1]) * (UNIT_MS[match[2] as string] as number);
  return { from: to - Math.min(ms, RETENTION_DAYS * UNIT_MS.d!), to };
}
