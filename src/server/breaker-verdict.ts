import type { Verdict } from '../state/breaker-store.js';
import type { AttemptOutcome } from './attempt.js';

/**
 * What an attempt says about its upstream's health, for the circuit breakers: an answer (any
 * status the client gets) is healthy; a failure that is the upstream's (no connection, no answer
 * in its time, 408, 429, 5xx, something that is not an answer) is unhealthy; what the request
 * itself caused (the client left, its own deadline cut the attempt short, an answer too large
 * for the server's limit) says nothing.
 */
export function verdictOf(outcome: AttemptOutcome, cutByDeadline: boolean): Verdict {
  switch (outcome.kind) {
    case 'answered':
      return 'healthy';
    case 'aborted':
    case 'closed':
      return 'unknown';
    default:
      if (outcome.reason === 'too_large' || outcome.reason === 'breaker_open') return 'unknown';
      if (outcome.reason === 'timeout' && cutByDeadline) return 'unknown';
      return 'unhealthy';
  }
}
