import Type, { type Static } from 'typebox';
import { ConfigError, type ConfigIssue } from '../core/errors.js';
import { compileConfig } from '../core/validate.js';
import { anthropicWire } from './anthropic.js';
import { withCache } from './cache.js';
import { HttpProvider, type HttpProviderStats } from './http-provider.js';
import { withConcurrencyLimit } from './limit.js';
import { ollamaWire } from './ollama.js';
import { openAiWire } from './openai.js';
import type { LlmProvider } from './types.js';
import { defined, type WireAdapter } from './wire.js';

/** The base URL used when a provider configuration names none. */
export const DEFAULT_BASE_URLS = Object.freeze({
  openai: 'https://api.openai.com/v1',
  anthropic: 'https://api.anthropic.com',
  ollama: 'http://127.0.0.1:11434',
});

/**
 * One LLM provider, as written in a configuration file. Secrets never appear here: `apiKeyEnv`
 * names the environment variable that holds the key. Embed this schema in a larger configuration
 * (e.g. `Type.Array(ProviderConfigSchema)`) and build each entry with {@link createProvider}.
 */
export const ProviderConfigSchema = Type.Object(
  {
    /** Names the provider in cache keys, errors and metrics. */
    id: Type.String({ minLength: 1, maxLength: 100 }),
    /** The wire format: `openai` (any OpenAI-compatible server), `anthropic`, `ollama` (native). */
    kind: Type.Union([Type.Literal('openai'), Type.Literal('anthropic'), Type.Literal('ollama')]),
    /** Default: {@link DEFAULT_BASE_URLS} for the kind. */
    baseUrl: Type.Optional(Type.String({ pattern: '^https?://[^\\s]+$' })),
    /** The default model. */
    model: Type.String({ minLength: 1 }),
    /** The environment variable holding the API key (e.g. `OPENAI_API_KEY`). */
    apiKeyEnv: Type.Optional(Type.String({ pattern: '^[A-Za-z_][A-Za-z0-9_]*$' })),
    /** Time limit of a call in milliseconds, retries included. */
    timeoutMs: Type.Integer({ minimum: 1, maximum: 600_000, default: 10_000 }),
    /** Retries of retriable failures (connection errors, 408, 429, 5xx). */
    maxRetries: Type.Integer({ minimum: 0, maximum: 10, default: 2 }),
    /** First retry backoff in milliseconds (doubles each retry, with jitter). */
    retryBaseMs: Type.Integer({ minimum: 1, maximum: 60_000, default: 200 }),
    /** Longest retry backoff in milliseconds. */
    retryMaxMs: Type.Integer({ minimum: 1, maximum: 600_000, default: 2_000 }),
    /** Most calls in flight at once; further calls wait (within their time limit). */
    maxConcurrency: Type.Integer({ minimum: 1, maximum: 1024, default: 8 }),
    /** A decision cache of answers (LRU with TTL); absent = no cache. */
    cache: Type.Optional(
      Type.Object(
        {
          max: Type.Integer({ minimum: 1, default: 10_000 }),
          ttlMs: Type.Integer({ minimum: 1, default: 600_000 }),
        },
        { additionalProperties: false },
      ),
    ),
    /** Extra request headers, not secrets (e.g. OpenRouter's `HTTP-Referer`, `X-Title`). */
    headers: Type.Optional(Type.Record(Type.String(), Type.String())),
    /** Largest response body accepted, in bytes. */
    maxResponseBytes: Type.Integer({ minimum: 1024, default: 4 * 1024 * 1024 }),
    /** kind `openai` only: how structured output is asked for. */
    structuredOutput: Type.Optional(
      Type.Union([
        Type.Literal('json_schema'),
        Type.Literal('json_object'),
        Type.Literal('prompt'),
      ]),
    ),
    /** kind `openai` only: `strict: true` on JSON schemas (OpenAI's strict mode). */
    strictSchema: Type.Optional(Type.Boolean()),
    /**
     * kind `ollama` only: Ollama's model `options` sent with every call (`num_ctx`, `top_p`,
     * `top_k`, `repeat_penalty`, …); a call's own temperature, seed and token limit win.
     */
    options: Type.Optional(Type.Record(Type.String({ minLength: 1 }), Type.Unknown())),
    /** kind `openai` only: the token-limit field (`max_completion_tokens` for newer OpenAI models). */
    maxTokensField: Type.Optional(
      Type.Union([Type.Literal('max_tokens'), Type.Literal('max_completion_tokens')]),
    ),
  },
  { additionalProperties: false },
);

/** A validated provider configuration, defaults filled in. */
export type ProviderConfig = Static<typeof ProviderConfigSchema>;

/** A provider configuration as written: `id`, `kind` and `model`; every field with a default optional. */
export type ProviderConfigInput = Pick<ProviderConfig, 'id' | 'kind' | 'model'> &
  Partial<Omit<ProviderConfig, 'id' | 'kind' | 'model'>>;

const validateProviderConfig = compileConfig(ProviderConfigSchema, 'LLM provider config');

/** Headers that carry credentials: a configuration file must not hold them. */
const SECRET_HEADERS = new Set(['authorization', 'proxy-authorization', 'x-api-key', 'api-key']);
const OPENAI_ONLY = ['structuredOutput', 'strictSchema', 'maxTokensField'] as const;

/**
 * Validates a provider configuration (from a file, or an object), fills in defaults, and checks
 * what the schema cannot: no credentials in `headers`, OpenAI-only options only on kind `openai`.
 * Throws a {@link ConfigError} naming `source` and every bad field.
 */
export function parseProviderConfig(
  value: unknown,
  source = 'LLM provider config',
): ProviderConfig {
  const config = validateProviderConfig(value, source);
  const issues: ConfigIssue[] = [];
  for (const name of Object.keys(config.headers ?? {})) {
    if (SECRET_HEADERS.has(name.toLowerCase())) {
      issues.push({
        path: `/headers/${name}`,
        message: 'must not hold a credential: name the environment variable in apiKeyEnv',
      });
    }
  }
  if (config.kind !== 'ollama' && config.options !== undefined) {
    issues.push({ path: '/options', message: 'applies to kind ollama only' });
  }
  if (config.kind !== 'openai') {
    for (const option of OPENAI_ONLY) {
      if (config[option] !== undefined) {
        issues.push({ path: `/${option}`, message: `applies to kind openai only` });
      }
    }
  }
  if (issues.length > 0) throw new ConfigError(source, issues);
  return config;
}

/** Options of {@link createProvider}. */
export interface CreateProviderOptions {
  /** Where API keys are read. Default `process.env`. */
  readonly env?: Readonly<Record<string, string | undefined>>;
  /** Source of retry jitter in [0, 1). Default `Math.random`. */
  readonly random?: () => number;
  /** Names the configuration in errors (e.g. a file path). */
  readonly source?: string;
}

/** Counters of a configured provider, for metrics. */
export interface ConfiguredProviderStats extends HttpProviderStats {
  /** Calls running now, and calls waiting for a concurrency slot. */
  active: number;
  pending: number;
  /** Answers served from the decision cache, and requests it could not answer (0 without one). */
  cacheHits: number;
  cacheMisses: number;
}

/** A provider built from configuration: close it to release its connections. */
export interface ConfiguredProvider extends LlmProvider {
  readonly timeoutMs: number;
  /** The validated configuration (it holds no secrets). */
  readonly config: ProviderConfig;
  /** A snapshot of the counters. */
  readonly stats: ConfiguredProviderStats;
  close(): Promise<void>;
}

/**
 * The one way to build a provider from configuration: validates it ({@link parseProviderConfig}),
 * reads the API key from the environment variable `apiKeyEnv` names, and composes the HTTP
 * adapter for the kind with a concurrency limit (`maxConcurrency`) and, when `cache` is set, a
 * decision cache in front. Throws a {@link ConfigError} when the configuration is invalid or the
 * key's variable is unset (the variable is named; its value never appears in an error).
 */
export function createProvider(
  value: unknown,
  options: CreateProviderOptions = {},
): ConfiguredProvider {
  const source = options.source ?? 'LLM provider config';
  const config = parseProviderConfig(value, source);
  let apiKey: string | undefined;
  if (config.apiKeyEnv !== undefined) {
    apiKey = (options.env ?? process.env)[config.apiKeyEnv];
    if (!apiKey) {
      throw new ConfigError(source, [
        { path: '/apiKeyEnv', message: `environment variable ${config.apiKeyEnv} is not set` },
      ]);
    }
  }
  const http = new HttpProvider({
    id: config.id,
    baseUrl: config.baseUrl ?? DEFAULT_BASE_URLS[config.kind],
    model: config.model,
    wire: wireFor(config),
    ...defined('apiKey', apiKey),
    ...defined('headers', config.headers),
    timeoutMs: config.timeoutMs,
    retry: {
      maxRetries: config.maxRetries,
      baseMs: config.retryBaseMs,
      maxMs: config.retryMaxMs,
      ...defined('random', options.random),
    },
    connections: config.maxConcurrency,
    maxResponseBytes: config.maxResponseBytes,
  });
  const limited = withConcurrencyLimit(http, config.maxConcurrency);
  const cached = config.cache ? withCache(limited, config.cache) : undefined;
  const provider = cached ?? limited;
  return {
    id: provider.id,
    model: provider.model,
    timeoutMs: config.timeoutMs,
    config,
    get stats(): ConfiguredProviderStats {
      const cache = cached?.cacheStats;
      return {
        ...http.stats,
        active: limited.activeCount,
        pending: limited.pendingCount,
        cacheHits: cache?.hits ?? 0,
        cacheMisses: cache?.misses ?? 0,
      };
    },
    complete: (request) => provider.complete(request),
    close: async () => {
      await provider.close?.();
    },
  };
}

/**
 * A provider built from configuration, or why there is none: the environment variable its key is
 * read from is unset. The original design degrades there ("no API key for classifier model: skips the
 * LLM"), so the LLM checks run without it instead of the program refusing to start.
 */
export type ProviderOrDisabled =
  | { readonly provider: ConfiguredProvider; readonly disabled?: undefined }
  | { readonly provider?: undefined; readonly disabled: string };

/**
 * {@link createProvider}, except that a key variable that is unset gives no provider and the
 * reason (`environment variable OPENAI_API_KEY is not set: the LLM check is off`) instead of an
 * error. An invalid configuration still throws a {@link ConfigError}.
 */
export function createProviderIfKeyed(
  value: unknown,
  options: CreateProviderOptions = {},
): ProviderOrDisabled {
  const config = parseProviderConfig(value, options.source ?? 'LLM provider config');
  const variable = config.apiKeyEnv;
  if (variable !== undefined && !(options.env ?? process.env)[variable]) {
    return {
      disabled: `environment variable ${variable} is not set: the LLM check of provider '${config.id}' is off until it is`,
    };
  }
  return { provider: createProvider(config, options) };
}

function wireFor(config: ProviderConfig): WireAdapter {
  switch (config.kind) {
    case 'anthropic':
      return anthropicWire();
    case 'ollama':
      return ollamaWire(config.options);
    case 'openai':
      return openAiWire({
        ...defined('structuredOutput', config.structuredOutput),
        ...defined('strictSchema', config.strictSchema),
        ...defined('maxTokensField', config.maxTokensField),
      });
  }
}
