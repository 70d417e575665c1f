import { Counter, collectDefaultMetrics, Gauge, Histogram, Registry } from 'prom-client';
import type { BreakerState, UpstreamBreaker } from '../state/breaker-store.js';
import type { AttemptFailure } from './attempt.js';
import type { Target } from './catalog.js';
import type { Routing } from './routing.js';

/**
 * How often the event-loop delay is sampled, in milliseconds. prom-client's default (10 ms) wakes
 * the process 100 times a second, busy or not: 2-3 ms of CPU per second on a virtual machine,
 * 15-20 µs per request at 200 requests/s. Ten samples a second still give every scrape hundreds.
 */
const EVENT_LOOP_SAMPLE_MS = 100;

/** A breaker's state as the gauge says it. */
const BREAKER_VALUE: Readonly<Record<BreakerState, number>> = { closed: 0, open: 1, half_open: 2 };

/**
 * The server's Prometheus metrics, in a registry of its own (several servers in one process, as in
 * tests, never share counters). Label values come from the configuration and fixed vocabularies,
 * never from a client, so their number stays bounded.
 */
export class ServerMetrics {
  readonly registry = new Registry();

  /** Chat and route requests, by endpoint, tier, model that answered, and status. */
  readonly requests = new Counter({
    name: 'triage_requests_total',
    help: 'Requests by endpoint, decided tier, upstream model that answered (none when no model answered) and HTTP status.',
    labelNames: ['endpoint', 'tier', 'model', 'status'] as const,
    registers: [this.registry],
  });

  readonly decisions = new Counter({
    name: 'triage_decisions_total',
    help: 'Routing decisions by tier and source (local, llm, cached, fallback, forced, passthrough).',
    labelNames: ['tier', 'source'] as const,
    registers: [this.registry],
  });

  readonly decisionFallbacks = new Counter({
    name: 'triage_decision_fallbacks_total',
    help: 'Routing decisions that fell back, by cause (no_llm, llm_timeout, llm_error, llm_invalid, llm_unsure, deadline).',
    labelNames: ['cause'] as const,
    registers: [this.registry],
  });

  readonly classification = new Histogram({
    name: 'triage_classification_seconds',
    help: 'Time to decide a request (classification, and the LLM check when asked).',
    labelNames: ['source'] as const,
    buckets: [1e-5, 2.5e-5, 5e-5, 1e-4, 2.5e-4, 5e-4, 1e-3, 1e-2, 0.1, 0.5, 1, 2.5],
    registers: [this.registry],
  });

  readonly llmChecks = new Counter({
    name: 'triage_llm_checks_total',
    help: 'Decisions for which the LLM check was asked (cache hits included).',
    registers: [this.registry],
  });

  readonly llmOverrides = new Counter({
    name: 'triage_llm_overrides_total',
    help: 'Decisions in which the LLM check changed the tier of the local classifier.',
    registers: [this.registry],
  });

  readonly upstreamLatency = new Histogram({
    name: 'triage_upstream_first_byte_seconds',
    help: 'Time from sending to an upstream model to its first byte sent to the client, by model and kind of answer.',
    labelNames: ['model', 'kind'] as const,
    buckets: [0.001, 0.005, 0.01, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 120],
    registers: [this.registry],
  });

  readonly upstreamFailures = new Counter({
    name: 'triage_upstream_failures_total',
    help: 'Upstream attempts that failed before the first byte, by model and reason.',
    labelNames: ['model', 'reason'] as const,
    registers: [this.registry],
  });

  readonly fallbacks = new Counter({
    name: 'triage_fallbacks_total',
    help: 'Times a request moved on to the next upstream model, by the model it left and why.',
    labelNames: ['from_model', 'reason'] as const,
    registers: [this.registry],
  });

  readonly breakerSkips = new Counter({
    name: 'triage_upstream_breaker_skips_total',
    help: 'Upstream models a request skipped because their circuit breaker was open, by model.',
    labelNames: ['model'] as const,
    registers: [this.registry],
  });

  readonly interrupted = new Counter({
    name: 'triage_stream_interruptions_total',
    help: 'Streams that broke after their first byte (the client got an error event).',
    labelNames: ['model'] as const,
    registers: [this.registry],
  });

  readonly injections = new Counter({
    name: 'triage_injections_total',
    help: 'Texts found suspicious, high-risk or unknown by the injection screen, by level, kind of text and what the policy did (blocked, flagged, none).',
    labelNames: ['level', 'text', 'action'] as const,
    registers: [this.registry],
  });

  readonly errors = new Counter({
    name: 'triage_errors_total',
    help: 'Requests answered with an error by triage itself, by kind.',
    labelNames: ['kind'] as const,
    registers: [this.registry],
  });

  /** 1 where a subsystem asks the LLM check, 0 where it decides locally (none, or no key). */
  readonly llmCheckEnabled = new Gauge({
    name: 'triage_llm_check_enabled',
    help: 'Whether each subsystem (tier, injection, context) asks the LLM check when unsure: 0 when no LLM is configured or its key variable is unset.',
    labelNames: ['subsystem'] as const,
    registers: [this.registry],
  });

  readonly inFlight = new Gauge({
    name: 'triage_requests_in_flight',
    help: 'Chat requests being proxied now.',
    registers: [this.registry],
  });

  /** Created with the first report: absent when the state is in memory. */
  #stateRedisUp: Gauge | undefined;

  readonly stateFallbacks = new Counter({
    name: 'triage_state_fallbacks_total',
    help: "Shared-state operations answered from this instance's memory because Redis was away or late, by part (limits, cache, breaker, guidance).",
    labelNames: ['part'] as const,
    registers: [this.registry],
  });

  constructor(options: { processMetrics?: boolean } = {}) {
    if (options.processMetrics !== false) {
      collectDefaultMetrics({
        register: this.registry,
        eventLoopMonitoringPrecision: EVENT_LOOP_SAMPLE_MS,
      });
    }
  }

  /** Records a routing decision. */
  decided(routing: Routing): void {
    const { decision } = routing;
    this.decisions.inc({ tier: decision.tier, source: decision.source });
    if (decision.fallbackCause) this.decisionFallbacks.inc({ cause: decision.fallbackCause });
    this.classification.observe({ source: decision.source }, routing.decideMs / 1000);
    if (decision.llmChecked) this.llmChecks.inc();
    if (decision.llmOverrode) this.llmOverrides.inc();
  }

  /** Records an upstream attempt that failed before the first byte. */
  failed(target: Target, failure: AttemptFailure, isLast: boolean): void {
    const reason = failure.reason === 'status' ? `http_${failure.status}` : failure.reason;
    this.upstreamFailures.inc({ model: target.model.id, reason });
    if (!isLast) this.fallbacks.inc({ from_model: target.model.id, reason });
  }

  /** Records a model skipped because its breaker is open. */
  skipped(target: Target): void {
    this.breakerSkips.inc({ model: target.model.id });
  }

  /** Reports the state of `breaker`'s models at each scrape. */
  watchBreaker(breaker: UpstreamBreaker): void {
    new Gauge({
      name: 'triage_upstream_breaker_state',
      help: "Each upstream model's circuit breaker: 0 closed (tried), 1 open (skipped), 2 half-open (one probe let through).",
      labelNames: ['model'] as const,
      registers: [this.registry],
      // Across workers, the most open state any of them sees.
      aggregator: 'max',
      collect() {
        for (const [model, state] of breaker.states()) this.set({ model }, BREAKER_VALUE[state]);
      },
    });
  }

  /** Records whether the shared state's Redis answers. */
  redisUp(up: boolean): void {
    this.#stateRedisUp ??= new Gauge({
      name: 'triage_state_redis_up',
      help: 'Whether the Redis holding the state shared by instances answers (1) or not (0: each instance uses its own memory meanwhile).',
      registers: [this.registry],
    });
    this.#stateRedisUp.set(up ? 1 : 0);
  }

  /** The metrics in Prometheus' text format. */
  render(): Promise<string> {
    return this.registry.metrics();
  }

  get contentType(): string {
    return this.registry.contentType;
  }
}
