import type { CostedUsage, CostLabels } from './costs.js';

/**
 * The usage of this instance, kept by the minute for {@link RETENTION_DAYS} days, so that
 * `GET /v1/usage` can sum any window in it: requests, tokens, cost and the baseline's cost, by
 * model and tier and by client. In memory: each instance answers for its own requests.
 */

/** How long usage is kept, in days (a calendar month fits). */
export const RETENTION_DAYS = 35;

const MINUTE_MS = 60_000;

/** Sums over a window. */
export interface UsageTotals {
  requests: number;
  inputTokens: number;
  cachedInputTokens: number;
  outputTokens: number;
  costUsd: number;
  /** What the same tokens would have cost on the baseline (0 without one). */
  baselineCostUsd: number;
  /** `baselineCostUsd - costUsd`. */
  savingsUsd: number;
}

/** What `GET /v1/usage` answers. */
export interface UsageSummary {
  readonly object: 'usage';
  readonly from: string;
  readonly to: string;
  readonly baseline: string | null;
  readonly totals: UsageTotals;
  readonly byModel: readonly (UsageTotals & { model: string; tier: string })[];
  readonly byClient: readonly (UsageTotals & { client: string })[];
}

interface Entry extends CostLabels {
  readonly totals: UsageTotals;
}

function zero(): UsageTotals {
  return {
    requests: 0,
    inputTokens: 0,
    cachedInputTokens: 0,
    outputTokens: 0,
    costUsd: 0,
    baselineCostUsd: 0,
    savingsUsd: 0,
  };
}

function addInto(into: UsageTotals, from: UsageTotals): void {
  into.requests += from.requests;
  into.inputTokens += from.inputTokens;
  into.cachedInputTokens += from.cachedInputTokens;
  into.outputTokens += from.outputTokens;
  into.costUsd += from.costUsd;
  into.baselineCostUsd += from.baselineCostUsd;
  into.savingsUsd += from.savingsUsd;
}

/** Dollars rounded to the nano-dollar: sums of floats, shown without their noise. */
function rounded(totals: UsageTotals): UsageTotals {
  const usd = (n: number) => Math.round(n * 1e9) / 1e9;
  return {
    ...totals,
    costUsd: usd(totals.costUsd),
    baselineCostUsd: usd(totals.baselineCostUsd),
    savingsUsd: usd(totals.savingsUsd),
  };
}

/** Usage by minute, summed on demand. */
export class UsageLedger {
  /** Minute (epoch ms / 60 000) → entries by `model|tier|client`. */
  readonly #minutes = new Map<number, Map<string, Entry>>();
  /** The baseline model's id (savings are counted against it). */
  baseline: string | undefined;

  constructor(baseline: string | undefined) {
    this.baseline = baseline;
  }

  /** Records one answered request (`costed` undefined: it reported no usage). */
  record(labels: CostLabels, costed: CostedUsage | undefined, now = Date.now()): void {
    const minute = Math.floor(now / MINUTE_MS);
    let entries = this.#minutes.get(minute);
    if (entries === undefined) {
      entries = new Map();
      this.#minutes.set(minute, entries);
      this.#expire(minute);
    }
    const key = `${labels.model}|${labels.tier}|${labels.client}`;
    let entry = entries.get(key);
    if (entry === undefined) {
      entry = { model: labels.model, tier: labels.tier, client: labels.client, totals: zero() };
      entries.set(key, entry);
    }
    const totals = entry.totals;
    totals.requests++;
    if (costed === undefined) return;
    const { usage, costUsd, baselineUsd = 0 } = costed;
    totals.inputTokens += usage.inputTokens;
    totals.cachedInputTokens += usage.cachedInputTokens;
    totals.outputTokens += usage.outputTokens;
    totals.costUsd += costUsd;
    totals.baselineCostUsd += baselineUsd;
    totals.savingsUsd += this.baseline === undefined ? 0 : baselineUsd - costUsd;
  }

  /** The sums of the minutes that overlap `[from, to)` (epoch ms). */
  summary(from: number, to: number): UsageSummary {
    const totals = zero();
    const byModel = new Map<string, UsageTotals & { model: string; tier: string }>();
    const byClient = new Map<string, UsageTotals & { client: string }>();
    const first = Math.floor(from / MINUTE_MS);
    const last = Math.ceil(to / MINUTE_MS);
    for (const [minute, entries] of this.#minutes) {
      if (minute < first || minute >= last) continue;
      for (const entry of entries.values()) {
        addInto(totals, entry.totals);
        const modelKey = `${entry.model}|${entry.tier}`;
        const model = byModel.get(modelKey) ?? { model: entry.model, tier: entry.tier, ...zero() };
        byModel.set(modelKey, model);
        addInto(model, entry.totals);
        const client = byClient.get(entry.client) ?? { client: entry.client, ...zero() };
        byClient.set(entry.client, client);
        addInto(client, entry.totals);
      }
    }
    const byCost = (a: UsageTotals, b: UsageTotals) =>
      b.costUsd - a.costUsd || b.requests - a.requests;
    return {
      object: 'usage',
      from: new Date(from).toISOString(),
      to: new Date(to).toISOString(),
      baseline: this.baseline ?? null,
      totals: rounded(totals),
      byModel: [...byModel.values()].sort(byCost).map((m) => ({ ...m, ...rounded(m) })),
      byClient: [...byClient.values()].sort(byCost).map((c) => ({ ...c, ...rounded(c) })),
    };
  }

  #expire(current: number): void {
    const oldest = current - RETENTION_DAYS * 24 * 60;
    for (const minute of this.#minutes.keys()) if (minute < oldest) this.#minutes.delete(minute);
  }
}
