import type {
  Model,
  ModelProvider,
  ModelRequest,
  ModelResponse,
  StreamEvent,
} from '@openai/agents';
import { ConfigError } from '../../core/errors.js';
import {
  type TierModels,
  TierRouting,
  type TierRoutingOptions,
  tryInOrder,
} from '../shared/tier-routing.js';
import { chatRequestOf } from './input.js';

/** A tier's model: a model name (resolved by `provider`) or a model. */
export type AgentsTierModel = string | Model;

/** Options of {@link triageModelProvider}. */
export interface TriageModelProviderOptions extends TierRoutingOptions<AgentsTierModel> {
  /** The models of each tier (`{ SIMPLE: 'gpt-4o-mini', COMPLEX: ['gpt-4o', backup] }`). */
  readonly tiers: TierModels<AgentsTierModel>;
  /** Resolves model names (e.g. `new OpenAIProvider()`); needed when a tier names a model. */
  readonly provider?: ModelProvider;
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
  const routing = new TierRouting(options, 'triageModelProvider options', modelName);
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
      return new TriageAgentsModel(routing, resolve, modelName);
    },
  };
}

class TriageAgentsModel implements Model {
  readonly #routing: TierRouting<AgentsTierModel>;
  readonly #resolve: (model: AgentsTierModel) => Promise<Model> | Model;
  /** A forced tier id (`triage/complex`), passed to the tier router as the model asked for. */
  readonly #asked: string | undefined;

  constructor(
    routing: TierRouting<AgentsTierModel>,
    resolve: (model: AgentsTierModel) => Promise<Model> | Model,
    modelName: string | undefined,
  ) {
    this.#routing = routing;
    this.#resolve = resolve;
    this.#asked = modelName;
  }

  async getResponse(request: ModelRequest): Promise<ModelResponse> {
    const decision = await this.#routing.decide(
      chatRequestOf(request.input, request.systemInstructions, this.#asked),
      request.signal,
    );
    const attempted = await tryInOrder(
      this.#routing.targets.of(decision.tier),
      async (target) => (await this.#resolve(target.model)).getResponse(request),
      this.#routing.fallback(request.signal),
    );
    const triage = this.#routing.audit(decision, attempted);
    return { ...attempted.value, providerData: { ...attempted.value.providerData, triage } };
  }

  async *getStreamedResponse(request: ModelRequest): AsyncIterable<StreamEvent> {
    const decision = await this.#routing.decide(
      chatRequestOf(request.input, request.systemInstructions, this.#asked),
      request.signal,
    );
    const attempted = await tryInOrder(
      this.#routing.targets.of(decision.tier),
      async (target) => {
        const model = await this.#resolve(target.model);
        const events = model.getStreamedResponse(request)[Symbol.asyncIterator]();
        const first = await events.next(); // a failure before the first event moves on
        return { events, first };
      },
      this.#routing.fallback(request.signal),
    );
    const triage = this.#routing.audit(decision, attempted);
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
}

function modelName(model: AgentsTierModel): string {
  if (typeof model === 'string') return model;
  const named = model as { model?: unknown; modelId?: unknown; name?: unknown };
  const name = named.model ?? named.modelId ?? named.name;
  return typeof name === 'string' ? name : model.constructor.name;
}
