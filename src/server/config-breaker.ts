import Type, { type Static } from 'typebox';
import { DEFAULT_BREAKER } from '../state/breaker-store.js';

/**
 * The `breaker` section: the circuit breaker of each upstream model (docs/instances.md,
 * "Upstream health"). A reload applies it to requests that arrive from then on.
 */
export const BreakerSectionSchema = Type.Object(
  {
    /** Off: every model of a request's chain is tried, however often it failed. */
    enabled: Type.Boolean({ default: DEFAULT_BREAKER.enabled }),
    /**
     * Unhealthy attempts in a row (connection failures, timeouts, 408, 429, 5xx, no answer; no
     * healthy answer in between) that open a model's breaker: it is skipped for `openMs`.
     */
    failures: Type.Integer({ minimum: 1, maximum: 1_000, default: DEFAULT_BREAKER.failures }),
    /** How long an open breaker skips its model before one request probes it, in ms. */
    openMs: Type.Integer({ minimum: 100, maximum: 3_600_000, default: DEFAULT_BREAKER.openMs }),
  },
  { additionalProperties: false, default: {} },
);

export type BreakerSection = Static<typeof BreakerSectionSchema>;
