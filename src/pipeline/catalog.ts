import Type, { type Static } from 'typebox';
import { ConfigError, type ConfigIssue } from '../core/errors.js';
import { compileConfig } from '../core/validate.js';
import { readConfigData } from './files.js';
import { PIPELINE_SPECIALIZATIONS, PIPELINE_TIERS } from './reserved-fields.js';

/**
 * The model catalog the resolver picks from (the original design): each model's tier, specializations
 * and prices, and a default used when nothing else fits.
 */

/** One model of the catalog. */
export const CatalogModelSchema = Type.Object(
  {
    /** The model id handed to the downstream client. Unique in the catalog. */
    id: Type.String({ minLength: 1 }),
    tier: Type.Enum([...PIPELINE_TIERS]),
    specializations: Type.Array(Type.Enum([...PIPELINE_SPECIALIZATIONS]), {
      uniqueItems: true,
      default: [],
    }),
    /** Price of a million input tokens (any currency, the same for the whole catalog). */
    inputCostPerMillion: Type.Number({ minimum: 0 }),
    /** Price of a million output tokens. */
    outputCostPerMillion: Type.Number({ minimum: 0 }),
    /** Parameter count in billions, when known (more ranks first among equal prices). */
    parameters: Type.Optional(Type.Number({ exclusiveMinimum: 0 })),
    /** Context window in tokens, when known (larger ranks first among equals). */
    contextWindow: Type.Optional(Type.Integer({ minimum: 1 })),
    description: Type.Optional(Type.String()),
  },
  { additionalProperties: false },
);

/** One model of the catalog, validated. */
export type CatalogModel = Static<typeof CatalogModelSchema>;

/** The catalog file. */
export const CatalogSchema = Type.Object(
  {
    /** The model used when no pass finds a candidate (it need not be listed in `models`). */
    default: Type.String({ minLength: 1 }),
    models: Type.Array(CatalogModelSchema, { default: [] }),
  },
  { additionalProperties: false },
);

/** A validated catalog, its models also held in ranking order. */
export interface ModelCatalog extends Static<typeof CatalogSchema> {
  /** The models ranked as the resolver prefers them (see {@link rankModels}). */
  readonly ranked: readonly CatalogModel[];
}

const validateCatalogShape = compileConfig(CatalogSchema, 'model catalog');

/** Validates a catalog (ids unique) and ranks its models once. Throws a {@link ConfigError}. */
export function parseCatalog(value: unknown, source = 'model catalog'): ModelCatalog {
  const catalog = validateCatalogShape(value, source);
  const issues: ConfigIssue[] = [];
  const seen = new Set<string>();
  catalog.models.forEach((model, index) => {
    if (seen.has(model.id))
      issues.push({ path: `/models/${index}/id`, message: `repeats '${model.id}'` });
    seen.add(model.id);
  });
  if (issues.length > 0) throw new ConfigError(source, issues);
  return { ...catalog, ranked: rankModels(catalog.models) };
}

/** Reads and validates a catalog file (JSON, or YAML for `.yaml`/`.yml`). */
export function loadCatalog(path: string): ModelCatalog {
  const source = `model catalog ${path}`;
  return parseCatalog(readConfigData(path, source), source);
}

/**
 * The resolver's preference (a departure from the original design): cheapest first by price index (input + output cost per
 * million tokens), then more parameters, then a larger context window (unknown values rank after
 * known ones), then catalog order. The order does not depend on the constraints, so it is
 * computed once and each pass takes the first model that matches.
 */
export function rankModels(models: readonly CatalogModel[]): CatalogModel[] {
  return models
    .map((model, index) => ({ model, index }))
    .sort(
      (a, b) =>
        price(a.model) - price(b.model) ||
        (b.model.parameters ?? 0) - (a.model.parameters ?? 0) ||
        (b.model.contextWindow ?? 0) - (a.model.contextWindow ?? 0) ||
        a.index - b.index,
    )
    .map(({ model }) => model);
}

function price(model: CatalogModel): number {
  return model.inputCostPerMillion + model.outputCostPerMillion;
}
