import { TIERS, type Tier } from '../tier/tiers.js';
import { type ServerConfig, type TierModel, tierModels } from './config.js';

/** One upstream model to try, and the tier it was tried for. */
export interface Target {
  readonly tier: Tier;
  readonly model: TierModel;
}

/** A configured model as listed by `GET /v1/models`. */
export interface ListedModel {
  readonly id: string;
  readonly ownedBy: string;
}

/**
 * The configured upstream models, indexed for the request path: the ordered targets of a fallback
 * chain (computed once per distinct chain), and the targets of a model id that passes through.
 */
export class Catalog {
  readonly #byTier = new Map<Tier, readonly TierModel[]>();
  readonly #byModelId = new Map<string, Target[]>();
  readonly #chains = new Map<string, readonly Target[]>();
  readonly #listed: ListedModel[] = [];

  constructor(config: ServerConfig) {
    for (const tier of TIERS) {
      const models = tierModels(config, tier);
      this.#byTier.set(tier, models);
      for (const model of models) {
        // A model is reachable by its bare id and by `provider/model`; the same upstream model
        // listed under several tiers is one target, of the first (cheapest) tier naming it.
        for (const key of [model.model, model.id]) {
          const targets = this.#byModelId.get(key) ?? [];
          if (!targets.some((t) => t.model.id === model.id)) targets.push({ tier, model });
          this.#byModelId.set(key, targets);
        }
        if (!this.#listed.some((m) => m.id === model.model)) {
          this.#listed.push({ id: model.model, ownedBy: model.provider });
        }
      }
    }
  }

  /** Whether any upstream model is configured at all. */
  get isEmpty(): boolean {
    return this.#listed.length === 0;
  }

  /** The configured models of a tier. */
  modelsOf(tier: Tier): readonly TierModel[] {
    return this.#byTier.get(tier) ?? [];
  }

  /**
   * The targets of a fallback chain, in order: every model of the first tier, then every model of
   * the next, each upstream model once.
   */
  targetsOf(chain: readonly Tier[]): readonly Target[] {
    const key = chain.join('>');
    let targets = this.#chains.get(key);
    if (targets === undefined) {
      const list: Target[] = [];
      for (const tier of chain) {
        for (const model of this.modelsOf(tier)) {
          if (!list.some((t) => t.model.id === model.id)) list.push({ tier, model });
        }
      }
      targets = list;
      this.#chains.set(key, targets);
    }
    return targets;
  }

  /** The targets of a configured model id (bare or `provider/model`), or `undefined`. */
  passThrough(modelId: string): readonly Target[] | undefined {
    return this.#byModelId.get(modelId);
  }

  /** The configured models, each bare id once. */
  get listed(): readonly ListedModel[] {
    return this.#listed;
  }
}
