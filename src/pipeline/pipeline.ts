import { ConfigError, type ConfigIssue } from '../core/errors.js';
import type { DecideOptions, Hybrid, HybridStats } from '../core/hybrid.js';
import { compileSchema } from '../llm/output.js';
import type { LlmProvider } from '../llm/types.js';
import { aggregate } from './aggregate.js';
import type { ModelCatalog } from './catalog.js';
import type { PipelineClassifier } from './classifier.js';
import { buildResult, type PipelineResult, resolverRequest } from './envelope.js';
import { type PipelineMode, prepareInput, TARGET_ROLE } from './input.js';
import type { LocalStage } from './local-stage.js';
import type { TargetRole } from './manifest.js';
import { loadClassifiers } from './registry.js';
import { renderConversation } from './render.js';
import { resolveModel } from './resolve.js';
import { DEFAULT_LOCAL_STAGES } from './risk-stage.js';
import {
  type ClassifierTask,
  createStageHybrid,
  type RunEnvironment,
  runClassifiers,
} from './runner.js';
import { type PipelineSettings, type PipelineSettingsInput, pipelineSettings } from './settings.js';
import type { ClassifierOutput } from './types.js';

/**
 * How a pipeline is built, in the shape every subsystem shares: its settings (worker pool,
 * classifier selection, aggregator, input budgets; defaults filled in), `llm`, and the catalog
 * and local stages.
 */
export interface CreatePipelineOptions extends PipelineSettingsInput {
  /** The LLM the classifiers ask (see `createProvider` in the LLM layer). */
  readonly llm: LlmProvider;
  /** The model catalog (from `loadCatalog` / `parseCatalog`); without one no model is picked. */
  readonly catalog?: ModelCatalog;
  /** Local stages by classifier name; `null` removes a default stage. */
  readonly localStages?: Readonly<Record<string, LocalStage | null>>;
  /** Names the settings in errors (e.g. the configuration file). */
  readonly source?: string;
}

/**
 * Options of {@link createPipeline} in the form it took before every subsystem took one
 * configuration object.
 *
 * @deprecated Pass the settings at the top level and the provider as `llm`:
 * `createPipeline({ ...settings, llm: provider, catalog })`.
 */
export interface PipelineOptions {
  /** The LLM the classifiers ask (see `createProvider` in the LLM layer). */
  readonly provider: LlmProvider;
  /** Worker pool, classifier selection, aggregator and input budgets; defaults filled in. */
  readonly settings?: PipelineSettingsInput;
  /** The model catalog (from `loadCatalog` / `parseCatalog`); without one no model is picked. */
  readonly catalog?: ModelCatalog;
  /** Local stages by classifier name; `null` removes a default stage. */
  readonly localStages?: Readonly<Record<string, LocalStage | null>>;
  /** Names `settings` in errors (e.g. the configuration file). */
  readonly source?: string;
}

/**
 * Options of one run. `signal` aborts the run (requests in flight are cancelled and the run
 * rejects with the reason); at `deadlineMs` (or the run time limit, whichever comes first) every
 * classifier not done gets its fallback output (`fallback_cause: deadline`).
 */
export interface PipelineRunOptions extends DecideOptions {}

/**
 * The classifier pipeline of the original design: manifest-driven LLM classifiers run side by side, their
 * outputs validated and merged, a model picked from the catalog, and everything recorded in an
 * audit envelope. Create it once ({@link createPipeline}); runs share nothing mutable but the
 * local stages' counters.
 */
export class Pipeline {
  /** Every loaded classifier, in registry order. */
  readonly classifiers: readonly PipelineClassifier[];
  readonly settings: PipelineSettings;
  readonly catalog: ModelCatalog | undefined;
  readonly #env: RunEnvironment;
  readonly #byRole: Readonly<Record<TargetRole, readonly PipelineClassifier[]>>;
  readonly #skipped: Readonly<Record<TargetRole, readonly string[]>>;

  /** Use {@link createPipeline}. */
  constructor(
    classifiers: readonly PipelineClassifier[],
    settings: PipelineSettings,
    env: RunEnvironment,
    catalog: ModelCatalog | undefined,
  ) {
    this.classifiers = classifiers;
    this.settings = settings;
    this.catalog = catalog;
    this.#env = env;
    const split = (role: TargetRole) => classifiers.filter((c) => c.appliesTo.includes(role));
    const skip = (role: TargetRole) =>
      classifiers.filter((c) => !c.appliesTo.includes(role)).map((c) => c.name);
    this.#byRole = { user: split('user'), assistant: split('assistant') };
    this.#skipped = { user: skip('user'), assistant: skip('assistant') };
  }

  /**
   * Classifies a conversation whose final message is the user's: every classifier that applies
   * asks the LLM (or its local stage decides), side by side. The pipeline has no synchronous
   * `classify`: its classifiers are LLM classifiers.
   */
  decide(messages: unknown, options?: PipelineRunOptions): Promise<PipelineResult> {
    return this.run(messages, 'classify', options);
  }

  /**
   * Classifies a conversation whose final message is the user's.
   *
   * @deprecated Use {@link decide} (in every subsystem `classify` is the synchronous, local call).
   */
  classify(messages: unknown, options?: PipelineRunOptions): Promise<PipelineResult> {
    return this.decide(messages, options);
  }

  /** Inspects a conversation whose final message is the assistant's. */
  inspect(messages: unknown, options?: PipelineRunOptions): Promise<PipelineResult> {
    return this.run(messages, 'inspect', options);
  }

  /** Runs the pipeline in `mode`. Throws `PipelineInputError` for unusable messages. */
  async run(
    messages: unknown,
    mode: PipelineMode,
    options: PipelineRunOptions = {},
  ): Promise<PipelineResult> {
    const started = performance.now();
    const input = prepareInput(messages, mode, this.settings.input);
    const role = TARGET_ROLE[mode];
    const runs = await runClassifiers(
      this.#env,
      this.#byRole[role],
      input,
      renderConversation(input),
      options.signal,
      options.deadlineMs,
    );
    const threshold = this.settings.aggregator.certaintyThreshold;
    const merged = aggregate(runs, threshold);
    const recommendation = resolveModel(this.catalog, resolverRequest(merged));
    return buildResult({
      input,
      runs,
      merged,
      recommendation,
      skipped: this.#skipped[role],
      threshold,
      durationMs: performance.now() - started,
    });
  }

  /** Counters of each local stage's hybrid decisions (local, LLM, fallback, time), by classifier. */
  get localStats(): Readonly<Record<string, HybridStats>> {
    const stats: Record<string, HybridStats> = {};
    for (const [name, hybrid] of this.#env.hybrids) stats[name] = hybrid.stats;
    return stats;
  }
}

/**
 * Builds a pipeline: validates the settings, loads and compiles the classifiers (stock, custom
 * directories, minus disabled ones), and checks that per-classifier models and local stages name
 * loaded classifiers. Throws a `ConfigError` naming every problem.
 */
export function createPipeline(config: CreatePipelineOptions): Pipeline;
/**
 * @deprecated The `{ provider, settings }` form: pass the settings at the top level and the
 * provider as `llm`, `createPipeline({ ...settings, llm: provider, catalog })`.
 */
export function createPipeline(options: PipelineOptions): Pipeline;
export function createPipeline(input: CreatePipelineOptions | PipelineOptions): Pipeline {
  const options = legacyForm(input);
  const source = options.source ?? 'pipeline settings';
  const settings = pipelineSettings(options.settings, source);
  const { runner } = settings;
  const classifiers = loadClassifiers({
    stock: runner.stockClassifiers,
    dirs: runner.classifierDirs,
    disable: runner.disable,
  });
  const names = new Set(classifiers.map((c) => c.name));
  const issues: ConfigIssue[] = [];
  for (const name of Object.keys(runner.models)) {
    if (!names.has(name))
      issues.push({ path: `/runner/models/${name}`, message: 'is not a loaded classifier' });
  }
  const hybrids = new Map<string, Hybrid<ClassifierTask, ClassifierOutput>>();
  const stages = { ...DEFAULT_LOCAL_STAGES, ...options.localStages };
  for (const [name, stage] of Object.entries(stages)) {
    const classifier = classifiers.find((c) => c.name === name);
    if (!classifier) {
      // A default stage of a disabled classifier is simply unused.
      if (Object.hasOwn(options.localStages ?? {}, name)) {
        issues.push({ path: `/localStages/${name}`, message: 'is not a loaded classifier' });
      }
      continue;
    }
    if (stage) hybrids.set(name, createStageHybrid(classifier, stage, runner, options.provider));
  }
  if (issues.length > 0) throw new ConfigError(source, issues);
  // The LLM layer validates every reply against the backend schema; compiling those schemas now
  // (they are cached) keeps that cost off the first run.
  for (const classifier of classifiers) compileSchema(classifier.backendSchema);
  return new Pipeline(
    classifiers,
    settings,
    { provider: options.provider, runner, hybrids },
    options.catalog,
  );
}

/** The options of either form, as the deprecated form names them. */
function legacyForm(input: CreatePipelineOptions | PipelineOptions): PipelineOptions {
  if ('provider' in input && !('llm' in input)) return input as PipelineOptions;
  const { llm, catalog, localStages, source, ...settings } = input as CreatePipelineOptions;
  return {
    provider: llm,
    settings,
    ...(catalog === undefined ? {} : { catalog }),
    ...(localStages === undefined ? {} : { localStages }),
    ...(source === undefined ? {} : { source }),
  };
}
