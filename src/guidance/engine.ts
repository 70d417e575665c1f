import type { AsyncClassifier, Classifier } from '../core/classifier.js';
import { type ClassifierConfig, CooldownTracker, classifierConfig } from '../core/cooldown.js';
import { withDeadline } from '../core/deadline.js';
import { ConfigError, TriageError } from '../core/errors.js';
import type { DecideOptions, DecisionAudit, DecisionSource } from '../core/hybrid.js';
import type { ClassificationResult } from '../core/result.js';
import { type ClassifierEntry, type ClassifierFailure, runClassifiers } from '../core/run.js';
import { TrajectoryBuilder, type TrajectoryBuilderOptions } from './builder.js';
import { defaultGuidanceProviders } from './defaults.js';
import { compileTemplate, type TemplateValues } from './template.js';
import type {
  GuidanceContext,
  GuidanceSessionInput,
  Trajectory,
  TrajectoryEvent,
} from './types.js';

/** The text to inject: fixed, with placeholders (see `compileTemplate`), or computed. */
export type GuidanceText =
  | string
  | ((result: ClassificationResult, context: GuidanceContext) => string);

/**
 * A provider of guidance (the original design's `GuidanceProviderConfig`): a classifier, the guidance it
 * triggers, and how often it may fire. Give `classifier` (local) or `asyncClassifier` (LLM).
 */
export interface GuidanceProvider {
  /** Unique id; cooldowns, limits and reports use it. Default: the classifier's name. */
  readonly id?: string;
  readonly classifier?: Classifier<GuidanceContext>;
  readonly asyncClassifier?: AsyncClassifier<GuidanceContext>;
  /** The message to inject when it fires. */
  readonly guidance: GuidanceText;
  /** Confidence a relevant result must reach. Default 0.5. */
  readonly minConfidence?: number;
  /** Turns to stay silent after firing. Default 0. */
  readonly cooldownTurns?: number;
  /** Most fires in a session. Default unlimited. */
  readonly maxFiresPerSession?: number;
  /** Most fires within one turn (the engine evaluates after every event). Default 1. */
  readonly maxPerTurn?: number;
}

/**
 * Guidance to inject now, with the audit every triage decision carries: `source` is `local` for
 * a trajectory classifier, `llm` or `cached` for an LLM-backed one. (A guidance provider that
 * cannot decide fails open: it gives no guidance, so no guidance has source `fallback`.) Plain
 * data.
 */
export interface Guidance extends DecisionAudit {
  /** The provider that fired. */
  readonly provider: string;
  /** The classifier's name. */
  readonly classifier: string;
  /** The text to inject into the agent's context. */
  readonly message: string;
  /** The turn it fired in. */
  readonly turn: number;
  readonly metadata?: Readonly<Record<string, unknown>>;
}

/** Options of a {@link GuidanceEngine}. */
export interface GuidanceEngineOptions {
  /** In priority order. Default: {@link defaultGuidanceProviders}. */
  readonly providers?: readonly GuidanceProvider[];
  /** The trajectory's retention and look-back. */
  readonly trajectory?: TrajectoryBuilderOptions;
  /**
   * Most providers that may fire on one event. Default 1: the first provider that fires wins,
   * as in the original design's execution order.
   */
  readonly maxPerEvent?: number;
  /** Told about every classifier that throws (the engine fails open past it). */
  readonly onError?: (failure: ClassifierFailure) => void;
  /** The session classifiers see as `context.session` (an id, the application's data). */
  readonly session?: GuidanceSessionInput;
}

/** Counters of a {@link GuidanceEngine}. */
export interface GuidanceEngineStats {
  events: number;
  evaluations: number;
  /** Guidance returned. */
  fired: number;
  /** Classifiers that threw (the engine went on without them). */
  failures: number;
}

/** A provider, validated and ready to run. */
class CompiledProvider implements Classifier<GuidanceContext> {
  /** The provider id: cooldowns and limits are tracked under it, not under the classifier name. */
  readonly name: string;
  readonly index: number;
  readonly sync: Classifier<GuidanceContext> | undefined;
  readonly async: AsyncClassifier<GuidanceContext> | undefined;
  readonly config: ClassifierConfig;
  readonly maxPerTurn: number;
  readonly entry: ClassifierEntry<GuidanceContext>;
  readonly #text: (result: ClassificationResult, context: GuidanceContext, turn: number) => string;

  constructor(provider: GuidanceProvider, index: number) {
    const where = `/providers/${index}`;
    const classifier = provider.classifier ?? provider.asyncClassifier;
    if ((provider.classifier === undefined) === (provider.asyncClassifier === undefined)) {
      throw new ConfigError('guidance providers', [
        { path: where, message: 'needs exactly one of classifier and asyncClassifier' },
      ]);
    }
    this.name = provider.id ?? classifier!.name;
    this.index = index;
    this.sync = provider.classifier;
    this.async = provider.asyncClassifier;
    const { minConfidence, cooldownTurns, maxFiresPerSession, maxPerTurn = 1 } = provider;
    this.config = classifierConfig(
      {
        ...(minConfidence === undefined ? {} : { minConfidence }),
        ...(cooldownTurns === undefined ? {} : { cooldownTurns }),
        ...(maxFiresPerSession === undefined ? {} : { maxFiresPerSession }),
      },
      this.name,
    );
    if (!Number.isSafeInteger(maxPerTurn) || maxPerTurn < 1) {
      throw new ConfigError('guidance providers', [
        { path: `${where}/maxPerTurn`, message: 'must be an integer >= 1' },
      ]);
    }
    this.maxPerTurn = maxPerTurn;
    this.entry = { classifier: this, config: this.config };
    const { guidance } = provider;
    if (typeof guidance === 'function') {
      this.#text = (result, context) => guidance(result, context);
    } else {
      if (typeof guidance !== 'string' || guidance.trim() === '') {
        throw new ConfigError('guidance providers', [
          { path: `${where}/guidance`, message: 'must be a non-empty string or a function' },
        ]);
      }
      const render = compileTemplate(guidance);
      const values = (result: ClassificationResult, turn: number): TemplateValues => ({
        result,
        turn,
        provider: this.name,
        classifier: classifier!.name,
      });
      this.#text = (result, _context, turn) => render(values(result, turn));
    }
  }

  /** The classifier's own name. */
  get classifierName(): string {
    return (this.sync ?? this.async)!.name;
  }

  classify(context: GuidanceContext): ClassificationResult {
    return this.sync!.classify(context);
  }

  guidance(result: ClassificationResult, context: GuidanceContext, turn: number): Guidance {
    const metadata = result.metadata;
    const local = this.sync !== undefined;
    const source = local ? 'local' : llmSourceOf(metadata);
    const llmMs = metadata?.llmMs;
    return {
      provider: this.name,
      classifier: this.classifierName,
      message: this.#text(result, context, turn),
      source,
      confidence: result.confidence,
      localConfidence: local ? result.confidence : null,
      llmConfidence: local ? null : result.confidence,
      llmMs: typeof llmMs === 'number' ? llmMs : 0,
      cached: source === 'cached',
      reason: result.reason ?? 'matched',
      fallbackCause: null,
      turn,
      ...(metadata === undefined ? {} : { metadata }),
    };
  }
}

/** The source of a fired LLM-backed provider: what its classifier recorded, else `llm`. */
function llmSourceOf(metadata: Readonly<Record<string, unknown>> | undefined): DecisionSource {
  const source = metadata?.source;
  return source === 'cached' || source === 'local' ? source : 'llm';
}

const NONE: readonly Guidance[] = Object.freeze([]);

/**
 * From agent events to "inject this message now", in one call per event.
 *
 * ```ts
 * const guide = new GuidanceEngine();                 // the default providers
 * for (const event of agentEvents) {
 *   for (const g of guide.onEvent(event)) inject(g.message);
 * }
 * ```
 *
 * After each event the engine runs its providers in priority order over the trajectory (through
 * the core `runClassifiers`, so classifiers that throw are skipped and reported, fail open) and
 * returns the guidance of the first `maxPerEvent` that fire, honouring each provider's minimum
 * confidence, cooldown, session limit and per-turn limit. LLM-backed providers run only in
 * {@link onEventAsync}, in their place in the declaration order, and only while the event's
 * budget is not used up: declared after the local providers, a cheap LLM is asked only when no
 * local signal already answered; declared first, it can win.
 *
 * One engine per agent session. Events may arrive concurrently (parallel tool callbacks): while
 * an LLM-backed provider evaluates one event, the next ones wait in a queue and are applied and
 * evaluated one at a time, in the order they were submitted; none is dropped. Each caller gets the
 * guidance of its own event.
 */
export class GuidanceEngine {
  readonly maxPerEvent: number;
  readonly #options: GuidanceEngineOptions;
  readonly #providers: readonly CompiledProvider[];
  readonly #async: readonly CompiledProvider[];
  readonly #stats: GuidanceEngineStats = { events: 0, evaluations: 0, fired: 0, failures: 0 };
  #builder: TrajectoryBuilder;
  #tracker = new CooldownTracker();
  // Fires per provider in the turn `#turn`; providers at their per-turn limit leave `#entries`.
  #turn = -1;
  readonly #firedThisTurn: Int32Array;
  #entries: ClassifierEntry<GuidanceContext>[] = [];
  #entriesStale = true;
  // The queue of an engine with LLM-backed providers: operations submitted and not yet settled,
  // and the promise the next one waits for. A local-only engine never waits, so never queues.
  #pending = 0;
  #tail: Promise<void> = Promise.resolve();
  readonly #settle = (): void => {
    this.#pending--;
  };
  readonly #onError: (failure: ClassifierFailure) => void;

  constructor(options: GuidanceEngineOptions = {}) {
    this.#options = options;
    const providers = (options.providers ?? defaultGuidanceProviders()).map(
      (provider, index) => new CompiledProvider(provider, index),
    );
    const seen = new Set<string>();
    for (const provider of providers) {
      if (seen.has(provider.name)) {
        throw new ConfigError('guidance providers', [
          { path: `/providers/${provider.index}/id`, message: `duplicate id '${provider.name}'` },
        ]);
      }
      seen.add(provider.name);
    }
    this.#providers = providers;
    this.#async = providers.filter((p) => p.async !== undefined);
    const maxPerEvent = options.maxPerEvent ?? 1;
    if (!Number.isSafeInteger(maxPerEvent) || maxPerEvent < 1) {
      throw new ConfigError('guidance engine options', [
        { path: '/maxPerEvent', message: 'must be an integer >= 1' },
      ]);
    }
    this.maxPerEvent = maxPerEvent;
    this.#firedThisTurn = new Int32Array(providers.length);
    this.#builder = this.#newTrajectory(options.session);
    const { onError } = options;
    this.#onError = (failure) => {
      this.#stats.failures++;
      onError?.(failure);
    };
  }

  /** The trajectory so far. */
  get trajectory(): Trajectory {
    return this.#builder;
  }

  /** What the classifiers read. */
  get context(): GuidanceContext {
    return this.#builder.context;
  }

  /** The provider ids, in priority order. */
  get providerIds(): readonly string[] {
    return this.#providers.map((p) => p.name);
  }

  /** A copy of the counters. */
  get stats(): GuidanceEngineStats {
    return { ...this.#stats };
  }

  /** Events (and resets) submitted and not yet evaluated: 0 unless LLM-backed providers wait. */
  get pending(): number {
    return this.#pending;
  }

  /** Resolves once every event submitted so far has been evaluated (at once when none waits). */
  idle(): Promise<void> {
    return this.#tail;
  }

  /** How often a provider has fired in this session. */
  fireCount(providerId: string): number {
    return this.#tracker.fireCount(providerId);
  }

  /**
   * Applies one event and returns the guidance of the local providers (synchronous, no I/O).
   * Throws a `TrajectoryEventError` for an event that does not fit the trajectory, and a
   * `TriageError` when LLM-backed providers are configured (use {@link decide}).
   */
  classify(event: TrajectoryEvent): readonly Guidance[] {
    return this.onEvent(event);
  }

  /**
   * Applies one event and returns the guidance to inject now, asking LLM-backed providers when
   * no local provider used up the event's budget (each under its own timeout; a provider still
   * waiting at the caller's `deadlineMs` gives no guidance). Never rejects because of a
   * provider: they fail open.
   *
   * May be called again before the previous call settled: the event waits its turn and is
   * applied after every event submitted before it. `deadlineMs` counts from the call, so time
   * spent waiting is part of it (the event is still applied and its local providers still run).
   * Rejects with a `TrajectoryEventError` for an event that does not fit the trajectory; the
   * events behind it go on.
   */
  async decide(event: TrajectoryEvent, options: DecideOptions = {}): Promise<readonly Guidance[]> {
    return this.#onEvent(event, options);
  }

  /**
   * Applies one event and returns the guidance to inject now (usually none).
   *
   * @deprecated Use {@link classify} (the same call under the name every subsystem uses).
   */
  onEvent(event: TrajectoryEvent): readonly Guidance[] {
    if (this.#async.length > 0) {
      throw new TriageError(
        'guidance_async_required',
        `providers ${this.#async.map((p) => p.name).join(', ')} ask an LLM: use decide`,
      );
    }
    this.#builder.onEvent(event);
    this.#stats.events++;
    this.#stats.evaluations++;
    return this.#evaluateLocal([]);
  }

  /**
   * Applies one event and returns the guidance to inject now, asking LLM-backed providers.
   *
   * @deprecated Use {@link decide}: `decide(event, { signal })`.
   */
  onEventAsync(event: TrajectoryEvent, signal?: AbortSignal): Promise<readonly Guidance[]> {
    return this.#onEvent(event, signal === undefined ? {} : { signal });
  }

  #onEvent(event: TrajectoryEvent, options: DecideOptions): Promise<readonly Guidance[]> {
    if (this.#async.length === 0) return this.#evaluateNow(event);
    const { signal, deadlineMs } = options;
    const until = deadlineMs === undefined ? undefined : performance.now() + deadlineMs;
    const run =
      this.#pending === 0
        ? this.#evaluate(event, signal, until)
        : this.#tail.then(() => this.#evaluate(event, signal, until));
    this.#pending++;
    this.#tail = run.then(this.#settle, this.#settle);
    return run;
  }

  /** A local-only engine: nothing to wait for, the event is evaluated before the call returns. */
  async #evaluateNow(event: TrajectoryEvent): Promise<readonly Guidance[]> {
    this.#builder.onEvent(event);
    this.#stats.events++;
    this.#stats.evaluations++;
    return this.#evaluateLocal([]);
  }

  /** Applies and evaluates one event; the queue guarantees no other is being evaluated. */
  async #evaluate(
    event: TrajectoryEvent,
    signal: AbortSignal | undefined,
    until: number | undefined,
  ): Promise<readonly Guidance[]> {
    this.#builder.onEvent(event);
    this.#stats.events++;
    this.#stats.evaluations++;
    const out: Guidance[] = [];
    await this.#evaluateInOrder(out, signal, until);
    return out.length > 0 ? out : NONE;
  }

  /**
   * Runs the providers in declaration order (first match wins): the local ones before an
   * LLM-backed provider, then it, and so on, so an LLM provider declared first can win.
   */
  async #evaluateInOrder(
    out: Guidance[],
    signal: AbortSignal | undefined,
    until: number | undefined,
  ): Promise<void> {
    let from = 0;
    for (const provider of this.#async) {
      this.#evaluateLocal(out, from, provider.index);
      if (out.length >= this.maxPerEvent) return;
      await this.#evaluateAsync(out, signal, until, [provider]);
      from = provider.index + 1;
    }
    this.#evaluateLocal(out, from);
  }

  /**
   * Starts a new session (`session`, or a new id and no data): an empty trajectory, no fires, no
   * cooldowns. Counters are kept. While events wait in the queue, the reset takes its place
   * behind them: they belong to the old session, the events submitted after it to the new one.
   */
  reset(session?: GuidanceSessionInput): void {
    const builder = this.#newTrajectory(session); // validates `session` now, in the caller
    const resetNow = (): void => {
      this.#builder = builder;
      this.#tracker = new CooldownTracker();
      this.#turn = -1;
      this.#entriesStale = true;
    };
    if (this.#pending === 0) {
      resetNow();
      return;
    }
    this.#pending++;
    this.#tail = this.#tail.then(resetNow).then(this.#settle);
  }

  /** Runs the local providers declared in [from, to), adding what fires to `out`. */
  #evaluateLocal(out: Guidance[], from = 0, to = this.#providers.length): readonly Guidance[] {
    const context = this.#builder.context;
    const turn = this.#startTurn();
    let entries = this.#activeEntries();
    if (from > 0 || to < this.#providers.length) {
      entries = entries.filter((entry) => {
        const { index } = entry.classifier as CompiledProvider;
        return index >= from && index < to;
      });
    }
    const options = { turn, tracker: this.#tracker, onError: this.#onError };
    while (out.length < this.maxPerEvent && entries.length > 0) {
      const { fired } = runClassifiers(entries, context, options);
      if (fired === undefined) break;
      const provider = fired.classifier as CompiledProvider;
      out.push(this.#fire(provider, fired.result, turn));
      entries = entries.slice(entries.indexOf(provider.entry) + 1);
    }
    return out.length > 0 ? out : NONE;
  }

  async #evaluateAsync(
    out: Guidance[],
    signal: AbortSignal | undefined,
    until: number | undefined,
    providers: readonly CompiledProvider[],
  ): Promise<void> {
    const context = this.#builder.context;
    const turn = this.#startTurn();
    for (const provider of providers) {
      if (out.length >= this.maxPerEvent) return;
      if (this.#firedThisTurn[provider.index]! >= provider.maxPerTurn) continue;
      if (this.#tracker.blockedBy(provider.name, turn, provider.config) !== undefined) continue;
      let result: ClassificationResult;
      try {
        const remaining = until === undefined ? undefined : until - performance.now();
        if (remaining !== undefined && remaining <= 0) return; // the deadline: no more guidance
        result = await withDeadlineOf(provider.async!, context, signal, remaining);
      } catch (error) {
        this.#onError({ name: provider.name, error });
        continue;
      }
      if (!result.relevant || result.confidence < provider.config.minConfidence) continue;
      this.#tracker.recordFire(provider.name, turn);
      out.push(this.#fire(provider, result, turn));
    }
  }

  #fire(provider: CompiledProvider, result: ClassificationResult, turn: number): Guidance {
    this.#firedThisTurn[provider.index]!++;
    if (this.#firedThisTurn[provider.index]! >= provider.maxPerTurn) this.#entriesStale = true;
    this.#stats.fired++;
    return provider.guidance(result, this.#builder.context, turn);
  }

  /** The current turn; per-turn counts restart when it changes. */
  #startTurn(): number {
    const turn = this.#builder.currentTurn;
    if (turn !== this.#turn) {
      this.#turn = turn;
      this.#firedThisTurn.fill(0);
      this.#entriesStale = true;
    }
    return turn;
  }

  /** Local providers still allowed to fire this turn; rebuilt only after a fire or a new turn. */
  #activeEntries(): ClassifierEntry<GuidanceContext>[] {
    if (this.#entriesStale) {
      this.#entries = this.#providers
        .filter((p) => p.sync !== undefined && this.#firedThisTurn[p.index]! < p.maxPerTurn)
        .map((p) => p.entry);
      this.#entriesStale = false;
    }
    return this.#entries;
  }

  #newTrajectory(session: GuidanceSessionInput | undefined): TrajectoryBuilder {
    const { trajectory } = this.#options;
    return new TrajectoryBuilder(session === undefined ? trajectory : { ...trajectory, session });
  }
}

/**
 * Runs an async classifier, cut at `remainingMs` when given (it then fails, and its provider
 * gives no guidance, as for any classifier that fails).
 */
function withDeadlineOf(
  classifier: AsyncClassifier<GuidanceContext>,
  context: GuidanceContext,
  signal: AbortSignal | undefined,
  remainingMs: number | undefined,
): Promise<ClassificationResult> {
  if (remainingMs === undefined) return classifier.classify(context, signal);
  return withDeadline(
    (inner) => classifier.classify(context, signal ? AbortSignal.any([signal, inner]) : inner),
    remainingMs,
    `guidance provider ${classifier.name}`,
    signal,
  );
}
