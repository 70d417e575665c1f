import { dirname, resolve } from 'node:path';
import Type, { type Static } from 'typebox';
import { ConfigError } from '../core/errors.js';
import { compileConfig } from '../core/validate.js';
import {
  type ConfiguredProvider,
  type CreateProviderOptions,
  createProvider,
  type ProviderConfig,
  ProviderConfigSchema,
  parseProviderConfig,
} from '../llm/config.js';
import { loadCatalog, type ModelCatalog, parseCatalog } from './catalog.js';
import { readConfigData } from './files.js';
import type { LocalStage } from './local-stage.js';
import { fromOpenClassifyConfig } from './open-classify-config.js';
import { createPipeline, type Pipeline } from './pipeline.js';
import {
  AggregatorSettingsSchema,
  InputSettingsSchema,
  type PipelineSettings,
  pipelineSettings,
  RunnerSettingsSchema,
} from './settings.js';

/**
 * The pipeline's configuration file (JSON, or YAML for `.yaml`/`.yml`): the runner (the LLM
 * provider, the model of each classifier, the worker pool, custom classifier directories), the
 * model catalog (a file path or inline), the aggregator and the input budgets. Relative paths are
 * read from the configuration file's own folder. open-classify's own file (an `ollama` section,
 * the deprecated `aggregator.confidenceThreshold`) is read as it is (open-classify-config.ts).
 */
export const PipelineConfigSchema = Type.Object(
  {
    runner: Type.Object(
      {
        /** The LLM the classifiers ask (see docs/llm-providers.md). */
        provider: Type.Optional(ProviderConfigSchema),
        ...RunnerSettingsSchema.properties,
      },
      { additionalProperties: false, default: {} },
    ),
    /**
     * The model catalog: a path to a JSON catalog file, or the catalog itself (validated against
     * `CatalogSchema` on its own, so its defaults apply).
     */
    catalog: Type.Optional(
      Type.Union([Type.String({ minLength: 1 }), Type.Object({}, { additionalProperties: true })]),
    ),
    aggregator: AggregatorSettingsSchema,
    input: InputSettingsSchema,
  },
  { additionalProperties: false },
);

/** A loaded configuration file. */
export interface PipelineConfig {
  /** Where it came from (named in errors). */
  readonly source: string;
  readonly settings: PipelineSettings;
  /** The provider configuration, when the file has one. */
  readonly provider?: ProviderConfig;
  readonly catalog?: ModelCatalog;
}

const validateConfig = compileConfig(PipelineConfigSchema, 'pipeline configuration');

/** Validates a configuration object; `baseDir` resolves its relative paths. */
export function parsePipelineConfig(
  value: unknown,
  source = 'pipeline configuration',
  baseDir = process.cwd(),
): PipelineConfig {
  const config = validateConfig(fromOpenClassifyConfig(value, source), source) as Static<
    typeof PipelineConfigSchema
  >;
  const { provider, ...runner } = config.runner;
  const settings = pipelineSettings(
    {
      runner: {
        ...runner,
        classifierDirs: runner.classifierDirs.map((dir) => resolve(baseDir, dir)),
      },
      aggregator: config.aggregator,
      input: config.input,
    },
    source,
  );
  const catalog =
    config.catalog === undefined
      ? undefined
      : typeof config.catalog === 'string'
        ? loadCatalog(resolve(baseDir, config.catalog))
        : parseCatalog(config.catalog, `${source} /catalog`);
  return {
    source,
    settings,
    ...(provider ? { provider: parseProviderConfig(provider, `${source} /runner/provider`) } : {}),
    ...(catalog ? { catalog } : {}),
  };
}

/** Reads and validates a configuration file. Throws a `ConfigError` naming the file and fields. */
export function loadPipelineConfig(path: string): PipelineConfig {
  const file = resolve(path);
  return parsePipelineConfig(readConfigData(file, file) ?? {}, file, dirname(file));
}

/** What {@link pipelineFromConfig} builds: close the provider at shutdown. */
export interface ConfiguredPipeline {
  readonly pipeline: Pipeline;
  readonly provider: ConfiguredProvider;
}

/**
 * Builds the provider and the pipeline a configuration describes. Throws a `ConfigError` saying
 * what to add when the configuration names no provider.
 */
export function pipelineFromConfig(
  config: PipelineConfig,
  options: CreateProviderOptions & {
    readonly localStages?: Readonly<Record<string, LocalStage | null>>;
  } = {},
): ConfiguredPipeline {
  if (!config.provider) {
    throw new ConfigError(config.source, [
      {
        path: '/runner/provider',
        message:
          'no LLM is configured: add a provider, e.g. {"kind": "ollama", "id": "local", "model": "qwen3:1.7b"} ' +
          '(see docs/pipeline.md and docs/llm-providers.md)',
      },
    ]);
  }
  const provider = createProvider(config.provider, {
    source: `${config.source} /runner/provider`,
    ...options,
  });
  try {
    const pipeline = createPipeline({
      provider,
      settings: config.settings,
      source: config.source,
      ...(config.catalog ? { catalog: config.catalog } : {}),
      ...(options.localStages ? { localStages: options.localStages } : {}),
    });
    return { pipeline, provider };
  } catch (error) {
    void provider.close();
    throw error;
  }
}
