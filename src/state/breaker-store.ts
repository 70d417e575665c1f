/**
 * Upstream health, as a circuit breaker per upstream model (docs/instances.md, "Upstream
 * health"). A model is **closed** (tried as usual) until `failures` attempts in a row say it is
 * unhealthy; it is then **open** (skipped: requests go straight to the next model of their chain)
 * for `openMs`; after that it is **half-open**: exactly one request (the probe) is let through,
 * whose success closes it again and whose failure opens it for another `openMs`. Any success
 * closes it, whichever request it came from.
 *
 * Two implementations: in this process's memory, and in Redis, shared by every instance pointed
 * at it, so that all of them skip an upstream that one of them found dead. Admissions are read
 * from the instance's memory (a half-open probe is the only one that asks Redis); reports are
 * written in the background.
 */

/** What a model's breaker says now. */
export type BreakerState = 'closed' | 'open' | 'half_open';

/**
 * Whether a request may try a model: `pass` (closed), `probe` (half-open: this request is the one
 * let through), `skip` (open, or half-open with a probe already out).
 */
export type Admission = 'pass' | 'probe' | 'skip';

/**
 * How an attempt went, for the breaker: `healthy` (the upstream answered, whatever it said),
 * `unhealthy` (it could not: connection failures, timeouts, 408, 429, 5xx, no answer), `unknown`
 * (nothing learned about the upstream: the client left, the request's own deadline ran out, the
 * answer was too large for this request).
 */
export type Verdict = 'healthy' | 'unhealthy' | 'unknown';

/**
 * How an attempt was let through: as admitted, or `forced` (every model of the request's chain
 * was open: the one opened longest ago is tried anyway, so that a breaker never makes an outage).
 */
export type AttemptKind = Admission | 'forced';

/** The rules of the breakers (the `breaker` section of the configuration). */
export interface BreakerSettings {
  /** Off: every model is always tried; nothing is counted. */
  readonly enabled: boolean;
  /** Unhealthy attempts in a row (no healthy one in between) that open a model's breaker. */
  readonly failures: number;
  /** How long an open breaker skips its model before it lets one probe through, in ms. */
  readonly openMs: number;
}

/** The defaults of {@link BreakerSettings}. */
export const DEFAULT_BREAKER: BreakerSettings = Object.freeze({
  enabled: true,
  failures: 5,
  openMs: 30_000,
});

/**
 * Told when a model's breaker opens (again) or closes; `shared` when this instance learned it
 * from the state other instances share rather than from its own attempts.
 */
export type BreakerListener = (model: string, state: 'open' | 'closed', shared: boolean) => void;

/** The breakers of every upstream model, by model id (`provider/model`). */
export interface UpstreamBreaker {
  /** Replaces the rules (at start and on reload); turning it off closes every breaker. */
  configure(settings: BreakerSettings): void;
  /** Adds a listener of openings and closings. */
  onChange(listener: BreakerListener): void;
  /**
   * Whether a request may try `model` now. Synchronous except for a half-open model shared
   * through Redis (its one probe is claimed there). `leaseMs`: how long a probe may stay out
   * before another request may probe instead (the attempt's own time limit, and a margin).
   */
  admit(model: string, leaseMs: number): Admission | Promise<Admission>;
  /** What an attempt let through as `kind` said about `model`. Never waits. */
  report(model: string, kind: AttemptKind, verdict: Verdict): void;
  /** When `model`'s breaker opened (epoch ms), or `undefined` when it is closed. */
  openedAt(model: string): number | undefined;
  /** Each model seen so far, and its state now. */
  states(): Iterable<readonly [string, BreakerState]>;
  /** Stops any background work. */
  close(): void;
}
