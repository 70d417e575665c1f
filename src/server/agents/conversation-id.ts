import { createHash } from 'node:crypto';
import { CONVERSATION_HEADER } from './agents-config.js';

/**
 * Which conversation a request continues, so that per-conversation work (the guidance trajectory)
 * is incremental across requests: the client's `x-triage-conversation` header when it sends one,
 * else a hash of the conversation's opening (its messages up to and including the first user
 * message), which every later request of the same conversation repeats unchanged.
 */

/** Longest conversation id taken from the header. */
const MAX_ID = 200;

/** The conversation id of a request. */
export function conversationId(
  headers: Readonly<Record<string, string | string[] | undefined>>,
  messages: readonly unknown[],
): string {
  const given = headers[CONVERSATION_HEADER];
  if (typeof given === 'string' && given.trim() !== '') return `h:${given.trim().slice(0, MAX_ID)}`;
  const hash = createHash('sha256');
  for (const message of messages) {
    hash.update(JSON.stringify(message) ?? 'null').update('\n');
    if ((message as { role?: unknown } | null)?.role === 'user') break;
  }
  return `m:${hash.digest('base64url').slice(0, 22)}`;
}
