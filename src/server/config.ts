import Type, { type Static } from 'typebox';
import { contextRouterConfig } from '../context/config.js';
import { ConfigError, type ConfigIssue } from '../core/errors.js';
import { compileConfig } from '../core/validate.js';
import { type InjectionConfigInput, injectionConfig } from '../injection/config.js';
import { InjectionGuardConfigSchema } from '../injection/guard.js';
import { ProviderConfigSchema } from '../llm/config.js';
import { compileForcedModels } from '../tier/forced.js';
import { type TierOptions, type TierOptionsInput, tierOptions } from '../tier/options.js';
import { TIERS, type Tier } from '../tier/tiers.js';

/**
 * The routing server's configuration (a YAML or JSON file, see docs/server.md). Secrets never
 * appear in it: provider keys and client keys are read from the environment variables it names.
 */

const ENV_NAME = '^[A-Za-z_][A-Za-z0-9_]*$';

/** Default port of `triage serve`. */
export const DEFAULT_PORT = 4100;

/** An OpenAI-compatible upstream (OpenAI, vLLM, OpenRouter, Ollama `/v1`, LM Studio, …). */
export const UpstreamProviderSchema = Type.Object(
  {
    /** Base URL of the OpenAI-compatible API, up to and including `/v1`. */
    baseUrl: Type.String({ pattern: '^https?://[^\\s]+$' }),
    /** The environment variable holding the API key, sent as `Authorization: Bearer`. */
    apiKeyEnv: Type.Optional(Type.String({ pattern: ENV_NAME })),
    /** Extra request headers, not secrets (e.g. OpenRouter's `HTTP-Referer`). */
    headers: Type.Optional(Type.Record(Type.String(), Type.String())),
    /**
     * Longest wait, in milliseconds, from sending a request to the first byte that can go to the
     * client (the whole body of a non-streamed answer, the first event of a stream). Past it the
     * next model is tried.
     */
    timeoutMs: Type.Integer({ minimum: 1, maximum: 3_600_000, default: 120_000 }),
    /** Longest silence, in milliseconds, once a streamed answer has started. */
    idleTimeoutMs: Type.Integer({ minimum: 1, maximum: 3_600_000, default: 60_000 }),
    /** Longest wait for a TCP (and TLS) connection, in milliseconds. */
    connectTimeoutMs: Type.Integer({ minimum: 1, maximum: 600_000, default: 5_000 }),
    /** Most connections kept to this upstream's origin; absent = no limit. */
    maxConnections: Type.Optional(Type.Integer({ minimum: 1, maximum: 100_000 })),
  },
  { additionalProperties: false },
);

/** One model of a tier: `provider/model`, or an object that may override the timeout. */
export const UpstreamModelSchema = Type.Union([
  Type.String({ pattern: '^[^/\\s]+/\\S+$' }),
  Type.Object(
    {
      provider: Type.String({ minLength: 1 }),
      model: Type.String({ minLength: 1 }),
      timeoutMs: Type.Optional(Type.Integer({ minimum: 1, maximum: 3_600_000 })),
    },
    { additionalProperties: false },
  ),
]);

const TierModels = Type.Optional(Type.Array(UpstreamModelSchema));

/** The ordered upstream models of each tier. */
export const TiersSchema = Type.Object(
  { SIMPLE: TierModels, MEDIUM: TierModels, COMPLEX: TierModels, REASONING: TierModels },
  { additionalProperties: false, default: {} },
);

/** Listening, limits, client keys, headers and logs. */
export const ServerOptionsSchema = Type.Object(
  {
    /** Interface to listen on. Default loopback only. */
    host: Type.String({ minLength: 1, default: '127.0.0.1' }),
    port: Type.Integer({ minimum: 0, maximum: 65_535, default: DEFAULT_PORT }),
    /** Largest request body accepted, in bytes (larger: 413). Default 10 MiB. */
    bodyLimitBytes: Type.Integer({ minimum: 1024, maximum: 1024 ** 3, default: 10 * 1024 ** 2 }),
    /**
     * Longest time to receive a whole request (headers and body), in milliseconds; a slower
     * client gets 408. Guards against clients that open requests and never finish them.
     */
    requestTimeoutMs: Type.Integer({ minimum: 1, maximum: 3_600_000, default: 60_000 }),
    /** Send `x-triage-tier`, `-model`, `-confidence` and `-source` on chat responses. */
    decisionHeaders: Type.Boolean({ default: true }),
    /** A model id that is neither routed nor configured: `reject` (404) or `route` it as `auto`. */
    unknownModel: Type.Union([Type.Literal('reject'), Type.Literal('route')], {
      default: 'reject',
    }),
    /** Bearer keys clients must send; absent = no key needed (loopback use). */
    auth: Type.Optional(
      Type.Object(
        {
          /** An environment variable holding client keys, comma-separated. */
          keysEnv: Type.Optional(Type.String({ pattern: ENV_NAME })),
          /** Client keys written in the file (prefer `keysEnv`). */
          keys: Type.Optional(Type.Array(Type.String({ minLength: 8 }))),
        },
        { additionalProperties: false },
      ),
    ),
    log: Type.Object(
      {
        level: Type.Union(
          ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'].map((l) =>
            Type.Literal(l),
          ),
          { default: 'info' },
        ),
        /** Log the last user message of each request. Off by default: prompts are private. */
        prompts: Type.Boolean({ default: false }),
      },
      { additionalProperties: false, default: {} },
    ),
  },
  { additionalProperties: false, default: {} },
);

/** What the server does about prompt injections (docs/injection.md for the detector). */
export const InjectionSectionSchema = Type.Object(
  {
    /**
     * Chat completions: `off` (not scanned), `flag` (answered, with an `x-triage-injection`
     * header and a metric) or `block` (refused: 403 with the reason). `POST /v1/route` reports the
     * risk whatever the policy.
     */
    policy: Type.Union([Type.Literal('off'), Type.Literal('flag'), Type.Literal('block')], {
      default: 'off',
    }),
    /** The risk level from which the policy acts. */
    minLevel: Type.Union([Type.Literal('suspicious'), Type.Literal('high_risk')], {
      default: 'high_risk',
    }),
    /** The detector's configuration (preset, thresholds, patterns): docs/injection.md. */
    detector: Type.Optional(Type.Unknown()),
    /** The LLM check's settings (minConfidence, timeoutMs, …); the LLM is the `llm` section. */
    guard: Type.Optional(Type.Unknown()),
  },
  { additionalProperties: false, default: {} },
);

/** The injection section, validated. */
export type InjectionSection = Static<typeof InjectionSectionSchema>;

const validateGuard = compileConfig(InjectionGuardConfigSchema, 'injection guard');

/** The whole configuration file. */
export const ServerConfigSchema = Type.Object(
  {
    server: ServerOptionsSchema,
    /** Upstreams by name; tiers refer to them as `name/model`. */
    providers: Type.Record(Type.String({ pattern: '^[^/\\s]+$' }), UpstreamProviderSchema, {
      default: {},
    }),
    tiers: TiersSchema,
    /**
     * The cheap LLM asked when a local classifier is unsure (docs/llm-providers.md). Absent: the
     * LLM checks are off and every decision is local.
     */
    llm: Type.Optional(ProviderConfigSchema),
    /**
     * The tier router's options (docs/tier.md): weights, boundaries, keywords, forced model ids,
     * the fallback chain, the LLM check's timeout and cache. Absent: the defaults.
     */
    tier: Type.Optional(Type.Unknown()),
    /**
     * The context-policy router's configuration (docs/context.md), for `POST /v1/route`; `false`
     * leaves it out. Absent: the defaults.
     */
    context: Type.Optional(Type.Unknown()),
    injection: InjectionSectionSchema,
  },
  { additionalProperties: false },
);

/** A validated configuration, defaults filled in (it holds no secrets). */
export type ServerConfig = Static<typeof ServerConfigSchema>;
/** A provider section of the configuration. */
export type UpstreamProviderConfig = Static<typeof UpstreamProviderSchema>;

/** An upstream model of a tier, resolved: its provider's settings and its own timeout. */
export interface TierModel {
  readonly provider: string;
  readonly model: string;
  /** `provider/model`: names it in headers, metrics and logs. */
  readonly id: string;
  readonly timeoutMs: number;
}

const validate = compileConfig(ServerConfigSchema, 'server config');

/** Headers that carry credentials: a configuration file must not hold them. */
const SECRET_HEADERS = new Set(['authorization', 'proxy-authorization', 'x-api-key', 'api-key']);

/**
 * Validates a configuration (parsed from a file, or built in code), fills in defaults, and checks
 * what the schema cannot: tiers name known providers, no credentials in headers, environment
 * variables named for keys are set. Throws a {@link ConfigError} naming `source` and every bad
 * field by path.
 */
export function parseServerConfig(
  value: unknown,
  options: { source?: string; env?: Readonly<Record<string, string | undefined>> } = {},
): ServerConfig {
  const source = options.source ?? 'server config';
  const env = options.env ?? process.env;
  const config = validate(value ?? {}, source);
  const issues: ConfigIssue[] = [];
  let tier: TierOptions | undefined;
  issues.push(
    ...nestedIssues('/tier', () => {
      tier = tierOptionsOf(config);
    }),
  );
  const reserved = tier ? reservedModelIds(tier) : () => false;
  for (const [name, provider] of Object.entries(config.providers)) {
    const at = `/providers/${name}`;
    try {
      new URL(provider.baseUrl);
    } catch {
      issues.push({ path: `${at}/baseUrl`, message: 'is not a valid URL' });
    }
    for (const header of Object.keys(provider.headers ?? {})) {
      if (SECRET_HEADERS.has(header.toLowerCase())) {
        issues.push({
          path: `${at}/headers/${header}`,
          message: 'must not hold a credential: name the environment variable in apiKeyEnv',
        });
      }
    }
    if (provider.apiKeyEnv !== undefined && !env[provider.apiKeyEnv]) {
      issues.push({
        path: `${at}/apiKeyEnv`,
        message: `environment variable ${provider.apiKeyEnv} is not set`,
      });
    }
  }
  for (const tier of TIERS) {
    config.tiers[tier]?.forEach((entry, index) => {
      const at = `/tiers/${tier}/${index}`;
      const { provider, model } = splitEntry(entry);
      if (!Object.hasOwn(config.providers, provider)) {
        const known = Object.keys(config.providers);
        issues.push({
          path: typeof entry === 'string' ? at : `${at}/provider`,
          message: `names provider '${provider}', which is not under providers (${known.length > 0 ? `known: ${known.join(', ')}` : 'none is configured'})`,
        });
      }
      if (reserved(model)) {
        issues.push({ path: at, message: `model id '${model}' is reserved for routing` });
      }
    });
  }
  if (config.llm?.apiKeyEnv !== undefined && !env[config.llm.apiKeyEnv]) {
    issues.push({
      path: '/llm/apiKeyEnv',
      message: `environment variable ${config.llm.apiKeyEnv} is not set`,
    });
  }
  issues.push(...nestedIssues('/context', () => contextConfigOf(config)));
  issues.push(
    ...nestedIssues('/injection/detector', () =>
      injectionConfig((config.injection.detector ?? {}) as InjectionConfigInput, 'detector'),
    ),
    ...nestedIssues('/injection/guard', () =>
      validateGuard(structuredClone(config.injection.guard ?? {})),
    ),
  );
  const keysEnv = config.server.auth?.keysEnv;
  if (keysEnv !== undefined && clientKeysFrom(env[keysEnv]).length === 0) {
    issues.push({
      path: '/server/auth/keysEnv',
      message: `environment variable ${keysEnv} is not set (or holds no key)`,
    });
  }
  if (issues.length > 0) throw new ConfigError(source, issues);
  return config;
}

/** The validated tier-router options of a server configuration. */
export function tierOptionsOf(config: ServerConfig): TierOptions {
  return tierOptions((config.tier ?? {}) as TierOptionsInput, 'tier');
}

/**
 * Model ids the routing answers to (`auto`, `triage/auto`, forced-tier ids): a configured model
 * must not take one, or it could never be reached.
 */
function reservedModelIds(options: TierOptions): (model: string) => boolean {
  const forced = compileForcedModels(options.forcedModels);
  const auto = new Set(
    ['auto', ...options.forcedModels.prefixes.map((prefix) => `${prefix}auto`)].map((id) =>
      id.toLowerCase(),
    ),
  );
  return (model) => auto.has(model.toLowerCase()) || forced(model) !== undefined;
}

/**
 * The validated context-router configuration of a server configuration, `undefined` when it is
 * turned off (`context: false`).
 */
export function contextConfigOf(config: ServerConfig) {
  if (config.context === false) return undefined;
  return contextRouterConfig(config.context ?? {}, 'context');
}

/** The issues of a nested configuration, with their paths under `prefix`. */
function nestedIssues(prefix: string, validate: () => unknown): ConfigIssue[] {
  try {
    validate();
    return [];
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    return error.issues.map((issue) => ({
      path: `${prefix}${issue.path}`,
      message: issue.message,
    }));
  }
}

/** The upstream models of a tier, resolved, in the configured order. */
export function tierModels(config: ServerConfig, tier: Tier): TierModel[] {
  return (config.tiers[tier] ?? []).map((entry) => {
    const { provider, model } = splitEntry(entry);
    const timeoutMs =
      (typeof entry === 'object' ? entry.timeoutMs : undefined) ??
      config.providers[provider]?.timeoutMs ??
      120_000;
    return { provider, model, id: `${provider}/${model}`, timeoutMs };
  });
}

/** The client keys of a configuration: those in the file and those in `keysEnv`. */
export function clientKeys(
  config: ServerConfig,
  env: Readonly<Record<string, string | undefined>> = process.env,
): string[] {
  const auth = config.server.auth;
  if (!auth) return [];
  return [...(auth.keys ?? []), ...clientKeysFrom(auth.keysEnv ? env[auth.keysEnv] : undefined)];
}

function clientKeysFrom(value: string | undefined): string[] {
  return (value ?? '')
    .split(',')
    .map((key) => key.trim())
    .filter((key) => key.length > 0);
}

function splitEntry(entry: string | { provider: string; model: string }): {
  provider: string;
  model: string;
} {
  if (typeof entry !== 'string') return entry;
  const slash = entry.indexOf('/');
  return { provider: entry.slice(0, slash), model: entry.slice(slash + 1) };
}
