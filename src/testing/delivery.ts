import type { ServerResponse } from 'node:http';
import { setTimeout as sleep } from 'node:timers/promises';
import type { FakeReply } from './fake-types.js';

/** A response ready to send: status, headers and body pieces. */
export interface PreparedResponse {
  readonly status: number;
  readonly headers: Readonly<Record<string, string>>;
  readonly pieces: readonly string[];
  /** Chunked (no Content-Length) when true. */
  readonly streamed: boolean;
}

/**
 * Writes `response` the way `reply` says: after `delayMs`, or never (`hang`); piece by piece with
 * `intervalMs` between pieces; re-cut into `chunkBytes` pieces; cut off after `stallAfterBytes`
 * (the connection stays open) or `closeAfterBytes` (the connection is destroyed, after calling
 * `onServerClose`). Stops at once when `signal` aborts (the connection closed).
 */
export async function deliver(
  res: ServerResponse,
  response: PreparedResponse,
  reply: FakeReply,
  signal: AbortSignal,
  onServerClose: () => void,
): Promise<void> {
  if (reply.hang) return;
  if (reply.delayMs !== undefined && reply.delayMs > 0 && !(await pause(reply.delayMs, signal))) {
    return;
  }
  let pieces: Buffer[] = response.pieces.map((piece) => Buffer.from(piece, 'utf8'));
  const total = pieces.reduce((sum, piece) => sum + piece.length, 0);
  if (reply.chunkBytes !== undefined && reply.chunkBytes > 0) {
    pieces = recut(Buffer.concat(pieces), reply.chunkBytes);
  }
  const headers: Record<string, string> = { ...response.headers };
  if (!response.streamed) headers['content-length'] = String(total);
  if (signal.aborted) return;
  res.writeHead(response.status, headers);
  res.flushHeaders();
  const limit = reply.stallAfterBytes ?? reply.closeAfterBytes ?? Number.POSITIVE_INFINITY;
  let sent = 0;
  for (let i = 0; i < pieces.length; i++) {
    if (i > 0 && reply.intervalMs && !(await pause(reply.intervalMs, signal))) return;
    if (signal.aborted) return;
    const piece = pieces[i] as Buffer;
    if (sent + piece.length >= limit && limit < total) {
      const head = piece.subarray(0, limit - sent);
      if (reply.stallAfterBytes !== undefined) {
        if (head.length > 0) res.write(head);
        return;
      }
      onServerClose();
      if (head.length === 0) res.socket?.destroy();
      else res.write(head, () => res.socket?.destroy());
      return;
    }
    res.write(piece);
    sent += piece.length;
  }
  res.end();
}

function recut(body: Buffer, size: number): Buffer[] {
  const pieces: Buffer[] = [];
  for (let i = 0; i < body.length; i += size) pieces.push(body.subarray(i, i + size));
  return pieces;
}

/** Waits `ms`; false when the signal aborted first. */
async function pause(ms: number, signal: AbortSignal): Promise<boolean> {
  try {
    await sleep(ms, undefined, { signal });
    return true;
  } catch {
    return false;
  }
}
