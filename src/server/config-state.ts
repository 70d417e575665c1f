import Type, { type Static } from 'typebox';
import type { ConfigIssue } from '../core/errors.js';
import type { RedisLinkOptions } from '../state/redis-link.js';

/**
 * Where the server keeps the state that several instances share (docs/instances.md): in this
 * process's memory (the default, for one instance), or in Redis or Valkey.
 */

const ENV_NAME = '^[A-Za-z_][A-Za-z0-9_]*$';
const REDIS_URL = '^rediss?://\\S+$';

/** The Redis that holds the shared state. */
export const RedisSectionSchema = Type.Object(
  {
    /**
     * `redis://[user:password@]host:port[/db]` (`rediss://` for TLS). A URL holding a password
     * is better read from the environment: `urlEnv`.
     */
    url: Type.Optional(Type.String({ pattern: REDIS_URL })),
    /** The environment variable holding the URL. */
    urlEnv: Type.Optional(Type.String({ pattern: ENV_NAME })),
    /** Put before every key, so that several deployments can share one Redis. */
    keyPrefix: Type.String({ minLength: 1, maxLength: 100, default: 'triage:' }),
    /**
     * Longest wait for one Redis operation, in milliseconds; past it (or while Redis is away) the
     * instance's own memory answers, and the request goes on.
     */
    timeoutMs: Type.Integer({ minimum: 1, maximum: 10_000, default: 50 }),
  },
  { additionalProperties: false },
);

/** The `state` section. */
export const StateSectionSchema = Type.Object(
  {
    /** Shared state in Redis; absent: each instance keeps its own, in memory. */
    redis: Type.Optional(RedisSectionSchema),
  },
  { additionalProperties: false, default: {} },
);

export type StateSection = Static<typeof StateSectionSchema>;

/** The Redis link's options of a configuration, or `undefined` for state in memory. */
export function redisOptionsOf(
  state: StateSection,
  env: Readonly<Record<string, string | undefined>>,
): RedisLinkOptions | undefined {
  const redis = state.redis;
  if (redis === undefined) return undefined;
  const url = redis.urlEnv === undefined ? redis.url : env[redis.urlEnv];
  if (url === undefined) return undefined;
  return { url, keyPrefix: redis.keyPrefix, timeoutMs: redis.timeoutMs };
}

/** What is wrong with a `state` section beyond its schema (read with `env`). */
export function stateIssues(
  state: StateSection,
  env: Readonly<Record<string, string | undefined>>,
): ConfigIssue[] {
  const redis = state.redis;
  if (redis === undefined) return [];
  if ((redis.url === undefined) === (redis.urlEnv === undefined)) {
    return [{ path: '/state/redis', message: 'needs exactly one of url and urlEnv' }];
  }
  if (redis.urlEnv !== undefined) {
    const url = env[redis.urlEnv];
    if (url === undefined || url === '') {
      return [
        {
          path: '/state/redis/urlEnv',
          message: `environment variable ${redis.urlEnv} is not set`,
        },
      ];
    }
    if (!new RegExp(REDIS_URL).test(url)) {
      return [
        {
          path: '/state/redis/urlEnv',
          message: `environment variable ${redis.urlEnv} does not hold a redis:// or rediss:// URL`,
        },
      ];
    }
  }
  return [];
}

/** The password of a Redis URL, if it has one (a secret the logs must never show). */
export function redisPassword(url: string | undefined): string | undefined {
  if (url === undefined) return undefined;
  try {
    const password = new URL(url).password;
    return password === '' ? undefined : decodeURIComponent(password);
  } catch {
    return undefined;
  }
}
