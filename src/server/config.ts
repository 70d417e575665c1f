import { contextRouterConfig } from '../context/config.js';
import { ConfigError, type ConfigIssue } from '../core/errors.js';
import { compileConfig } from '../core/validate.js';
import { type InjectionConfigInput, injectionConfig } from '../injection/config.js';
import { InjectionGuardConfigSchema } from '../injection/guard.js';
import { compileForcedModels } from '../tier/forced.js';
import { type TierOptions, type TierOptionsInput, tierOptions } from '../tier/options.js';
import { TIERS, type Tier } from '../tier/tiers.js';
import { costIssues } from './config-costs.js';
import { forwardedIssues } from './config-endpoints.js';
import { type ServerConfig, ServerConfigSchema } from './config-schema.js';
import { redisPassword, stateIssues } from './config-state.js';

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
 * variables named for upstream and client keys are set (the `llm` section's may be unset: the
 * LLM check is then off). Throws a {@link ConfigError} naming `source` and every bad
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
    issues.push(...headerValueIssues(at, name, MODEL_HEADER));
    issues.push(...baseUrlIssues(`${at}/baseUrl`, provider.baseUrl));
    for (const [header, value] of Object.entries(provider.headers ?? {})) {
      const path = `${at}/headers/${header}`;
      if (!HEADER_NAME.test(header)) {
        issues.push({ path, message: 'is not a valid header name' });
      } else if (SECRET_HEADERS.has(header.toLowerCase())) {
        issues.push({
          path,
          message: 'must not hold a credential: name the environment variable in apiKeyEnv',
        });
      } else issues.push(...headerValueIssues(path, value, 'a header value'));
    }
    if (provider.apiKeyEnv !== undefined && !env[provider.apiKeyEnv]) {
      issues.push({
        path: `${at}/apiKeyEnv`,
        message: `environment variable ${provider.apiKeyEnv} is not set`,
      });
    }
  }
  for (const tier of TIERS) {
    const listed = new Map<string, string>();
    config.tiers[tier]?.forEach((entry, index) => {
      const at = `/tiers/${tier}/${index}`;
      const { provider, model } = splitEntry(entry);
      issues.push(
        ...headerValueIssues(typeof entry === 'string' ? at : `${at}/model`, model, MODEL_HEADER),
      );
      const id = `${provider}/${model}`;
      const first = listed.get(id);
      if (first !== undefined) {
        issues.push({ path: at, message: `names ${id}, already listed at ${first}` });
      } else listed.set(id, at);
      const timeoutMs =
        (typeof entry === 'object' ? entry.timeoutMs : undefined) ??
        config.providers[provider]?.timeoutMs;
      if (timeoutMs !== undefined && timeoutMs > config.server.deadlineMs) {
        issues.push({
          path: typeof entry === 'object' && entry.timeoutMs !== undefined ? `${at}/timeoutMs` : at,
          message: `has a timeout (${timeoutMs} ms) longer than server.deadlineMs (${config.server.deadlineMs} ms): raise the deadline or lower the timeout`,
        });
      }
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
  // An unset key variable of the `llm` section is not an error: the server starts with the LLM
  // check off and says so (server/llm-check.ts). An upstream's is: no request could reach it.
  issues.push(
    ...costIssues(config.costs),
    ...forwardedIssues(config),
    ...stateIssues(config.state, env),
  );
  issues.push(...nestedIssues('/context', () => contextConfigOf(config)));
  issues.push(
    ...nestedIssues('/injection/detector', () =>
      injectionConfig((config.injection.detector ?? {}) as InjectionConfigInput, 'detector'),
    ),
    ...nestedIssues('/injection/guard', () =>
      validateGuard(structuredClone(config.injection.guard ?? {})),
    ),
  );
  const adminKeysEnv = config.server.admin.keysEnv;
  if (adminKeysEnv !== undefined && clientKeysFrom(env[adminKeysEnv]).length === 0) {
    issues.push({
      path: '/server/admin/keysEnv',
      message: `environment variable ${adminKeysEnv} is not set (or holds no key)`,
    });
  }
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

/** A header name: an HTTP token (RFC 9110 §5.6.2). */
const HEADER_NAME = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;

/** Provider names and model ids are sent in the `x-triage-model` response header. */
const MODEL_HEADER = 'it is sent in the x-triage-model header';

/**
 * What keeps `value` from being sent in an HTTP header: control characters (CR and LF would split
 * the header; Node refuses them all) and characters beyond Latin-1. Checked at load: otherwise
 * every request naming it fails while its answer is sent.
 */
function headerValueIssues(path: string, value: string, where: string): ConfigIssue[] {
  if (/[\u0000-\u0008\u000a-\u001f\u007f-\u009f]/.test(value)) {
    return [{ path, message: 'must not contain control characters' }];
  }
  if (/[^\u0000-\u00ff]/.test(value)) {
    return [{ path, message: `must hold only Latin-1 characters (${where})` }];
  }
  return [];
}

/** What is wrong with a provider's `baseUrl` beyond the schema's pattern. */
function baseUrlIssues(path: string, baseUrl: string): ConfigIssue[] {
  let url: URL;
  try {
    url = new URL(baseUrl);
  } catch {
    return [{ path, message: 'is not a valid URL' }];
  }
  const issues: ConfigIssue[] = [];
  if (url.username !== '' || url.password !== '') {
    issues.push({
      path,
      message:
        'must not hold credentials (user:password@): name the environment variable of the key in apiKeyEnv',
    });
  }
  if (url.search !== '') {
    issues.push({
      path,
      message:
        'must not have a query string (?…): requests go to <baseUrl>/chat/completions, which would drop it',
    });
  }
  if (url.hash !== '') issues.push({ path, message: 'must not have a fragment (#…)' });
  return issues;
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

/** The admin keys of a configuration: those in the file and those in `keysEnv`. */
export function adminKeys(
  config: ServerConfig,
  env: Readonly<Record<string, string | undefined>> = process.env,
): string[] {
  const { admin } = config.server;
  return [...(admin.keys ?? []), ...clientKeysFrom(admin.keysEnv ? env[admin.keysEnv] : undefined)];
}

/**
 * Every key the server knows (upstream keys, the classifier LLM's, client and admin keys), for
 * redaction:
 * none of them may leave in an answer, a header or a log line.
 */
export function knownKeys(
  config: ServerConfig,
  env: Readonly<Record<string, string | undefined>> = process.env,
): string[] {
  const named = [
    ...Object.values(config.providers).map((provider) => provider.apiKeyEnv),
    config.llm?.apiKeyEnv,
  ];
  const keys = named.flatMap((name) => (name === undefined ? [] : [env[name]]));
  const redisUrl = config.state.redis?.urlEnv
    ? env[config.state.redis.urlEnv]
    : config.state.redis?.url;
  const redisSecret = redisPassword(redisUrl);
  return [
    ...keys.filter((key): key is string => key !== undefined),
    ...(redisSecret === undefined ? [] : [redisSecret, redisUrl!]),
    ...clientKeys(config, env),
    ...adminKeys(config, env),
  ];
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
