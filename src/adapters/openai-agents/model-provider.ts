import type {
  Model,
  ModelProvider,
  ModelRequest,
  ModelResponse,
  StreamEvent,
} from '@openai/agents';
import { ConfigError } from '../../core/errors.js';
import type { TierDecision } from '../../tier/decision.js';
import type { Triage } from '../../triage.js';
import {
  decideTier,
  type FailedAttempt,
  type RoutingMetadata,
  routingMetadata,
  type TierModels,
  type TierTarget,
  TierTargets,
  tierOnlyTriage,
  tryInOrder,
} from '../shared/tier-routing.js';
import { chatRequestOf } from './input.js';

/** A tier's model: a model name (resolved by `provider`) or a model. */
export type AgentsTierModel = string | Model;

/** Options of {@link triageModelProvider}. */
export interface TriageModelProviderOptions {
  /** The models of each tier (`{ SIMPLE: 'gpt-4o-mini', COMPLEX: ['gpt-4o', backup] }`). */
  readonly tiers: TierModels<AgentsTierModel>;
  /** Resolves model names (e.g. `new OpenAIProvider()`); needed when a tier names a model. */
  readonly provider?: ModelProvider;
  /** The front door whose tier part decides. Default: a local one. */
  readonly triage?: Triage;
  /** Most milliseconds the tier decision may spend on its LLM check. */
  readonly deadlineMs?: number;
  /** Whether an error moves on to the next model. Default: any error but an abort. */
  readonly shouldFallback?: (error: unknown) => boolean;
  readonly onFallback?: (failed: FailedAttempt<AgentsTierModel>) => void;
  /** Told about each routed call; the same audit is in the response's `providerData.triage`. */
  readonly onRoute?: (decision: TierDecision, metadata: RoutingMetadata) => void;
}

/**
 * A model provider for the OpenAI Agents SDK that routes each model call by tier: the agent's
 * instructions and input decide the tier, the tier's model answers, the tier's fallback chain is
 * tried when a model fails before its first event, and `providerData.triage` of the response says
 * what was decided. An agent whose model is `triage/simple` (… `triage/reasoning`) forces the tier.
 *
 * ```ts
 * const runner = new Runner({
 *   modelProvider: triageModelProvider({ provider: new OpenAIProvider(),
 *     tiers: { SIMPLE: 'gpt-4o-mini', COMPLEX: 'gpt-4o' } }),
 * });
 * ```
 */
export function triageModelProvider(options: TriageModelProviderOptions): ModelProvider {
  const triage = options.triage ?? tierOnlyTriage();
  const targets = new TierTargets(options.tiers, triage, 'triageModelProvider options');
  const named = Object.values(options.tiers)
    .flat()
    .some((model) => typeof model === 'string');
  if (named && options.provider === undefined) {
    throw new ConfigError('triageModelProvider options', [
      { path: '/provider', message: 'is needed to resolve the model names of the tiers' },
    ]);
  }
  const resolved = new Map<string, Promise<Model>>();
  const resolve = (model: AgentsTierModel): Promise<Model> | Model => {
    if (typeof model !== 'string') return model;
    let found = resolved.get(model);
    if (found === undefined) {
      found = Promise.resolve(options.provider!.getModel(model));
      found.catch(() => resolved.delete(model)); // a failed lookup is tried again next time
      resolved.set(model, found);
    }
    return found;
  };
  return {
    getModel(modelName?: string): Model {
      return new TriageAgentsModel(triage, targets, resolve, options, modelName);
    },
  };
}

class TriageAgentsModel implements Model {
  readonly #triage: Triage;
  readonly #targets: TierTargets<AgentsTierModel>;
  readonly #resolve: (model: AgentsTierModel) => Promise<Model> | Model;
  readonly #options: TriageModelProviderOptions;
  /** A forced tier id (`triage/complex`), passed to the tier router as the model asked for. */
  readonly #asked: string | undefined;

  constructor(
    triage: Triage,
    targets: TierTargets<AgentsTierModel>,
    resolve: (model: AgentsTierModel) => Promise<Model> | Model,
    options: TriageModelProviderOptions,
    modelName: string | undefined,
  ) {
    this.#triage = triage;
    this.#targets = targets;
    this.#resolve = resolve;
    this.#options = options;
    this.#asked = modelName;
  }

  async getResponse(request: ModelRequest): Promise<ModelResponse> {
    const decision = await this.#decide(request);
    const attempted = await tryInOrder(
      this.#targets.of(decision.tier),
      async (target) => (await this.#resolve(target.model)).getResponse(request),
      this.#fallback(request),
    );
    const triage = this.#audit(decision, attempted);
    return { ...attempted.value, providerData: { ...attempted.value.providerData, triage } };
  }

  async *getStreamedResponse(request: ModelRequest): AsyncIterable<StreamEvent> {
    const decision = await this.#decide(request);
    const attempted = await tryInOrder(
      this.#targets.of(decision.tier),
      async (target) => {
        const model = await this.#resolve(target.model);
        const events = model.getStreamedResponse(request)[Symbol.asyncIterator]();
        const first = await events.next(); // a failure before the first event moves on
        return { events, first };
      },
      this.#fallback(request),
    );
    const triage = this.#audit(decision, attempted);
    const { events, first } = attempted.value;
    for (let next = first; !next.done; next = await events.next()) {
      const event = next.value;
      yield event.type === 'response_done'
        ? {
            ...event,
            response: {
              ...event.response,
              providerData: { ...event.response.providerData, triage },
            },
          }
        : event;
    }
  }

  #decide(request: ModelRequest): TierDecision | Promise<TierDecision> {
    return decideTier(
      this.#triage,
      chatRequestOf(request.input, request.systemInstructions, this.#asked),
      request.signal,
      this.#options.deadlineMs,
    );
  }

  #fallback(request: ModelRequest) {
    return {
      signal: request.signal,
      shouldFallback: this.#options.shouldFallback,
      onFallback: this.#options.onFallback,
    };
  }

  #audit(
    decision: TierDecision,
    attempted: {
      target: TierTarget<AgentsTierModel>;
      failed: readonly FailedAttempt<AgentsTierModel>[];
    },
  ): RoutingMetadata {
    const metadata = routingMetadata(decision, attempted, modelName);
    this.#options.onRoute?.(decision, metadata);
    return metadata;
  }
}

function modelName(model: AgentsTierModel): string {
  if (typeof model === 'string') return model;
  const named = model as { model?: unknown; modelId?: unknown; name?: unknown };
  const name = named.model ?? named.modelId ?? named.name;
  return typeof name === 'string' ? name : model.constructor.name;
}
