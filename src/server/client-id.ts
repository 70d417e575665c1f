import { createHash } from 'node:crypto';
import type { IncomingHttpHeaders } from 'node:http';
import { presentedKey } from './auth.js';

/**
 * The label a client key is known by in metrics, `/v1/usage` and `limits.keys`: `key-` and the
 * first 8 hex digits of the key's SHA-256 (never the key). Without client keys configured every
 * request is `anonymous`: labels then cannot come from whatever a client sends, and their number
 * stays bounded.
 */

/** The label of requests when no client keys are configured. */
export const ANONYMOUS = 'anonymous';

/** The label of a key. */
export function keyLabel(key: string): string {
  return `key-${createHash('sha256').update(key).digest('hex').slice(0, 8)}`;
}

/** The label of a request's client; the keys were checked already when `keysEnabled`. */
export function clientLabel(headers: IncomingHttpHeaders, keysEnabled: boolean): string {
  if (!keysEnabled) return ANONYMOUS;
  const key = presentedKey(headers);
  return key === undefined ? ANONYMOUS : keyLabel(key);
}
