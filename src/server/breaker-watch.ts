import type { Logger } from 'pino';
import type { UpstreamBreaker } from '../state/breaker-store.js';
import type { BreakerSection } from './config-breaker.js';
import type { ServerMetrics } from './metrics.js';

/**
 * Applies the `breaker` section to the server's breakers, and makes them seen: one log line each
 * time a model's breaker opens or closes (the model id only), and their state in the metrics.
 */
export function watchBreaker(
  breaker: UpstreamBreaker,
  section: BreakerSection,
  logger: Logger,
  metrics: ServerMetrics,
): void {
  breaker.configure(section);
  metrics.watchBreaker(breaker);
  breaker.onChange((model, state, shared) => {
    const by = shared ? 'another instance' : 'this instance';
    if (state === 'open') {
      logger.warn(
        { model, breaker: state, shared },
        `upstream breaker opened (found by ${by}): the model is skipped until a probe succeeds`,
      );
    } else
      logger.info(
        { model, breaker: state, shared },
        'upstream breaker closed: the model is tried again',
      );
  });
}
