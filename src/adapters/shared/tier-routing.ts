import { ConfigError } from '../../core/errors.js';
import type { TierDecision } from '../../tier/decision.js';
import { TIERS, type Tier, tierRank } from '../../tier/tiers.js';
import { createTriage, type Triage, type TriageDecision } from '../../triage.js';
import type { TriageChatRequest } from '../../triage-request.js';

/**
 * What every routing adapter shares: the tier decision from the front door, and the models to
 * try for it, in the order of the tier's fallback chain. The adapters only translate their
 * framework's call into a chat request and back; the decision is the tier router's.
 */

/** The models of each tier: one model, or several tried in order. At least one tier. */
export type TierModels<M> = Partial<Readonly<Record<Tier, M | readonly M[]>>>;

/** One model to try, and the tier it serves. */
export interface TierTarget<M> {
  readonly tier: Tier;
  readonly model: M;
}

const TIER_ONLY = { parts: ['tier'] } as const;

/** The front door adapters use when none is given: the tier part alone. */
export function tierOnlyTriage(): Triage {
  return createTriage({ injection: false, context: false });
}

/**
 * The tier decision of a request: the local one, or the checked one when the tier router is unsure
 * and an LLM is configured (then asynchronous). Never rejects because of the LLM.
 */
export function decideTier(
  triage: Triage,
  request: TriageChatRequest,
  signal: AbortSignal | undefined,
  deadlineMs: number | undefined,
): TierDecision | Promise<TierDecision> {
  const local = triage.classify(request, TIER_ONLY);
  if (!local.tier!.needsLlm) return local.tier!;
  return triage
    .decide(request, {
      ...TIER_ONLY,
      from: local,
      ...(signal === undefined ? {} : { signal }),
      ...(deadlineMs === undefined ? {} : { deadlineMs }),
    })
    .then(tierOf);
}

function tierOf(decision: TriageDecision): TierDecision {
  return decision.tier!;
}

/**
 * The models to try for each tier: every model of each tier of its fallback chain that has models,
 * in chain order, each model once. A tier whose chain reaches no model gets the nearest tier with
 * models, higher first (a harder request is better served by a stronger model than by none).
 */
export class TierTargets<M> {
  readonly #byRank: readonly (readonly TierTarget<M>[])[];

  constructor(tiers: TierModels<M>, triage: Triage, where: string) {
    const router = triage.tier;
    if (router === undefined) {
      throw new ConfigError(where, [{ path: '/triage', message: 'the tier part must be on' }]);
    }
    if (typeof tiers !== 'object' || tiers === null) {
      throw new ConfigError(where, [{ path: '/tiers', message: 'must be an object of tiers' }]);
    }
    const issues: { path: string; message: string }[] = [];
    const models = new Map<Tier, readonly M[]>();
    for (const [key, value] of Object.entries(tiers)) {
      if (!(TIERS as readonly string[]).includes(key)) {
        issues.push({ path: `/tiers/${key}`, message: `is not a tier (${TIERS.join(', ')})` });
        continue;
      }
      const list = (Array.isArray(value) ? value : [value]) as readonly M[];
      if (list.length === 0 || list.some((m) => m === undefined || m === null)) {
        issues.push({ path: `/tiers/${key}`, message: 'must be a model or a non-empty list' });
      } else models.set(key as Tier, list);
    }
    if (issues.length === 0 && models.size === 0) {
      issues.push({ path: '/tiers', message: 'must give the models of at least one tier' });
    }
    if (issues.length > 0) throw new ConfigError(where, issues);
    this.#byRank = TIERS.map((tier) => {
      const targets: TierTarget<M>[] = [];
      const add = (of: Tier) => {
        for (const model of models.get(of) ?? []) {
          if (!targets.some((t) => t.model === model)) targets.push({ tier: of, model });
        }
      };
      for (const of of router.fallbackChain(tier)) add(of);
      if (targets.length === 0) add(nearest(tier, models));
      return targets;
    });
  }

  /** The models to try for a tier, in order (never empty). */
  of(tier: Tier): readonly TierTarget<M>[] {
    return this.#byRank[tierRank(tier)]!;
  }
}

function nearest<M>(tier: Tier, models: ReadonlyMap<Tier, readonly M[]>): Tier {
  const rank = tierRank(tier);
  for (let distance = 1; distance < TIERS.length; distance++) {
    const up = TIERS[rank + distance];
    if (up !== undefined && models.has(up)) return up;
    const down = TIERS[rank - distance];
    if (down !== undefined && models.has(down)) return down;
  }
  return tier;
}

/** A model that failed, and why (the error as thrown). */
export interface FailedAttempt<M> {
  readonly target: TierTarget<M>;
  readonly error: unknown;
}

/** Options of {@link tryInOrder}. */
export interface FallbackOptions<M> {
  readonly signal?: AbortSignal | undefined;
  /** Whether an error moves on to the next model. Default: any error but an abort. */
  readonly shouldFallback?: ((error: unknown) => boolean) | undefined;
  /** Told about each model that failed before the next one is tried. */
  readonly onFallback?: ((failed: FailedAttempt<M>) => void) | undefined;
}

/** What {@link tryInOrder} returns: the value, the model that gave it, the ones that failed. */
export interface Attempted<M, T> {
  readonly value: T;
  readonly target: TierTarget<M>;
  readonly failed: readonly FailedAttempt<M>[];
}

const NO_FAILURES: readonly never[] = Object.freeze([]);

/**
 * Runs `attempt` on each target in order until one succeeds: the fallback chain. An abort (the
 * caller's signal) stops at once; the last model's error is thrown as it is, so the framework's
 * own error handling (its retries, its error types) still applies.
 */
export async function tryInOrder<M, T>(
  targets: readonly TierTarget<M>[],
  attempt: (target: TierTarget<M>) => PromiseLike<T>,
  options: FallbackOptions<M> = {},
): Promise<Attempted<M, T>> {
  let failed: FailedAttempt<M>[] | undefined;
  for (let i = 0; ; i++) {
    const target = targets[i]!;
    try {
      const value = await attempt(target);
      return { value, target, failed: failed ?? NO_FAILURES };
    } catch (error) {
      const last = i === targets.length - 1;
      if (last || options.signal?.aborted || !(options.shouldFallback ?? isNotAbort)(error)) {
        throw error;
      }
      const failure = { target, error };
      failed ??= [];
      failed.push(failure);
      options.onFallback?.(failure);
    }
  }
}

function isNotAbort(error: unknown): boolean {
  return !(
    error instanceof Error &&
    (error.name === 'AbortError' || error.name === 'TimeoutError')
  );
}

/** The audit of a routing decision, as JSON for a framework's metadata. Plain data. */
export interface RoutingMetadata {
  readonly [key: string]: string | number | boolean | null | readonly string[];
  readonly tier: Tier;
  /** The tier of the model that answered (another one when the chain moved on). */
  readonly servedBy: Tier;
  readonly model: string;
  readonly source: string;
  readonly confidence: number;
  readonly reason: string;
  readonly fallbackCause: string | null;
  /** The models that failed before, in order. */
  readonly failed: readonly string[];
}

/** The routing audit of one call: the decision, the model that answered, the ones that failed. */
export function routingMetadata<M>(
  decision: TierDecision,
  attempted: Pick<Attempted<M, unknown>, 'target' | 'failed'>,
  name: (model: M) => string,
): RoutingMetadata {
  return {
    tier: decision.tier,
    servedBy: attempted.target.tier,
    model: name(attempted.target.model),
    source: decision.source,
    confidence: decision.confidence,
    reason: decision.reason,
    fallbackCause: decision.fallbackCause,
    failed: attempted.failed.map((f) => name(f.target.model)),
  };
}

/** The routing options every adapter takes, whatever its framework's models `M` are. */
export interface TierRoutingOptions<M> {
  /** The models of each tier; at least one. */
  readonly tiers: TierModels<M>;
  /** The front door whose tier part decides (its LLM check when unsure). Default: a local one. */
  readonly triage?: Triage;
  /** Most milliseconds the tier decision may spend on its LLM check. */
  readonly deadlineMs?: number;
  /** Whether an error moves on to the next model of the chain. Default: any error but an abort. */
  readonly shouldFallback?: (error: unknown) => boolean;
  /** Told about each model that failed before the next one is tried. */
  readonly onFallback?: (failed: FailedAttempt<M>) => void;
  /** Told about each routed call: the decision and the audit the adapter adds to the answer. */
  readonly onRoute?: (decision: TierDecision, metadata: RoutingMetadata) => void;
}

/**
 * An adapter's routing, built once from its options: the tier decision of a call, the models to
 * try for it and how to fall back along them, and the audit of what happened (told to `onRoute`).
 */
export class TierRouting<M> {
  /** The front door that decides. */
  readonly triage: Triage;
  /** The models to try for each tier. */
  readonly targets: TierTargets<M>;
  readonly #options: TierRoutingOptions<M>;
  readonly #name: (model: M) => string;

  /** `source` names the options in errors; `name` is how a model is named in the audit. */
  constructor(options: TierRoutingOptions<M>, source: string, name: (model: M) => string) {
    this.triage = options.triage ?? tierOnlyTriage();
    this.targets = new TierTargets(options.tiers, this.triage, source);
    this.#options = options;
    this.#name = name;
  }

  /** The tier decision of a call's request (see {@link decideTier}). */
  decide(
    request: TriageChatRequest,
    signal: AbortSignal | undefined,
  ): TierDecision | Promise<TierDecision> {
    return decideTier(this.triage, request, signal, this.#options.deadlineMs);
  }

  /** How a call falls back along its models ({@link tryInOrder}'s options). */
  fallback(signal: AbortSignal | undefined): FallbackOptions<M> {
    return {
      signal,
      shouldFallback: this.#options.shouldFallback,
      onFallback: this.#options.onFallback,
    };
  }

  /** The audit of a routed call, told to `onRoute`. */
  audit(
    decision: TierDecision,
    attempted: Pick<Attempted<M, unknown>, 'target' | 'failed'>,
  ): RoutingMetadata {
    const metadata = routingMetadata(decision, attempted, this.#name);
    this.#options.onRoute?.(decision, metadata);
    return metadata;
  }
}
