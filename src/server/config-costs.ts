import Type, { type Static } from 'typebox';
import type { ConfigIssue } from '../core/errors.js';

/**
 * The configuration of costs and limits: a price per model, the baseline model savings are
 * measured against, and the limits and budgets of client keys.
 */

const USD = Type.Number({ minimum: 0, maximum: 1_000_000 });

/** A model's prices, in US dollars per million tokens. */
export const PriceSchema = Type.Object(
  {
    input: USD,
    output: USD,
    /** Input tokens read from the provider's prompt cache; default: the input price. */
    cachedInput: Type.Optional(USD),
  },
  { additionalProperties: false },
);

/** Prices and the baseline. */
export const CostsSectionSchema = Type.Object(
  {
    /**
     * Prices by model: `provider/model` (as in `tiers`) or the bare model id. A model without a
     * price has its tokens counted, at no cost.
     */
    prices: Type.Record(Type.String({ minLength: 1 }), PriceSchema, { default: {} }),
    /**
     * The model savings are measured against (`provider/model` or a bare id with a price): what
     * the same tokens would have cost had every request gone to it.
     */
    baseline: Type.Optional(Type.String({ minLength: 1 })),
  },
  { additionalProperties: false, default: {} },
);

const COUNT = Type.Integer({ minimum: 1, maximum: 1_000_000_000_000 });

/** The limits of one client key; absent fields are no limit. */
export const LimitSetSchema = Type.Object(
  {
    requestsPerMinute: Type.Optional(COUNT),
    /** Input and output tokens per minute (counted once each answer is complete). */
    tokensPerMinute: Type.Optional(COUNT),
    /** Spend per UTC day, in US dollars. */
    spendPerDayUsd: Type.Optional(Type.Number({ exclusiveMinimum: 0 })),
    /** Spend per UTC calendar month, in US dollars. */
    spendPerMonthUsd: Type.Optional(Type.Number({ exclusiveMinimum: 0 })),
  },
  { additionalProperties: false },
);

/** Limits by client key. */
export const LimitsSectionSchema = Type.Object(
  {
    /** The limits of every client key (and of requests without one) not listed in `keys`. */
    default: Type.Optional(LimitSetSchema),
    /** Limits by client label (`key-` and the first 8 hex digits of the key's SHA-256). */
    keys: Type.Record(Type.String({ pattern: '^[A-Za-z0-9_.-]+$' }), LimitSetSchema, {
      default: {},
    }),
  },
  { additionalProperties: false, default: {} },
);

export type Price = Static<typeof PriceSchema>;
export type CostsSection = Static<typeof CostsSectionSchema>;
export type LimitSet = Static<typeof LimitSetSchema>;
export type LimitsSection = Static<typeof LimitsSectionSchema>;

/** What the schema cannot check: the baseline has a price. */
export function costIssues(costs: CostsSection): ConfigIssue[] {
  if (costs.baseline === undefined || priceOf(costs, costs.baseline) !== undefined) return [];
  return [
    {
      path: '/costs/baseline',
      message: `names ${costs.baseline}, which has no price in costs.prices`,
    },
  ];
}

/** The price of a model: by `provider/model`, else by its bare id (after the first `/`). */
export function priceOf(costs: CostsSection, modelId: string): Price | undefined {
  const exact = costs.prices[modelId];
  if (exact !== undefined) return exact;
  const slash = modelId.indexOf('/');
  return slash < 0 ? undefined : costs.prices[modelId.slice(slash + 1)];
}
