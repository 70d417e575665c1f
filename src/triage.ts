import type { CapabilityRegistry } from './capabilities/registry.js';
import {
  type CapabilitySelection,
  type CapabilitySelector,
  type CapabilitySelectorOptions,
  createCapabilitySelector,
} from './capabilities/selection.js';
import {
  type ContextDecision,
  type ContextLlmSettings,
  type ContextRouter,
  type ContextRouterSettings,
  createContextRouter,
} from './context/router.js';
import { lruDecisionCache, namespacedCache } from './core/decision-cache.js';
import { ConfigError } from './core/errors.js';
import type { DecideOptions, DecisionCache } from './core/hybrid.js';
import {
  createInjectionGuard,
  type InjectionDecision,
  type InjectionGuard,
  type InjectionGuardOptions,
} from './injection/guard.js';
import type { DetectOptions } from './injection/types.js';
import { createProviderIfKeyed, type ProviderConfigInput } from './llm/config.js';
import { isLlmProvider, type LlmSetting, splitLlmSetting } from './llm/setting.js';
import type { LlmProvider } from './llm/types.js';
import type { TierDecision } from './tier/decision.js';
import type { TierRequest } from './tier/extract.js';
import {
  createTierRouter,
  type TierLlmSettings,
  type TierRouter,
  type TierRouterConfig,
} from './tier/router.js';
import {
  checkRequest,
  lastUserText,
  systemPromptOf,
  type TriageRequest,
  tierRequestOf,
  type UserControlledText,
  userControlledTexts,
} from './triage-request.js';

/**
 * The front door: one object for the request-level decisions (model tier, prompt injection,
 * context policy, and capabilities when a registry is given), with one LLM and one cache shared
 * by all, one synchronous call that never does I/O, and one asynchronous call that asks the LLM
 * only where a part is unsure, running the parts in parallel under one overall deadline.
 *
 * ```ts
 * const triage = createTriage({ llm: { id: 'cheap', kind: 'openai', model: 'gpt-4o-mini',
 *   apiKeyEnv: 'OPENAI_API_KEY' } });
 * const local = triage.classify(request);                      // microseconds, no I/O
 * const d = await triage.decide(request, { deadlineMs: 300 }); // the LLM where unsure
 * d.tier.tier; d.injection.riskLevel; d.context.mode; d.elapsedMs
 * ```
 */

/** The code of the process warning emitted when the configured LLM's key variable is unset. */
export const TRIAGE_LLM_OFF_WARNING = 'TRIAGE_LLM_OFF';

/** The parts of a triage decision. */
export type TriagePart = 'tier' | 'injection' | 'context' | 'capabilities';

/** Every part, in the order they appear in a decision. */
export const TRIAGE_PARTS: readonly TriagePart[] = ['tier', 'injection', 'context', 'capabilities'];

/** A part's own LLM: inherit the shared one (absent), its own provider, or none (`false`). */
type PartLlm<Settings> = LlmSetting<Settings> | false;

/** The tier part: the tier router's options; `llm` may override the shared LLM. */
export interface TriageTierConfig extends Omit<TierRouterConfig, 'llm' | 'cache'> {
  readonly llm?: PartLlm<TierLlmSettings>;
}

/** The injection part: the guard's settings and detector; `llm` may override the shared LLM. */
export interface TriageInjectionConfig
  extends Omit<InjectionGuardOptions, 'llm' | 'cache' | 'decisionCache'> {
  readonly llm?: LlmProvider | false;
}

/** The context part: the context router's configuration; `llm` may override the shared LLM. */
export interface TriageContextConfig extends Omit<ContextRouterSettings, 'llm' | 'cache'> {
  readonly llm?: PartLlm<ContextLlmSettings>;
}

/** The capabilities part: the registry (required) and the selector's settings. */
export interface TriageCapabilitiesConfig
  extends Omit<CapabilitySelectorOptions, 'llm' | 'provider' | 'cache'> {
  readonly registry: CapabilityRegistry | CapabilitySelectorOptions['registry'];
  readonly llm?: LlmProvider | false;
}

/** How {@link createTriage} is configured. Every section is optional. */
export interface TriageConfig {
  /**
   * The LLM every part asks when it is unsure: a provider, or a provider configuration (as for
   * `createProvider`: `{ id, kind, model, apiKeyEnv, … }`; the triage then owns the provider and
   * `close()` releases it). Without one, every part decides locally (or falls back).
   */
  readonly llm?: LlmProvider | ProviderConfigInput;
  /**
   * One cache of LLM verdicts for every part, its keys namespaced per part (`tier:…`,
   * `injection:…`): an object with `get` (which may return a promise) and `set`, such as a shared
   * store; by default an in-memory LRU (10,000 entries, 10 minutes); `false` for none beyond
   * each part's own default; or a function giving each part its own cache (`undefined`: the
   * part's own default).
   */
  readonly cache?:
    | DecisionCache<unknown>
    | false
    | ((part: TriagePart) => DecisionCache<unknown> | undefined);
  /** The tier part; `false` turns it off. On by default. */
  readonly tier?: TriageTierConfig | false;
  /** The prompt-injection part; `false` turns it off. On by default. */
  readonly injection?: TriageInjectionConfig | false;
  /** The context-policy part; `false` turns it off. On by default. */
  readonly context?: TriageContextConfig | false;
  /** The capabilities part: on when a registry is given. */
  readonly capabilities?: TriageCapabilitiesConfig | false;
  /** Where API keys of a provider configuration are read. Default `process.env`. */
  readonly env?: Readonly<Record<string, string | undefined>>;
}

/**
 * The injection part of a decision: the decision on the riskiest text the user controls, and
 * which message it was.
 */
export interface TriageInjectionDecision extends InjectionDecision {
  /** The message's index in `messages` (`null` for a plain-string request). */
  readonly messageIndex: number | null;
  /** How many texts were screened (the riskiest is this one). */
  readonly screened: number;
}

/**
 * A triage decision: one part per subsystem (`null` when the part is off, was not asked for, or
 * had nothing to read), and the wall time. Plain data.
 */
export interface TriageDecision {
  readonly tier: TierDecision | null;
  readonly injection: TriageInjectionDecision | null;
  readonly context: ContextDecision | null;
  readonly capabilities: CapabilitySelection | null;
  /** Milliseconds the call took. */
  readonly elapsedMs: number;
}

/** Options of {@link Triage.classify}. */
export interface TriageClassifyOptions {
  /** The parts to decide. Default: every part that is on. */
  readonly parts?: readonly TriagePart[];
}

/** Options of {@link Triage.decide}. */
export interface TriageDecideOptions extends TriageClassifyOptions, DecideOptions {
  /**
   * The result of `classify` for this same request: its parts that need no LLM are kept as they
   * are instead of being decided again (a server's path: classify, and decide only when some
   * part needs the LLM).
   */
  readonly from?: TriageDecision;
}

/** The front door (see the module comment). */
export interface Triage {
  /** The parts that are on, built from the configuration (for their stats and own calls). */
  readonly tier: TierRouter | undefined;
  readonly injection: InjectionGuard | undefined;
  readonly context: ContextRouter | undefined;
  readonly capabilities: CapabilitySelector | undefined;
  /** The shared LLM, if one is configured. */
  readonly llm: LlmProvider | undefined;
  /**
   * Why the configured LLM is not used: the environment variable of its key is unset (the LLM
   * checks are then off, and a process warning with code `TRIAGE_LLM_OFF` said so); `null`
   * otherwise.
   */
  readonly llmUnavailable: string | null;
  /**
   * Decides every part locally, synchronously, without I/O. A part whose local classifier is
   * unsure (and has an LLM) says so with `needsLlm: true`; {@link decide} then asks the LLM.
   * Throws an `InputError` (a `TriageRequestError`, or a part's own) for a malformed request.
   */
  classify(request: TriageRequest, options?: TriageClassifyOptions): TriageDecision;
  /**
   * Decides every part, asking the LLM only where a part is unsure, the parts in parallel. At
   * `deadlineMs` every part still waiting for the LLM falls back (`fallbackCause: deadline`).
   * Never rejects because of the LLM; rejects when `signal` aborts or the request is malformed.
   */
  decide(request: TriageRequest, options?: TriageDecideOptions): Promise<TriageDecision>;
  /** Releases a provider the triage created from a provider configuration. */
  close(): Promise<void>;
}

/** Builds the front door (see {@link TriageConfig}). Throws a `ConfigError` for bad sections. */
export function createTriage(config: TriageConfig = {}): Triage {
  const built =
    config.llm === undefined || isLlmProvider(config.llm)
      ? undefined
      : createProviderIfKeyed(config.llm, {
          source: 'triage llm',
          ...(config.env === undefined ? {} : { env: config.env }),
        });
  // A key variable that is unset turns the LLM checks off, with one warning, as the original design
  // degrades ("no API key for classifier model: skips the LLM"); every part then decides locally.
  if (built?.disabled !== undefined) {
    process.emitWarning(built.disabled, { code: TRIAGE_LLM_OFF_WARNING });
  }
  const owned = built?.provider;
  const shared = built === undefined ? (config.llm as LlmProvider | undefined) : owned;
  const option = config.cache;
  const store =
    option === false || typeof option === 'function'
      ? undefined
      : (option ?? lruDecisionCache<unknown>());
  const cacheOf = <T>(part: TriagePart): { cache?: DecisionCache<T> } => {
    const own = typeof option === 'function' ? option(part) : undefined;
    if (own !== undefined) return { cache: own as DecisionCache<T> };
    return store === undefined ? {} : { cache: namespacedCache<T>(store, part) };
  };
  try {
    const tier = section(config.tier, true)
      ? createTierRouter({ ...withLlm(config.tier, shared), ...cacheOf('tier') })
      : undefined;
    const injection = section(config.injection, true)
      ? createInjectionGuard({ ...withProvider(config.injection, shared), ...cacheOf('injection') })
      : undefined;
    const context = section(config.context, true)
      ? createContextRouter({ ...withLlm(config.context, shared), ...cacheOf('context') })
      : undefined;
    const capabilities = section(config.capabilities, false)
      ? createCapabilitySelector({
          ...withProvider(config.capabilities, shared),
          ...cacheOf('capabilities'),
        } as CapabilitySelectorOptions)
      : undefined;
    return new FrontDoor({
      tier,
      injection,
      context,
      capabilities,
      llm: shared,
      llmUnavailable: built?.disabled ?? null,
      owned,
    });
  } catch (error) {
    void owned?.close();
    throw error;
  }
}

/** Whether a section is on: given as an object, or absent and on by default. */
function section<T extends object>(value: T | false | undefined, byDefault: boolean): value is T {
  if (value === false) return false;
  if (value === undefined) return byDefault;
  if (typeof value !== 'object' || value === null) {
    throw new ConfigError('triage config', [
      { path: '', message: 'each part must be an object, or false to turn it off' },
    ]);
  }
  return true;
}

/** A tier or context section with its LLM setting resolved against the shared provider. */
function withLlm<Settings extends object, C extends { readonly llm?: PartLlm<Settings> }>(
  config: C | undefined,
  shared: LlmProvider | undefined,
): Omit<C, 'llm'> & { llm?: LlmSetting<Settings> } {
  const { llm, ...rest } = (config ?? {}) as C;
  if (llm === false) return rest;
  const { provider, settings } = splitLlmSetting<Settings>(llm);
  const chosen = provider ?? shared;
  if (settings === undefined) return chosen === undefined ? rest : { ...rest, llm: chosen };
  return { ...rest, llm: { ...settings, ...(chosen === undefined ? {} : { provider: chosen }) } };
}

/** An injection or capabilities section with its provider resolved against the shared one. */
function withProvider<C extends { readonly llm?: LlmProvider | false }>(
  config: C | undefined,
  shared: LlmProvider | undefined,
): Omit<C, 'llm'> & { llm?: LlmProvider } {
  const { llm, ...rest } = (config ?? {}) as C;
  const chosen = llm === false ? undefined : (llm ?? shared);
  return chosen === undefined ? rest : { ...rest, llm: chosen };
}

interface Parts {
  readonly tier: TierRouter | undefined;
  readonly injection: InjectionGuard | undefined;
  readonly context: ContextRouter | undefined;
  readonly capabilities: CapabilitySelector | undefined;
  readonly llm: LlmProvider | undefined;
  readonly llmUnavailable: string | null;
  readonly owned: { close(): Promise<void> } | undefined;
}

class FrontDoor implements Triage {
  readonly tier: TierRouter | undefined;
  readonly injection: InjectionGuard | undefined;
  readonly context: ContextRouter | undefined;
  readonly capabilities: CapabilitySelector | undefined;
  readonly llm: LlmProvider | undefined;
  readonly llmUnavailable: string | null;
  readonly #owned: { close(): Promise<void> } | undefined;

  constructor(parts: Parts) {
    this.llmUnavailable = parts.llmUnavailable;
    this.tier = parts.tier;
    this.injection = parts.injection;
    this.context = parts.context;
    this.capabilities = parts.capabilities;
    this.llm = parts.llm;
    this.#owned = parts.owned;
  }

  classify(request: TriageRequest, options: TriageClassifyOptions = {}): TriageDecision {
    const started = performance.now();
    checkRequest(request);
    const wanted = partsOf(options.parts);
    const tier = this.tier && wanted.tier ? this.tier.classify(tierInput(request)) : null;
    const injection =
      this.injection && wanted.injection ? this.#screenLocally(this.injection, request) : null;
    const context =
      this.context && wanted.context ? this.context.classify(this.#question(request)) : null;
    const capabilities =
      this.capabilities && wanted.capabilities
        ? this.capabilities.classify(lastUserText(request))
        : null;
    return { tier, injection, context, capabilities, elapsedMs: performance.now() - started };
  }

  async decide(request: TriageRequest, options: TriageDecideOptions = {}): Promise<TriageDecision> {
    const started = performance.now();
    checkRequest(request);
    const wanted = partsOf(options.parts);
    const { from } = options;
    const decideOptions: DecideOptions = {
      ...(options.signal === undefined ? {} : { signal: options.signal }),
      ...(options.deadlineMs === undefined ? {} : { deadlineMs: options.deadlineMs }),
    };
    // Every part starts at once; only the unsure ones wait for the LLM.
    const tier =
      this.tier && wanted.tier
        ? (settled(from?.tier) ?? this.#tier(this.tier, request, decideOptions))
        : null;
    const injection =
      this.injection && wanted.injection
        ? (settled(from?.injection) ?? this.#screen(this.injection, request, decideOptions))
        : null;
    const context =
      this.context && wanted.context
        ? (settled(from?.context) ?? this.context.decide(this.#question(request), decideOptions))
        : null;
    const capabilities =
      this.capabilities && wanted.capabilities
        ? (settledSelection(from?.capabilities) ??
          this.capabilities.decide(lastUserText(request), decideOptions))
        : null;
    const [t, i, c, s] = await Promise.all([tier, injection, context, capabilities]);
    return {
      tier: t,
      injection: i,
      context: c,
      capabilities: s,
      elapsedMs: performance.now() - started,
    };
  }

  async close(): Promise<void> {
    await this.#owned?.close();
  }

  #tier(
    router: TierRouter,
    request: TriageRequest,
    options: DecideOptions,
  ): TierDecision | Promise<TierDecision> {
    const input = tierInput(request);
    const local = router.classify(input);
    return local.needsLlm ? router.decide(input, options) : local;
  }

  #question(request: TriageRequest): string {
    return lastUserText(request, this.context?.config.maxQuestionChars);
  }

  #screenLocally(guard: InjectionGuard, request: TriageRequest): TriageInjectionDecision | null {
    const texts = userControlledTexts(request);
    if (texts.length === 0) return null;
    const system = systemPromptOf(request);
    return riskiest(
      texts.map((text) => withText(guard.classify(text.text, detectOptions(text, system)), text)),
      texts.length,
    );
  }

  #screen(
    guard: InjectionGuard,
    request: TriageRequest,
    options: DecideOptions,
  ): TriageInjectionDecision | null | Promise<TriageInjectionDecision | null> {
    const texts = userControlledTexts(request);
    if (texts.length === 0) return null;
    const system = systemPromptOf(request);
    const decisions = texts.map((text) => {
      const detect = detectOptions(text, system);
      const local = guard.classify(text.text, detect);
      if (!local.needsLlm) return withText(local, text);
      return guard
        .decide(text.text, { ...options, ...detect })
        .then((decided) => withText(decided, text));
    });
    if (decisions.every((d) => !(d instanceof Promise))) {
      return riskiest(decisions as TriageInjectionDecision[], texts.length);
    }
    return Promise.all(decisions).then((all) => riskiest(all, texts.length));
  }
}

/** Which parts to decide. */
function partsOf(parts: readonly TriagePart[] | undefined): Readonly<Record<TriagePart, boolean>> {
  if (parts === undefined) return ALL_PARTS;
  return {
    tier: parts.includes('tier'),
    injection: parts.includes('injection'),
    context: parts.includes('context'),
    capabilities: parts.includes('capabilities'),
  };
}

const ALL_PARTS: Readonly<Record<TriagePart, boolean>> = {
  tier: true,
  injection: true,
  context: true,
  capabilities: true,
};

/** A part of an earlier `classify` that needs no LLM (it is final), or `undefined`. */
function settled<T extends { readonly needsLlm: boolean }>(
  part: T | null | undefined,
): T | undefined {
  return part === null || part === undefined || part.needsLlm ? undefined : part;
}

function settledSelection(
  part: CapabilitySelection | null | undefined,
): CapabilitySelection | undefined {
  return part === null || part === undefined || part.needsLlm ? undefined : part;
}

function tierInput(request: TriageRequest): TierRequest | string {
  return tierRequestOf(request) as TierRequest | string;
}

/** How to screen one text: where it comes from, and the system prompt it is judged against. */
function detectOptions(text: UserControlledText, system: string | undefined): DetectOptions {
  return system === undefined ? { source: text.source } : { source: text.source, system };
}

function withText(decision: InjectionDecision, text: UserControlledText): TriageInjectionDecision {
  return { ...decision, messageIndex: text.messageIndex, screened: 1 };
}

/** Order of risk; `unknown` (not established) ranks below `suspicious`. */
const RANK = { normal: 0, unknown: 0.5, suspicious: 1, high_risk: 2 } as const;

/** The riskiest decision (ties: the more confident), with the count of texts screened. */
function riskiest(
  decisions: readonly TriageInjectionDecision[],
  screened: number,
): TriageInjectionDecision {
  let top = decisions[0]!;
  for (const decision of decisions) {
    const higher = RANK[decision.riskLevel] - RANK[top.riskLevel];
    if (higher > 0 || (higher === 0 && decision.confidence > top.confidence)) top = decision;
  }
  return { ...top, screened };
}
