import Type from 'typebox';
import { ConfigError } from '../core/errors.js';
import { compileConfig } from '../core/validate.js';
import { IDENTIFIER_PATTERN } from './manifest.js';
import { withoutDeprecatedNames } from './settings.js';

/**
 * open-classify's configuration file, read as it is: its `ollama` section (`defaultModel`,
 * `options`, `models`) becomes the runner's Ollama provider and per-classifier models, and its
 * deprecated `aggregator.confidenceThreshold` is read as `certaintyThreshold` (with a
 * deprecation warning). The rest of the file is triage's own pipeline configuration.
 */

/** open-classify's `ollama` section. */
export const OllamaSectionSchema = Type.Object(
  {
    /** Where Ollama listens. Default: `OLLAMA_HOST`, else `http://127.0.0.1:11434`. */
    baseUrl: Type.Optional(Type.String({ pattern: '^https?://[^\\s]+$' })),
    /** The same, under the name Ollama's own client gives it. */
    host: Type.Optional(Type.String({ pattern: '^https?://[^\\s]+$' })),
    /** The model of every classifier that `models` does not name. */
    defaultModel: Type.String({ minLength: 1 }),
    /**
     * Ollama's model options, sent with every call (`num_ctx`, `top_p`, …); `temperature`, `seed`
     * and `num_predict` also set the runner's temperature, seed and token limit.
     */
    options: Type.Optional(Type.Record(Type.String({ minLength: 1 }), Type.Unknown())),
    /** The model of each classifier, by name. */
    models: Type.Optional(
      Type.Record(Type.String({ pattern: IDENTIFIER_PATTERN }), Type.String({ minLength: 1 })),
    ),
  },
  { additionalProperties: false },
);

const validateOllama = compileConfig(OllamaSectionSchema, 'ollama section');

/** The id of the provider an `ollama` section becomes. */
export const OPEN_CLASSIFY_PROVIDER_ID = 'ollama';

/**
 * A pipeline configuration with open-classify's names turned into triage's: `ollama` into
 * `runner.provider` (kind `ollama`), `runner.models`, and the runner's temperature, seed and
 * token limit where the runner does not set them; `aggregator.confidenceThreshold` into
 * `certaintyThreshold`. Anything else is left for the pipeline's schema to judge.
 */
export function fromOpenClassifyConfig(
  value: unknown,
  source: string,
  env: Readonly<Record<string, string | undefined>> = process.env,
): unknown {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return value;
  let config = structuredClone(value) as Record<string, unknown>;
  config = withoutDeprecatedNames(config, source) as Record<string, unknown>;
  if (!('ollama' in config)) return config;
  const { ollama: raw, ...rest } = config;
  const ollama = validateOllama(raw, `${source} /ollama`);
  const runner = (isObject(rest.runner) ? rest.runner : {}) as Record<string, unknown>;
  if (runner.provider !== undefined) {
    throw new ConfigError(source, [
      { path: '/ollama', message: 'names a second LLM beside runner.provider: keep one of them' },
    ]);
  }
  const options = ollama.options ?? {};
  const baseUrl = ollama.baseUrl ?? ollama.host ?? ollamaHost(env.OLLAMA_HOST);
  return {
    ...rest,
    runner: {
      ...runner,
      provider: {
        id: OPEN_CLASSIFY_PROVIDER_ID,
        kind: 'ollama',
        model: ollama.defaultModel,
        ...(baseUrl === undefined ? {} : { baseUrl }),
        ...(Object.keys(options).length > 0 ? { options } : {}),
      },
      models: { ...ollama.models, ...(isObject(runner.models) ? runner.models : {}) },
      ...runnerSetting(runner, 'temperature', options.temperature),
      ...runnerSetting(runner, 'seed', options.seed),
      ...runnerSetting(runner, 'maxTokens', options.num_predict),
    },
  };
}

/** `{[name]: value}` when the runner does not set `name` itself and `value` is given. */
function runnerSetting(runner: Record<string, unknown>, name: string, value: unknown) {
  return runner[name] !== undefined || value === undefined ? {} : { [name]: value };
}

/**
 * Ollama's own `OLLAMA_HOST` (`127.0.0.1:11434`, `http://gpu-box:11434`), as its clients read it
 * when nothing else names the server; a value without a scheme is `http://`.
 */
function ollamaHost(value: string | undefined): string | undefined {
  const host = value?.trim();
  if (!host) return undefined;
  return /^https?:\/\//.test(host) ? host : `http://${host}`;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
