import { readFileSync } from 'node:fs';
import Type, { type Static } from 'typebox';
import { ClassifierConfigSchema } from '../core/cooldown.js';
import { ConfigError } from '../core/errors.js';
import { compileConfig } from '../core/validate.js';
import { parseYaml } from '../core/yaml.js';
import { type ConfiguredProvider, createProvider, ProviderConfigSchema } from '../llm/index.js';
import type { GuidanceEngineOptions, GuidanceProvider } from './engine.js';
import { TrajectoryOptionsSchema } from './options.js';
import { buildClassifier, rebase, type SpecDependencies } from './spec.js';

/** One provider in a configuration file. */
export const GuidanceProviderSchema = Type.Object(
  {
    /** Unique id. Default: the classifier's name. */
    id: Type.Optional(Type.String({ minLength: 1 })),
    /** A classifier spec: `{type: "doom_loop", …}`, a composite, or `llm`. */
    classifier: Type.Unknown(),
    /** The text to inject, with optional placeholders (`{reason}`, `{tool}`, …). */
    guidance: Type.String({ minLength: 1 }),
    ...ClassifierConfigSchema.properties,
    /** Most fires within one turn. Default 1. */
    maxPerTurn: Type.Integer({ minimum: 1, default: 1 }),
  },
  { additionalProperties: false },
);

/**
 * A guidance configuration file (JSON or YAML). Without `providers`, the default providers are
 * used; with them, exactly those, in that order.
 */
export const GuidanceConfigSchema = Type.Object(
  {
    providers: Type.Optional(Type.Array(GuidanceProviderSchema)),
    trajectory: Type.Optional(TrajectoryOptionsSchema),
    /** Most providers that may fire on one event. Default 1. */
    maxPerEvent: Type.Integer({ minimum: 1, default: 1 }),
    /** The LLM that `llm` classifiers ask (the provider layer's configuration). */
    llm: Type.Optional(ProviderConfigSchema),
  },
  { additionalProperties: false },
);
export type GuidanceConfig = Static<typeof GuidanceConfigSchema>;

/** Engine options built from a configuration, with the LLM provider it created, if any. */
export interface LoadedGuidanceConfig extends GuidanceEngineOptions {
  /** Created from the `llm` section; close it when done (it holds connections). */
  readonly llmProvider?: ConfiguredProvider;
}

const validate = compileConfig(GuidanceConfigSchema, 'guidance config');

/**
 * Validates a guidance configuration (already parsed) and builds the engine options it
 * describes. Throws a {@link ConfigError} for `source` naming every bad field by path, e.g.
 * `/providers/1/classifier/threshold must be >= 1` or `/providers/0/cooldown is not a known field`.
 */
export function compileGuidanceConfig(
  value: unknown,
  source = 'guidance config',
  dependencies: SpecDependencies = {},
): LoadedGuidanceConfig {
  const config = validate(structuredClone(value), source);
  // A provider given in code wins over the file's `llm` section.
  const llmProvider = config.llm && !dependencies.llm ? llmFrom(config.llm, source) : undefined;
  if (llmProvider) dependencies = { ...dependencies, llm: llmProvider };
  try {
    return {
      maxPerEvent: config.maxPerEvent,
      ...buildProviders(config, source, dependencies),
      ...(config.trajectory ? { trajectory: config.trajectory } : {}),
      ...(llmProvider ? { llmProvider } : {}),
    };
  } catch (error) {
    void llmProvider?.close();
    throw error;
  }
}

function llmFrom(config: unknown, source: string): ConfiguredProvider {
  try {
    return createProvider(config, { source });
  } catch (error) {
    throw rebase(error, source, '/llm');
  }
}

function buildProviders(
  config: GuidanceConfig,
  source: string,
  dependencies: SpecDependencies,
): { providers?: GuidanceProvider[] } {
  if (config.providers === undefined) return {};
  const ids = new Set<string>();
  const providers = config.providers.map((entry, index): GuidanceProvider => {
    const path = `/providers/${index}`;
    const built = buildClassifier(entry.classifier, source, `${path}/classifier`, dependencies);
    const id = entry.id ?? built.classifier.name;
    if (ids.has(id)) {
      throw new ConfigError(source, [{ path: `${path}/id`, message: `duplicate id '${id}'` }]);
    }
    ids.add(id);
    const { classifier: _spec, ...limits } = entry;
    return built.kind === 'sync'
      ? { ...limits, id, classifier: built.classifier }
      : { ...limits, id, asyncClassifier: built.classifier };
  });
  return { providers };
}

/**
 * Reads a guidance configuration file (`.json`, or YAML for anything else) and builds the engine
 * options it describes. Unreadable or unparsable files are a {@link ConfigError} naming the file.
 */
export function loadGuidanceConfig(
  path: string,
  dependencies: SpecDependencies = {},
): LoadedGuidanceConfig {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code ?? String(error);
    throw new ConfigError(`guidance config ${path}`, [
      { path: '', message: `cannot be read (${code})` },
    ]);
  }
  let value: unknown;
  try {
    value = path.endsWith('.json') ? JSON.parse(text) : parseYaml(text);
  } catch (error) {
    const kind = path.endsWith('.json') ? 'JSON' : 'YAML';
    throw new ConfigError(`guidance config ${path}`, [
      { path: '', message: `is not valid ${kind}: ${(error as Error).message}` },
    ]);
  }
  return compileGuidanceConfig(value, `guidance config ${path}`, dependencies);
}
