import { contextRouterConfig } from '../context/config.js';
import { ConfigError, type ConfigIssue } from '../core/errors.js';
import { compileConfig } from '../core/validate.js';
import { type InjectionConfigInput, injectionConfig } from '../injection/config.js';
import { InjectionGuardConfigSchema } from '../injection/guard.js';
import { compileForcedModels } from '../tier/forced.js';
import { type TierOptions, type TierOptionsInput, tierOptions } from '../tier/options.js';
import { TIERS, type Tier } from '../tier/tiers.js';
import { type ServerConfig, ServerConfigSchema } from './config-schema.js';

/**
 * Validation of the routing server's configuration beyond its schema (`config-schema.ts`), and
 * what the server reads from it: tier models, client keys, the sections of its classifiers.
 */

export {
  DEFAULT_PORT,
  type InjectionSection,
  type ServerConfig,
  ServerConfigSchema,
  type UpstreamProviderConfig,
  UpstreamProviderSchema,
} from './config-schema.js';

const validateGuard = compileConfig(InjectionGuardConfigSchema, 'injection guard');

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
