import { isIP } from 'node:net';
import type { FastifyRequest } from 'fastify';
import { ClientKeys } from './auth.js';
import { HttpError } from './errors.js';

/** The header an admin key is sent in (client keys keep `Authorization`). */
export const ADMIN_KEY_HEADER = 'x-triage-admin-key';

/**
 * Who may change the server at run time (`server.admin` in the configuration): a caller with an
 * admin key in `x-triage-admin-key`, or, with `allowLoopback` (the default), one connected from
 * this machine directly. A request that came through a proxy (it has `x-forwarded-for` or
 * `forwarded`) is never taken as local, whatever address it arrived from. Client keys, when
 * configured, are checked before this, for every route but `/health`.
 */
export class AdminAccess {
  readonly #keys: ClientKeys;
  readonly #allowLoopback: boolean;

  constructor(keys: readonly string[], allowLoopback: boolean) {
    this.#keys = new ClientKeys(keys);
    this.#allowLoopback = allowLoopback;
  }

  /** Whether the request may change the server. */
  allows(request: FastifyRequest): boolean {
    const presented = request.headers[ADMIN_KEY_HEADER];
    if (typeof presented === 'string' && this.#keys.matches(presented)) return true;
    return this.#allowLoopback && isDirectLoopback(request);
  }

  /** Throws a 403 unless the request may change the server. */
  check(request: FastifyRequest): void {
    if (this.allows(request)) return;
    throw new HttpError(
      403,
      'admin_forbidden',
      `changing the server needs an admin key in ${ADMIN_KEY_HEADER}` +
        (this.#allowLoopback ? ', or a direct connection from this machine' : '') +
        ' (server.admin)',
      { type: 'permission_error' },
    );
  }
}

/** A connection from this machine that no proxy forwarded. */
function isDirectLoopback(request: FastifyRequest): boolean {
  const { headers } = request;
  if (headers['x-forwarded-for'] !== undefined || headers.forwarded !== undefined) return false;
  return isLoopback(request.socket.remoteAddress);
}

/** 127.0.0.0/8, ::1, and IPv4 loopback mapped into IPv6. */
export function isLoopback(address: string | undefined): boolean {
  if (address === undefined) return false;
  const v4 = address.startsWith('::ffff:') ? address.slice(7) : address;
  if (isIP(v4) === 4) return v4.startsWith('127.');
  return address === '::1';
}
