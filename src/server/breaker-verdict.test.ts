import { describe, expect, it } from 'vitest';
import type { AttemptFailure, FailureReason } from './attempt.js';
import { verdictOf } from './breaker-verdict.js';

const failed = (reason: FailureReason, status?: number): AttemptFailure => ({
  kind: 'failed',
  reason,
  ...(status === undefined ? {} : { status }),
  detail: '',
  ms: 1,
});

describe('verdictOf', () => {
  it("counts the upstream's failures, not the request's", () => {
    expect(
      verdictOf({ kind: 'answered', status: 400, streamed: false, firstByteMs: 1 }, false),
    ).toBe('healthy');
    for (const reason of [
      'timeout',
      'connect_timeout',
      'connection_refused',
      'connection_error',
      'invalid_answer',
    ] as const) {
      expect(verdictOf(failed(reason), false)).toBe('unhealthy');
    }
    for (const status of [408, 429, 500, 503]) {
      expect(verdictOf(failed('status', status), false)).toBe('unhealthy');
    }
    // The request's own deadline cut the attempt short: nothing learned about the upstream.
    expect(verdictOf(failed('timeout'), true)).toBe('unknown');
    expect(verdictOf(failed('connection_refused'), true)).toBe('unhealthy');
    expect(verdictOf(failed('too_large'), false)).toBe('unknown');
    expect(verdictOf({ kind: 'aborted' }, false)).toBe('unknown');
    expect(verdictOf({ kind: 'closed' }, false)).toBe('unknown');
  });
});
