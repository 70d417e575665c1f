import { Counter, Gauge, type Registry } from 'prom-client';
import { type CostsSection, type Price, priceOf } from './config-costs.js';
import type { Usage } from './protocols/usage.js';

/**
 * What answers cost: the tokens each answer reported, priced by the configured table (US dollars
 * per million tokens), and what the same tokens would have cost on the baseline model. Counted
 * in Prometheus by model, tier and client; savings are the baseline's cost minus the cost (a
 * gauge: negative when a request went to a model dearer than the baseline).
 */

/** One answer's usage and what it cost. */
export interface CostedUsage {
  readonly usage: Usage;
  /** US dollars, at the answering model's price (0 without one). */
  readonly costUsd: number;
  /** US dollars at the baseline's price (`undefined` without a baseline). */
  readonly baselineUsd?: number;
}

/** Where an answer came from, as costs are labelled. */
export interface CostLabels {
  readonly model: string;
  readonly tier: string;
  readonly client: string;
}

/** Prices are per million tokens (a division, not a multiplication by 1e-6: exact for round sums). */
const TOKENS_PER_PRICE = 1_000_000;

/** The price of `usage` at `price`, in US dollars. */
export function costOf(usage: Usage, price: Price): number {
  return (
    (usage.inputTokens * price.input +
      usage.cachedInputTokens * (price.cachedInput ?? price.input) +
      usage.outputTokens * price.output) /
    TOKENS_PER_PRICE
  );
}

function baselineOf(section: CostsSection): Price | undefined {
  return section.baseline === undefined ? undefined : priceOf(section, section.baseline);
}

/** What the answers of one model, tier and client added since the metrics were last read. */
interface Pending {
  readonly labels: CostLabels;
  input: number;
  cachedInput: number;
  output: number;
  costUsd: number;
  baselineUsd: number;
  savingsUsd: number;
  /** Whether a baseline priced them (the baseline's counters are left alone otherwise). */
  baselined: boolean;
}

/**
 * Prices answers and counts their tokens and cost. The counts of each model, tier and client are
 * summed in plain numbers and handed to the Prometheus metrics when those are read (their
 * `collect`): a labelled `inc` hashes its labels, and five of them per answer cost more than the
 * rest of the accounting.
 */
export class Costs {
  #section: CostsSection;
  #baseline: Price | undefined;
  readonly #tokens: Counter<'model' | 'tier' | 'client' | 'kind'>;
  readonly #cost: Counter<'model' | 'tier' | 'client'>;
  readonly #baselineCost: Counter<'model' | 'tier' | 'client'>;
  readonly #savings: Gauge<'model' | 'tier' | 'client'>;
  readonly #removed: Counter<'model' | 'tier' | 'client' | 'by'>;
  readonly #prices = new Map<string, Price | undefined>();
  /** Counts not yet in the metrics, by `model`, `tier` and `client` (NUL-separated). */
  #pending = new Map<string, Pending>();

  constructor(section: CostsSection, registry: Registry) {
    this.#section = section;
    this.#baseline = baselineOf(section);
    const labelNames = ['model', 'tier', 'client'] as const;
    const collect = () => this.#flush();
    this.#tokens = new Counter({
      name: 'triage_tokens_total',
      help: 'Tokens of answers by model, tier, client and kind (input, cached_input, output), as the upstream reported them.',
      labelNames: [...labelNames, 'kind'] as const,
      registers: [registry],
      collect,
    });
    this.#cost = new Counter({
      name: 'triage_cost_usd_total',
      help: 'What answers cost, in US dollars, at the configured prices, by model, tier and client.',
      labelNames,
      registers: [registry],
      collect,
    });
    this.#baselineCost = new Counter({
      name: 'triage_baseline_cost_usd_total',
      help: 'What the same tokens would have cost on the baseline model (costs.baseline), in US dollars.',
      labelNames,
      registers: [registry],
      collect,
    });
    this.#savings = new Gauge({
      name: 'triage_savings_usd',
      help: 'Baseline cost minus cost, in US dollars, by model, tier and client (negative: dearer than the baseline).',
      labelNames,
      registers: [registry],
      collect,
    });
    this.#removed = new Counter({
      name: 'triage_agent_savings_usd_total',
      help: 'What the prompt tokens removed by the agent stage (by tools or trim) would have cost as input on the model that answered, in US dollars.',
      labelNames: [...labelNames, 'by'] as const,
      registers: [registry],
    });
  }

  /**
   * Prices the prompt tokens the agent stage removed from a request (`by` tool selection or
   * trimming) at the input price of the model that answered, and counts them: what the request
   * would have cost more with them. 0 when the model has no price.
   */
  removed(tokens: number, by: 'tools' | 'trim', labels: CostLabels): number {
    const price = this.#priceOf(labels.model);
    if (price === undefined || tokens <= 0) return 0;
    const usd = (tokens * price.input) / TOKENS_PER_PRICE;
    this.#removed.inc({ ...labels, by }, usd);
    return usd;
  }

  /** Takes new prices and baseline (a reloaded configuration); the counters carry on. */
  configure(section: CostsSection): void {
    this.#section = section;
    this.#baseline = baselineOf(section);
    this.#prices.clear();
  }

  /** The baseline model's id, when one is configured. */
  get baseline(): string | undefined {
    return this.#section.baseline;
  }

  /** Prices one answer's usage and counts it. */
  record(usage: Usage, labels: CostLabels): CostedUsage {
    const price = this.#priceOf(labels.model);
    const costUsd = price === undefined ? 0 : costOf(usage, price);
    const key = `${labels.model}\0${labels.tier}\0${labels.client}`;
    let pending = this.#pending.get(key);
    if (pending === undefined) {
      pending = {
        labels: { model: labels.model, tier: labels.tier, client: labels.client },
        input: 0,
        cachedInput: 0,
        output: 0,
        costUsd: 0,
        baselineUsd: 0,
        savingsUsd: 0,
        baselined: false,
      };
      this.#pending.set(key, pending);
    }
    pending.input += usage.inputTokens;
    pending.cachedInput += usage.cachedInputTokens;
    pending.output += usage.outputTokens;
    pending.costUsd += costUsd;
    if (this.#baseline === undefined) return { usage, costUsd };
    const baselineUsd = costOf(usage, this.#baseline);
    pending.baselineUsd += baselineUsd;
    pending.savingsUsd += baselineUsd - costUsd;
    pending.baselined = true;
    return { usage, costUsd, baselineUsd };
  }

  /** Hands the pending counts to the metrics (called when any of them is read). */
  #flush(): void {
    if (this.#pending.size === 0) return;
    const pending = this.#pending;
    this.#pending = new Map();
    for (const p of pending.values()) {
      const { labels } = p;
      this.#tokens.inc({ ...labels, kind: 'input' }, p.input);
      if (p.cachedInput > 0) this.#tokens.inc({ ...labels, kind: 'cached_input' }, p.cachedInput);
      this.#tokens.inc({ ...labels, kind: 'output' }, p.output);
      this.#cost.inc(labels, p.costUsd);
      if (!p.baselined) continue;
      this.#baselineCost.inc(labels, p.baselineUsd);
      this.#savings.inc(labels, p.savingsUsd);
    }
  }

  #priceOf(model: string): Price | undefined {
    if (this.#prices.has(model)) return this.#prices.get(model);
    const price = priceOf(this.#section, model);
    this.#prices.set(model, price);
    return price;
  }
}
