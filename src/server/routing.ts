import type { DecisionSource } from '../core/hybrid.js';
import type { Catalog, Target } from './catalog.js';
import type { Cancellation, ChatRequestBody, TierChoice, TierRouterPort } from './decide.js';
import { HttpError } from './errors.js';

/** Where a routing decision came from: the tier router's sources, or a configured model id. */
export type RouteSource = DecisionSource | 'passthrough';

/** A request's routing: the tier decision and the upstream models to try, in order. */
export interface Routing {
  readonly decision: Omit<TierChoice, 'source'> & { readonly source: RouteSource };
  readonly targets: readonly Target[];
  /** Milliseconds the decision took (classification included). */
  readonly decideMs: number;
}

/** What the server does with a model id that is neither routed nor configured. */
export type UnknownModelPolicy = 'reject' | 'route';

/** The model id a request asks for; a missing one means `auto`. */
export function requestedModel(body: ChatRequestBody): string {
  if (body.model === undefined || body.model === null) return 'auto';
  if (typeof body.model !== 'string') {
    throw new HttpError(400, 'invalid_model', 'model must be a string', { param: 'model' });
  }
  return body.model;
}

/**
 * Routes requests: a configured model id passes through to its upstream(s); an id the tier router
 * accepts (`auto`, forced tiers) is decided by it and gets the models of its fallback chain; any
 * other id is rejected or routed as `auto`, as configured.
 */
export class Router {
  readonly #catalog: Catalog;
  readonly #tiers: TierRouterPort;
  readonly #unknownModel: UnknownModelPolicy;

  constructor(catalog: Catalog, tiers: TierRouterPort, unknownModel: UnknownModelPolicy) {
    this.#catalog = catalog;
    this.#tiers = tiers;
    this.#unknownModel = unknownModel;
  }

  /** Routes a request; synchronous unless the tier router asks its LLM check. */
  route(body: ChatRequestBody, cancel: Cancellation): Routing | Promise<Routing> {
    const started = performance.now();
    const model = requestedModel(body);
    const passThrough = this.#tiers.accepts(model) ? undefined : this.#catalog.passThrough(model);
    if (passThrough) return this.#passThrough(passThrough, started);
    if (!this.#tiers.accepts(model) && this.#unknownModel === 'reject') {
      throw new HttpError(
        404,
        'model_not_found',
        `model '${printable(model)}' is not routed by triage nor configured: use 'auto' (or ` +
          `'triage/auto'), a tier id (${this.#tiers.modelIds.filter((id) => id !== 'auto' && !id.endsWith('/auto')).join(', ')}), ` +
          'or a model listed by GET /v1/models',
        { param: 'model' },
      );
    }
    const decided = this.#tiers.decide(body, cancel);
    if (decided instanceof Promise) return decided.then((d) => this.#tiered(d, started));
    return this.#tiered(decided, started);
  }

  #tiered(decision: TierChoice, started: number): Routing {
    return {
      decision,
      targets: this.#catalog.targetsOf(decision.chain),
      decideMs: performance.now() - started,
    };
  }

  #passThrough(targets: readonly Target[], started: number): Routing {
    const tier = (targets[0] as Target).tier;
    return {
      decision: {
        tier,
        chain: [tier],
        forced: false,
        confidence: 1,
        signals: ['configured model named by the client'],
        source: 'passthrough',
        llmChecked: false,
        llmOverrode: false,
        llmMs: 0,
      },
      targets,
      decideMs: performance.now() - started,
    };
  }
}

/** A model id made safe to echo: at most 100 characters, control characters removed. */
function printable(id: string): string {
  const clean = id.replace(/[\u0000-\u001f\u007f]/g, '');
  return clean.length > 100 ? `${clean.slice(0, 100)}…` : clean;
}
