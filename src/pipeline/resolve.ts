import type { CatalogModel, ModelCatalog } from './catalog.js';
import type { PipelineSpecialization, PipelineTier } from './reserved-fields.js';

/**
 * The catalog resolver (the original design): turns the soft routing constraints that survived the
 * certainty threshold into a concrete model, relaxing them until something matches.
 *
 * Passes, first with a candidate wins (a pass needing an axis that was not requested is
 * skipped): 1. specialization and tier, 2. specialization only, 3. tier only, 4. no constraint.
 * If every pass is empty (an empty catalog), `catalog.default` is used.
 */

/** The routing axes. */
export type RoutingAxis = 'model_specialization' | 'model_tier';

/** Why an axis did not constrain the choice. */
export type DropReason = 'low_confidence' | 'no_match_relaxed' | 'default_fallback';

/** The passes, by name. */
export type ResolutionPass =
  | 'specialization_and_tier'
  | 'specialization'
  | 'tier'
  | 'unconstrained'
  | 'default'
  | 'no_catalog';

/** The resolver's report, in the audit. */
export interface Resolution {
  /** The constraints the chosen model satisfies. */
  readonly constraints_used: {
    readonly model_specialization?: PipelineSpecialization;
    readonly model_tier?: PipelineTier;
  };
  /** Axes that were emitted but did not constrain the choice, and why. */
  readonly constraints_dropped: readonly {
    readonly axis: RoutingAxis;
    readonly reason: DropReason;
  }[];
  /**
   * The certainty scores of the winning values of each requested axis, and under `routing` (the
   * name open-classify gives the routing slot's) the lower of them: how sure the constraints
   * used are, together.
   */
  readonly confidences: {
    readonly routing?: number;
    readonly model_specialization?: number;
    readonly model_tier?: number;
  };
  /** The pass that chose the model. */
  readonly pass: ResolutionPass;
  /** How many models matched in that pass. */
  readonly candidates: number;
}

/** The model picked, and how. */
export interface ModelRecommendation {
  /** The model id; `null` when no catalog is configured (the resolution still says what was asked). */
  readonly model: string | null;
  /** The catalog entry of the model (absent for a default not listed in the catalog). */
  readonly entry?: CatalogModel;
  readonly resolution: Resolution;
}

/** What the aggregator hands the resolver. */
export interface ResolverRequest {
  readonly specialization?: { readonly value: PipelineSpecialization; readonly score: number };
  readonly tier?: { readonly value: PipelineTier; readonly score: number };
  /** Axes some classifier emitted below the threshold (and none above it). */
  readonly lowConfidence: readonly RoutingAxis[];
}

const PASSES: readonly {
  readonly name: ResolutionPass;
  readonly spec: boolean;
  readonly tier: boolean;
}[] = [
  { name: 'specialization_and_tier', spec: true, tier: true },
  { name: 'specialization', spec: true, tier: false },
  { name: 'tier', spec: false, tier: true },
  { name: 'unconstrained', spec: false, tier: false },
];

/**
 * Resolves `request` against `catalog`. Without a catalog the recommendation names no model
 * (`model: null`, pass `no_catalog`), but still reports what was asked and how surely, so that
 * every result carries one.
 */
export function resolveModel(
  catalog: ModelCatalog | undefined,
  request: ResolverRequest,
): ModelRecommendation {
  const spec = request.specialization?.value;
  const tier = request.tier?.value;
  const dropped: { axis: RoutingAxis; reason: DropReason }[] = request.lowConfidence.map(
    (axis) => ({
      axis,
      reason: 'low_confidence',
    }),
  );
  const scores = [request.specialization?.score, request.tier?.score].filter(
    (score): score is number => score !== undefined,
  );
  const confidences = {
    ...(scores.length > 0 ? { routing: Math.min(...scores) } : {}),
    ...(request.specialization ? { model_specialization: request.specialization.score } : {}),
    ...(request.tier ? { model_tier: request.tier.score } : {}),
  };
  if (catalog === undefined) {
    if (spec !== undefined)
      dropped.push({ axis: 'model_specialization', reason: 'default_fallback' });
    if (tier !== undefined) dropped.push({ axis: 'model_tier', reason: 'default_fallback' });
    return {
      model: null,
      resolution: {
        constraints_used: {},
        constraints_dropped: dropped,
        confidences,
        pass: 'no_catalog',
        candidates: 0,
      },
    };
  }
  for (const pass of PASSES) {
    if ((pass.spec && spec === undefined) || (pass.tier && tier === undefined)) continue;
    let first: CatalogModel | undefined;
    let candidates = 0;
    for (const model of catalog.ranked) {
      if (pass.spec && !model.specializations.includes(spec as PipelineSpecialization)) continue;
      if (pass.tier && model.tier !== tier) continue;
      first ??= model;
      candidates++;
    }
    if (first === undefined) continue;
    if (spec !== undefined && !pass.spec)
      dropped.push({ axis: 'model_specialization', reason: 'no_match_relaxed' });
    if (tier !== undefined && !pass.tier)
      dropped.push({ axis: 'model_tier', reason: 'no_match_relaxed' });
    return {
      model: first.id,
      entry: first,
      resolution: {
        constraints_used: {
          ...(pass.spec ? { model_specialization: spec } : {}),
          ...(pass.tier ? { model_tier: tier } : {}),
        },
        constraints_dropped: dropped,
        confidences,
        pass: pass.name,
        candidates,
      },
    };
  }
  if (spec !== undefined)
    dropped.push({ axis: 'model_specialization', reason: 'default_fallback' });
  if (tier !== undefined) dropped.push({ axis: 'model_tier', reason: 'default_fallback' });
  const entry = catalog.models.find((model) => model.id === catalog.default);
  return {
    model: catalog.default,
    ...(entry ? { entry } : {}),
    resolution: {
      constraints_used: {},
      constraints_dropped: dropped,
      confidences,
      pass: 'default',
      candidates: 0,
    },
  };
}
