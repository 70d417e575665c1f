import type { DecisionCache } from '../core/hybrid.js';
import type { LlmProvider } from '../llm/types.js';
import type { LlmGuidanceValue } from './classifiers/llm.js';
import { compileGuidanceConfig, type GuidanceConfig } from './config.js';
import { GuidanceEngine, type GuidanceEngineOptions, type GuidanceProvider } from './engine.js';

type SpecEntry = NonNullable<GuidanceConfig['providers']>[number];
type Defaulted = 'minConfidence' | 'cooldownTurns' | 'maxPerTurn';

/**
 * One provider given as in a configuration file: a classifier spec
 * (`{ type: 'doom_loop' }`, `{ type: 'llm', question }`, …), not a classifier object.
 */
export type GuidanceProviderSpec = Omit<SpecEntry, Defaulted> & Partial<Pick<SpecEntry, Defaulted>>;

/**
 * How a guidance engine is built, in the shape every subsystem shares: the engine's options,
 * `llm` (asked by LLM-backed providers) and `cache` (their verdicts). Providers are classifier
 * objects ({@link GuidanceProvider}) or, as in a configuration file, specs
 * (`{ classifier: { type: 'llm', question: '…' }, guidance: '…' }`), built with `llm` and `cache`.
 */
export interface GuidanceOptions extends Omit<GuidanceEngineOptions, 'providers'> {
  /** In priority order: all classifier objects, or all specs. Default: the default providers. */
  readonly providers?: readonly GuidanceProvider[] | readonly GuidanceProviderSpec[];
  /** The LLM that `llm` specs ask. */
  readonly llm?: LlmProvider;
  /** A cache of the verdicts of `llm` specs. */
  readonly cache?: DecisionCache<LlmGuidanceValue>;
}

/**
 * Builds a guidance engine (one per agent session) from one configuration object.
 *
 * ```ts
 * const guide = createGuidance();                        // the default providers
 * guide.classify(event);                                 // synchronous: the local providers
 * await guide.decide(event, { signal, deadlineMs: 500 }); // LLM-backed providers too
 * ```
 *
 * Throws a `ConfigError` naming every bad field of specs.
 */
export function createGuidance(options: GuidanceOptions = {}): GuidanceEngine {
  const { providers, llm, cache, ...engine } = options;
  if (providers === undefined || providers.every(isProviderObject)) {
    return new GuidanceEngine({
      ...engine,
      ...(providers === undefined ? {} : { providers: providers as readonly GuidanceProvider[] }),
    });
  }
  const compiled = compileGuidanceConfig(
    {
      providers,
      ...(engine.maxPerEvent === undefined ? {} : { maxPerEvent: engine.maxPerEvent }),
      ...(engine.trajectory === undefined ? {} : { trajectory: engine.trajectory }),
    },
    'guidance options',
    { ...(llm === undefined ? {} : { llm }), ...(cache === undefined ? {} : { cache }) },
  );
  return new GuidanceEngine({
    ...compiled,
    ...(engine.onError ? { onError: engine.onError } : {}),
    ...(engine.session ? { session: engine.session } : {}),
  });
}

function isProviderObject(provider: GuidanceProvider | GuidanceProviderSpec): boolean {
  const classifier = (provider as GuidanceProvider).classifier;
  return (
    (provider as GuidanceProvider).asyncClassifier !== undefined ||
    (typeof classifier === 'object' &&
      classifier !== null &&
      typeof (classifier as { classify?: unknown }).classify === 'function')
  );
}
