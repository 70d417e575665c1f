import type { IncomingHttpHeaders } from 'node:http';
import type { Registry } from 'prom-client';
import type { CounterStore } from '../state/counter-store.js';
import type { AgentReport } from './agents/agent-stage.js';
import { clientLabel } from './client-id.js';
import type { ServerConfig } from './config.js';
import { type CostedUsage, type CostLabels, Costs } from './costs.js';
import { Limits } from './limits.js';
import type { Usage } from './protocols/usage.js';
import { UsageLedger } from './usage-ledger.js';

/**
 * What the server counts for each client: who sent a request (its client label), whether its
 * limits let it in, and, once answered, what it used and cost (metrics, the usage ledger behind
 * `GET /v1/usage`, and the client's budgets).
 */
export class Accounting {
  readonly costs: Costs;
  readonly ledger: UsageLedger;
  readonly limits: Limits;
  readonly #keysEnabled: boolean;
  readonly #onError: (error: unknown) => void;

  /** `onError`: told when the store fails to count a spend (the answer was sent already). */
  constructor(
    config: ServerConfig,
    registry: Registry,
    store: CounterStore,
    keysEnabled: boolean,
    onError: (error: unknown) => void,
  ) {
    this.costs = new Costs(config.costs, registry);
    this.ledger = new UsageLedger(config.costs.baseline);
    this.limits = new Limits(config.limits, store);
    this.#keysEnabled = keysEnabled;
    this.#onError = onError;
  }

  /** Takes the prices, baseline and limits of a reloaded configuration; counts carry on. */
  configure(config: ServerConfig): void {
    this.costs.configure(config.costs);
    this.ledger.baseline = config.costs.baseline;
    this.limits.configure(config.limits);
  }

  /** The label of a request's client. */
  clientOf(headers: IncomingHttpHeaders): string {
    return clientLabel(headers, this.#keysEnabled);
  }

  /**
   * Admits a request of `client` (a 429 `HttpError` past a limit); `undefined`, nothing to wait
   * for, when no limit is configured.
   */
  admit(client: string): Promise<void> | undefined {
    return this.limits.enabled ? this.limits.admit(client) : undefined;
  }

  /** Prices what the agent stage removed from an answered request (tools, trimmed history). */
  agentSavings(labels: CostLabels, report: AgentReport): void {
    if (report.tools) this.costs.removed(report.tools.tokensRemoved, 'tools', labels);
    if (report.trim) this.costs.removed(report.trim.tokensRemoved, 'trim', labels);
  }

  /** Counts an answered request and the usage it reported; what it cost, when it reported usage. */
  answered(labels: CostLabels, usage: Usage | undefined): CostedUsage | undefined {
    const costed = usage === undefined ? undefined : this.costs.record(usage, labels);
    this.ledger.record(labels, costed);
    if (costed && this.limits.enabled) {
      const tokens = usage!.inputTokens + usage!.cachedInputTokens + usage!.outputTokens;
      this.limits.spend(labels.client, tokens, costed.costUsd).catch(this.#onError);
    }
    return costed;
  }
}
