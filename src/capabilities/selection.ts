import { createHash } from 'node:crypto';
import pLimit from 'p-limit';
import { describeError } from '../core/errors.js';
import {
  type DecisionCache,
  type FallbackContext,
  Hybrid,
  type HybridDecision,
  type HybridStats,
  type LocalVerdict,
} from '../core/hybrid.js';
import type { LlmProvider } from '../llm/types.js';
import { sanitizeText } from '../text/index.js';
import type { Capability, CapabilityInput } from './capability.js';
import { type SelectionConfig, selectionConfig } from './config.js';
import {
  type BypassSource,
  type CapsDirective,
  parseCapsDirective,
  resolveBypass,
} from './directive.js';
import { type CapabilityFailure, EmptyTaskError, isRetriableError } from './errors.js';
import { classifyCapability } from './llm-classifier.js';
import { LOCAL_DECISION_CONFIDENCE, Prematcher, type PrematcherOptions } from './prematcher.js';
import { CapabilityRegistry } from './registry.js';

/**
 * Capability selection (document 002): which of the registered capabilities does a task need?
 *
 * 1. Always-active capabilities are selected first, without classification.
 * 2. Bypass (configuration, session, or `/caps:off` in the task) selects every other capability.
 * 3. Otherwise each remaining capability gets a yes/no: decided locally by the pre-matcher when it
 *    is sure, else by one LLM call with structured output (`is_match`), the calls running
 *    concurrently under a limit (default 5). Every decision goes through the core {@link Hybrid}:
 *    the local verdict when confident, the LLM under a strict timeout when not.
 * 4. A capability whose LLM call failed or timed out is reported as **failed** with the error, not
 *    silently left out; the caller (or the agent router) decides whether to retry.
 *
 * Without an LLM, uncertain capabilities take the pre-matcher's best guess, and the decision says
 * so; without a pre-matcher either, only always-active capabilities are selected (the safe
 * fallback of ARCHITECTURE.md).
 */

/** Where a capability decision came from. */
export type SelectionSource = 'always-active' | 'bypass' | 'local' | 'llm' | 'failed';

/** The decision on one capability. */
export interface CapabilityDecision {
  readonly name: string;
  readonly selected: boolean;
  readonly source: SelectionSource;
  /** Confidence in [0, 1] of `selected` (1 for always-active and bypass). */
  readonly confidence: number;
  readonly reason: string;
  /** The pre-matcher's similarity of the task to the capability's examples, when it ran. */
  readonly score?: number;
  /** Milliseconds spent waiting for the LLM, when it was asked. */
  readonly llmMs?: number;
  /** True when the LLM's verdict came from the decision cache. */
  readonly cached?: boolean;
  /** For source `failed`: what went wrong. */
  readonly failure?: CapabilityFailure;
}

/** The outcome of one selection. */
export interface CapabilitySelection {
  /** The task as classified: directives removed, sanitised. */
  readonly task: string;
  /** Names of the selected capabilities: always-active first, then in registry order. */
  readonly selected: readonly string[];
  /** One decision per capability, in the same order (always-active first). */
  readonly decisions: readonly CapabilityDecision[];
  /** Capabilities whose classification failed (also among `decisions`, not selected). */
  readonly failures: readonly CapabilityFailure[];
  readonly bypass: boolean;
  readonly bypassFrom: BypassSource;
  /** The `/caps:` directive found in the task, for a caller that keeps it for the session. */
  readonly directive?: CapsDirective;
  /** Whether an LLM was configured. */
  readonly llm: boolean;
  /** Whether the local pre-matcher ran. */
  readonly prematcher: boolean;
  /** LLM calls made (cache hits excluded). */
  readonly llmCalls: number;
  /** Wall time of the selection in milliseconds. */
  readonly elapsedMs: number;
}

/**
 * Options of {@link CapabilitySelector}: the registry, the provider and the cache, plus the
 * settings of {@link SelectionConfigSchema} (validated; see there for defaults: concurrency 5,
 * seed 0, all examples, 5,000 ms per LLM call, no bypass, temperature 0, the default pre-matcher).
 */
export interface CapabilitySelectorOptions extends Partial<Omit<SelectionConfig, 'prematcher'>> {
  /** The capabilities: a registry (which may grow later) or a list. */
  readonly registry: CapabilityRegistry | readonly CapabilityInput[];
  /** The LLM asked about uncertain capabilities; absent: local decisions only. */
  readonly provider?: LlmProvider;
  /** Options of the local pre-matcher, or `false` to ask the LLM about every capability. */
  readonly prematcher?: PrematcherOptions | false;
  /** A cache of LLM verdicts (e.g. `lruDecisionCache()`), keyed by capability, prompt and task. */
  readonly cache?: DecisionCache<boolean>;
}

/** Options of one {@link CapabilitySelector.select} call. */
export interface SelectOptions {
  /** Why the previous selection failed (reclassification): added to every prompt. */
  readonly previousFailure?: string;
  /** The session's bypass setting (from an earlier `/caps:` directive); overrides the config. */
  readonly bypass?: boolean;
  /** Aborts pending LLM calls; the selection then rejects with the signal's reason. */
  readonly signal?: AbortSignal;
}

/** One capability waiting for its decision; the LLM step and the fallback write back into it. */
interface Pending {
  readonly capability: Capability;
  readonly task: string;
  readonly previousFailure: string | undefined;
  llmReason?: string;
  cacheKey?: string;
  thrown?: unknown;
  failure?: CapabilityFailure;
}

/** One capability on its way to a decision. */
interface Outcome {
  readonly pending: Pending;
  readonly local: LocalVerdict<boolean>;
  readonly score: number | undefined;
  decision: HybridDecision<boolean> | undefined;
}

type Mutable<T> = { -readonly [K in keyof T]: T[K] };

const NO_LOCAL: LocalVerdict<boolean> = Object.freeze({
  value: false,
  confidence: 0,
  reason: 'no local pre-matcher',
});

/** Selects capabilities for tasks. Build once, reuse: the pre-matcher is compiled once. */
export class CapabilitySelector {
  readonly registry: CapabilityRegistry;
  readonly #config: SelectionConfig;
  readonly #provider: LlmProvider | undefined;
  readonly #cache: DecisionCache<boolean> | undefined;
  readonly #hybrid: Hybrid<Pending, boolean>;
  #prematcher: { readonly version: number; readonly matcher: Prematcher } | undefined;

  constructor(options: CapabilitySelectorOptions) {
    const { registry, provider, cache, ...settings } = options;
    this.registry =
      registry instanceof CapabilityRegistry ? registry : new CapabilityRegistry(registry);
    this.#config = selectionConfig(settings, 'capability selector options');
    this.#provider = provider;
    this.#hybrid = new Hybrid<Pending, boolean>({
      name: 'capability selection',
      local: () => NO_LOCAL,
      minConfidence: LOCAL_DECISION_CONFIDENCE,
      timeoutMs: this.#config.timeoutMs,
      fallback: (context) => this.#failed(context),
      ...(provider
        ? { llm: (pending, _local, signal) => this.#askLlm(provider, pending, signal) }
        : {}),
      ...(provider && cache
        ? { cache, cacheKey: (pending: Pending) => this.#cacheKey(provider, pending) }
        : {}),
    });
    this.#cache = cache;
    if (this.#config.prematcher !== false) this.#matcher(); // compile now: fail fast on bad options
  }

  /** Counters of the per-capability decisions since the selector was built. */
  get stats(): HybridStats {
    return this.#hybrid.stats;
  }

  /** Selects the capabilities `task` needs. */
  async select(task: string, options: SelectOptions = {}): Promise<CapabilitySelection> {
    const started = performance.now();
    const parsed = parseCapsDirective(task);
    const { bypass, from } = resolveBypass(parsed.directive, options.bypass, this.#config.bypass);
    const text = sanitizeText(parsed.text);
    const all = this.registry.all();
    const decisions: CapabilityDecision[] = all
      .filter((capability) => capability.alwaysActive)
      .map((capability) => ({
        name: capability.name,
        selected: true,
        source: 'always-active' as const,
        confidence: 1,
        reason: 'always active',
      }));
    const rest = all.filter((capability) => !capability.alwaysActive);
    const matcher = this.#config.prematcher === false ? undefined : this.#matcher();
    let llmCalls = 0;
    if (bypass) {
      const why = from === 'directive' ? '/caps:off in the task' : `bypass set by ${from}`;
      for (const capability of rest) {
        decisions.push({
          name: capability.name,
          selected: true,
          source: 'bypass',
          confidence: 1,
          reason: `selection bypassed (${why})`,
        });
      }
    } else {
      if (text.trim() === '') throw new EmptyTaskError();
      const matches = matcher?.match(text).matches;
      const before = this.#hybrid.stats.llmCalls;
      // Local decisions are made at once, synchronously; only the rest wait for an LLM slot.
      const outcomes = rest.map((capability, i): Outcome => {
        const match = matches?.[i];
        const local: LocalVerdict<boolean> = match
          ? { value: match.value, confidence: match.confidence, reason: match.reason }
          : NO_LOCAL;
        const pending: Pending = {
          capability,
          task: text,
          previousFailure: options.previousFailure,
        };
        const decision = this.#hybrid.decideLocally(pending, local);
        return { pending, local, score: match?.score, decision };
      });
      const asking = outcomes.filter((outcome) => outcome.decision === undefined);
      if (asking.length > 0) {
        const limit = pLimit(this.#config.concurrency);
        await Promise.all(
          asking.map((outcome) =>
            limit(async () => {
              outcome.decision = await this.#hybrid.decideFrom(
                outcome.pending,
                outcome.local,
                options.signal,
              );
            }),
          ),
        );
      }
      llmCalls = this.#hybrid.stats.llmCalls - before;
      for (const outcome of outcomes) decisions.push(this.#toDecision(outcome));
    }
    return {
      task: text,
      selected: decisions.filter((d) => d.selected).map((d) => d.name),
      decisions,
      failures: decisions.flatMap((d) => (d.failure ? [d.failure] : [])),
      bypass,
      bypassFrom: from,
      ...(parsed.directive === undefined ? {} : { directive: parsed.directive }),
      llm: this.#provider !== undefined,
      prematcher: matcher !== undefined && !bypass,
      llmCalls,
      elapsedMs: performance.now() - started,
    };
  }

  /**
   * The reported decision of one capability. Built field by field rather than with object
   * spreads, which are many times slower on V8 and this runs once per capability per task.
   */
  #toDecision({ pending, local, score, decision }: Outcome): CapabilityDecision {
    const hybrid = decision!;
    const out: Mutable<CapabilityDecision> = {
      name: pending.capability.name,
      selected: hybrid.value,
      source: 'local',
      confidence: hybrid.confidence,
      reason: hybrid.reason,
    };
    if (score !== undefined) out.score = score;
    if (hybrid.source === 'fallback') {
      const failure = pending.failure!;
      out.selected = false;
      out.source = 'failed';
      out.confidence = 0;
      out.reason = `classification failed: ${failure.error}`;
      out.llmMs = hybrid.llmMs;
      out.failure = failure;
    } else if (hybrid.source === 'llm') {
      out.source = 'llm';
      out.reason = this.#llmReason(pending, hybrid.value, hybrid.cached === true);
      out.llmMs = hybrid.llmMs;
      if (hybrid.cached) out.cached = true;
    } else if (!this.#hybrid.isConfident(local)) {
      out.reason = `${local.reason ?? 'undecided'}; no LLM configured, best guess: ${hybrid.value ? 'needed' : 'not needed'}`;
    }
    return out;
  }

  /** The pre-matcher for the registry's current capabilities, recompiled when it has grown. */
  #matcher(): Prematcher {
    const { version } = this.registry;
    if (this.#prematcher?.version !== version) {
      const options = this.#config.prematcher === false ? {} : this.#config.prematcher;
      const classifiable = this.registry.all().filter((capability) => !capability.alwaysActive);
      this.#prematcher = { version, matcher: new Prematcher(classifiable, options) };
    }
    return this.#prematcher.matcher;
  }

  async #askLlm(provider: LlmProvider, pending: Pending, signal: AbortSignal) {
    try {
      const verdict = await classifyCapability(provider, pending.capability, pending.task, {
        seed: this.#config.seed,
        signal,
        timeoutMs: this.#config.timeoutMs,
        temperature: this.#config.temperature,
        ...(this.#config.maxExamples === undefined
          ? {}
          : { maxExamples: this.#config.maxExamples }),
        ...(pending.previousFailure === undefined
          ? {}
          : { previousFailure: pending.previousFailure }),
        ...(this.#config.model === undefined ? {} : { model: this.#config.model }),
      });
      if (verdict.reason !== undefined) pending.llmReason = verdict.reason;
      return {
        value: verdict.isMatch,
        ...(verdict.reason === undefined ? {} : { reason: verdict.reason }),
      };
    } catch (error) {
      pending.thrown = error;
      throw error;
    }
  }

  /** The hybrid's fallback: the capability is not selected, and the failure is recorded. */
  #failed(context: FallbackContext<Pending, boolean>) {
    const { input } = context;
    const cause = context.cause === 'timeout' ? 'timeout' : 'error';
    input.failure = {
      name: input.capability.name,
      cause,
      error: context.error ?? (input.thrown === undefined ? cause : describeError(input.thrown)),
      retriable: cause === 'timeout' || isRetriableError(input.thrown),
    };
    return { value: false, confidence: 0 };
  }

  #llmReason(pending: Pending, selected: boolean, cached: boolean): string {
    const reason =
      pending.llmReason ??
      (cached && pending.cacheKey !== undefined
        ? this.#cache?.get(pending.cacheKey)?.reason
        : undefined);
    return reason ?? (selected ? 'the LLM says it is needed' : 'the LLM says it is not needed');
  }

  #cacheKey(provider: LlmProvider, pending: Pending): string {
    const hash = createHash('sha256');
    for (const part of [
      provider.id,
      this.#config.model ?? provider.model,
      String(this.#config.seed),
      String(this.#config.maxExamples ?? ''),
      pending.capability.name,
      pending.previousFailure ?? '',
      pending.task,
    ]) {
      hash.update(part).update('\u0000');
    }
    pending.cacheKey = hash.digest('base64url');
    return pending.cacheKey;
  }
}
