import { createHash } from 'node:crypto';
import pLimit from 'p-limit';
import { describeError } from '../core/errors.js';
import {
  type DecideOptions,
  type DecisionAudit,
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
 * Capability selection (the original design): which of the registered capabilities does a task need?
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

/** What decided a capability: its own rule, the pre-matcher, the LLM, or nothing (failed). */
export type SelectionSource = 'always-active' | 'bypass' | 'local' | 'llm' | 'failed';

/**
 * The decision on one capability, with the audit every triage decision carries: `source` is
 * `forced` for always-active and bypassed capabilities, `local` for the pre-matcher, `llm` or
 * `cached` for the LLM, `fallback` (not selected, with `fallbackCause` and `failure`) when the
 * LLM could not decide.
 */
export interface CapabilityDecision extends DecisionAudit {
  readonly name: string;
  readonly selected: boolean;
  /** What decided it, in the selector's own terms. */
  readonly decidedBy: SelectionSource;
  /** The pre-matcher's similarity of the task to the capability's examples, when it ran. */
  readonly score?: number;
  /**
   * From {@link CapabilitySelector.classify} only: the pre-matcher is unsure and an LLM is
   * configured, so `selected` is its best guess; {@link CapabilitySelector.decide} asks the LLM.
   */
  readonly needsLlm: boolean;
  /** For a fallback: what went wrong. */
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
  /** From `classify` only: some capabilities wait for the LLM (see `CapabilityDecision.needsLlm`). */
  readonly needsLlm: boolean;
  /** LLM calls made (cache hits excluded). */
  readonly llmCalls: number;
  /** Wall time of the selection in milliseconds. */
  readonly elapsedMs: number;
}

/**
 * Options of {@link CapabilitySelector}, in the shape every subsystem shares: the registry, the
 * settings of {@link SelectionConfigSchema} (validated; see there for defaults: concurrency 5,
 * seed 0, all examples, 5,000 ms per LLM call, no bypass, temperature 0, the default
 * pre-matcher), `llm` and `cache`.
 */
export interface CapabilitySelectorOptions extends Partial<Omit<SelectionConfig, 'prematcher'>> {
  /** The capabilities: a registry (which may grow later) or a list. */
  readonly registry: CapabilityRegistry | readonly CapabilityInput[];
  /** The LLM asked about uncertain capabilities; absent: local decisions only. */
  readonly llm?: LlmProvider;
  /**
   * The LLM asked about uncertain capabilities.
   *
   * @deprecated Pass it as `llm`.
   */
  readonly provider?: LlmProvider;
  /** Options of the local pre-matcher, or `false` to ask the LLM about every capability. */
  readonly prematcher?: PrematcherOptions | false;
  /** A cache of LLM verdicts (e.g. `lruDecisionCache()`), keyed by capability, prompt and task. */
  readonly cache?: DecisionCache<boolean>;
}

/** Options of a local selection ({@link CapabilitySelector.classify}). */
export interface ClassifyTaskOptions {
  /** The session's bypass setting (from an earlier `/caps:` directive); overrides the config. */
  readonly bypass?: boolean;
}

/**
 * Options of one {@link CapabilitySelector.decide} call. `signal` aborts pending LLM calls (the
 * selection then rejects with the signal's reason); at `deadlineMs` every capability still
 * waiting for the LLM falls back (not selected, cause `deadline`).
 */
export interface SelectOptions extends ClassifyTaskOptions, DecideOptions {
  /** Why the previous selection failed (reclassification): added to every prompt. */
  readonly previousFailure?: string;
}

/** One capability waiting for its decision; the LLM step and the fallback write back into it. */
interface Pending {
  readonly capability: Capability;
  readonly task: string;
  readonly previousFailure: string | undefined;
  thrown?: unknown;
  failure?: CapabilityFailure;
}

/** One capability on its way to a decision. */
interface Outcome {
  readonly pending: Pending;
  readonly local: LocalVerdict<boolean>;
  readonly score: number | undefined;
  decision: HybridDecision<boolean> | undefined;
  /** Left undecided by `classify`: the LLM would be asked. */
  waiting?: boolean;
}

type Mutable<T> = { -readonly [K in keyof T]: T[K] };

/** The local part of one selection, before any LLM call. */
interface Plan {
  readonly started: number;
  readonly text: string;
  /** Always-active and bypassed capabilities: decided by rule. */
  readonly fixed: CapabilityDecision[];
  /** The other capabilities; those without a decision wait for the LLM. */
  readonly outcomes: Outcome[];
  readonly bypass: boolean;
  readonly from: BypassSource;
  readonly directive: CapsDirective | undefined;
  readonly prematcher: boolean;
}

/** The decision on a capability its own rule selects (always active, or bypass). */
function forcedDecision(name: string, by: SelectionSource, reason: string): CapabilityDecision {
  return {
    name,
    selected: true,
    decidedBy: by,
    source: 'forced',
    confidence: 1,
    localConfidence: null,
    llmConfidence: null,
    llmMs: 0,
    cached: false,
    reason,
    fallbackCause: null,
    needsLlm: false,
  };
}

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
  readonly #hybrid: Hybrid<Pending, boolean>;
  #prematcher: { readonly version: number; readonly matcher: Prematcher } | undefined;

  constructor(options: CapabilitySelectorOptions) {
    const { registry, llm, provider: legacyProvider, cache, ...settings } = options;
    const provider = llm ?? legacyProvider;
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
    if (this.#config.prematcher !== false) this.#matcher(); // compile now: fail fast on bad options
  }

  /** Counters of the per-capability decisions since the selector was built. */
  get stats(): HybridStats {
    return this.#hybrid.stats;
  }

  /**
   * Selects the capabilities `task` needs.
   *
   * @deprecated Use {@link decide}.
   */
  select(task: string, options: SelectOptions = {}): Promise<CapabilitySelection> {
    return this.decide(task, options);
  }

  /**
   * Selects locally, without I/O: always-active and bypassed capabilities, and the pre-matcher's
   * decisions. When the pre-matcher is unsure of some and an LLM is configured, their decisions
   * (and the selection) have `needsLlm: true`, with the pre-matcher's best guess.
   */
  classify(task: string, options: ClassifyTaskOptions = {}): CapabilitySelection {
    const plan = this.#plan(task, options);
    for (const outcome of plan.outcomes) {
      if (outcome.decision !== undefined) continue;
      outcome.decision = this.#hybrid.pending(outcome.local);
      outcome.waiting = true;
    }
    return this.#selection(plan, 0, performance.now() - plan.started);
  }

  /**
   * Selects the capabilities `task` needs: local decisions first, then the LLM for the
   * capabilities the pre-matcher is unsure of, concurrently under the configured limit, each
   * under its timeout and all under the caller's `deadlineMs`.
   */
  async decide(task: string, options: SelectOptions = {}): Promise<CapabilitySelection> {
    const plan = this.#plan(task, options);
    const before = this.#hybrid.stats.llmCalls;
    const asking = plan.outcomes.filter((outcome) => outcome.decision === undefined);
    if (asking.length > 0) {
      const { signal, deadlineMs } = options;
      const until = deadlineMs === undefined ? undefined : plan.started + deadlineMs;
      const limit = pLimit(this.#config.concurrency);
      await Promise.all(
        asking.map((outcome) =>
          limit(async () => {
            outcome.decision = await this.#hybrid.decideFrom(outcome.pending, outcome.local, {
              ...(signal === undefined ? {} : { signal }),
              ...(until === undefined ? {} : { deadlineMs: until - performance.now() }),
            });
          }),
        ),
      );
    }
    const llmCalls = this.#hybrid.stats.llmCalls - before;
    return this.#selection(plan, llmCalls, performance.now() - plan.started);
  }

  /** The local part of a selection: the decisions that need no LLM, and the rest pending. */
  #plan(task: string, options: SelectOptions): Plan {
    const started = performance.now();
    const parsed = parseCapsDirective(task);
    const { bypass, from } = resolveBypass(parsed.directive, options.bypass, this.#config.bypass);
    const text = sanitizeText(parsed.text);
    const all = this.registry.all();
    const fixed: CapabilityDecision[] = all
      .filter((capability) => capability.alwaysActive)
      .map((capability) => forcedDecision(capability.name, 'always-active', 'always active'));
    const rest = all.filter((capability) => !capability.alwaysActive);
    const matcher = this.#config.prematcher === false ? undefined : this.#matcher();
    let outcomes: Outcome[] = [];
    if (bypass) {
      const why = from === 'directive' ? '/caps:off in the task' : `bypass set by ${from}`;
      for (const capability of rest) {
        fixed.push(forcedDecision(capability.name, 'bypass', `selection bypassed (${why})`));
      }
    } else {
      if (text.trim() === '') throw new EmptyTaskError();
      const matches = matcher?.match(text).matches;
      // Local decisions are made at once, synchronously; only the rest wait for an LLM slot.
      outcomes = rest.map((capability, i): Outcome => {
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
    }
    return {
      started,
      text,
      fixed,
      outcomes,
      bypass,
      from,
      directive: parsed.directive,
      prematcher: matcher !== undefined && !bypass,
    };
  }

  #selection(plan: Plan, llmCalls: number, elapsedMs: number): CapabilitySelection {
    const decisions = [...plan.fixed, ...plan.outcomes.map((outcome) => this.#toDecision(outcome))];
    return {
      task: plan.text,
      selected: decisions.filter((d) => d.selected).map((d) => d.name),
      decisions,
      failures: decisions.flatMap((d) => (d.failure ? [d.failure] : [])),
      bypass: plan.bypass,
      bypassFrom: plan.from,
      ...(plan.directive === undefined ? {} : { directive: plan.directive }),
      llm: this.#provider !== undefined,
      prematcher: plan.prematcher,
      needsLlm: decisions.some((d) => d.needsLlm),
      llmCalls,
      elapsedMs,
    };
  }

  /**
   * The reported decision of one capability. Built field by field rather than with object
   * spreads, which are many times slower on V8 and this runs once per capability per task.
   */
  #toDecision({ pending, local, score, decision, waiting }: Outcome): CapabilityDecision {
    const hybrid = decision!;
    const needsLlm = waiting === true;
    const out: Mutable<CapabilityDecision> = {
      name: pending.capability.name,
      selected: hybrid.value,
      decidedBy: 'local',
      source: hybrid.source,
      confidence: hybrid.confidence,
      localConfidence: hybrid.localConfidence,
      llmConfidence: hybrid.llmConfidence,
      llmMs: hybrid.llmMs,
      cached: hybrid.cached,
      reason: hybrid.reason,
      fallbackCause: hybrid.fallbackCause,
      needsLlm,
    };
    if (score !== undefined) out.score = score;
    if (hybrid.source === 'fallback') {
      const failure = pending.failure!;
      out.selected = false;
      out.decidedBy = 'failed';
      out.confidence = 0;
      out.reason = `classification failed: ${failure.error}`;
      out.failure = failure;
    } else if (hybrid.source === 'llm' || hybrid.source === 'cached') {
      out.decidedBy = 'llm';
      out.reason =
        hybrid.llmReason ??
        (hybrid.value ? 'the LLM says it is needed' : 'the LLM says it is not needed');
    } else if (!needsLlm && !this.#hybrid.isConfident(local)) {
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
    const timedOut = context.cause === 'llm_timeout' || context.cause === 'deadline';
    const cause = timedOut ? 'timeout' : 'error';
    input.failure = {
      name: input.capability.name,
      cause,
      fallbackCause: context.cause,
      error: context.error ?? (input.thrown === undefined ? cause : describeError(input.thrown)),
      retriable: timedOut || isRetriableError(input.thrown),
    };
    return { value: false, confidence: 0 };
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
    return hash.digest('base64url');
  }
}

/**
 * Builds a capability selector from one configuration object: the registry, the settings,
 * `llm` and `cache` (see {@link CapabilitySelectorOptions}).
 *
 * ```ts
 * const selector = createCapabilitySelector({ registry, llm: provider });
 * selector.classify(task);                          // synchronous, local
 * await selector.decide(task, { deadlineMs: 800 });  // the LLM for the unsure ones
 * ```
 */
export function createCapabilitySelector(options: CapabilitySelectorOptions): CapabilitySelector {
  return new CapabilitySelector(options);
}
