import { describe, expect, it } from 'vitest';
import { ConfigError } from '../core/errors.js';
import { knownKeys, parseServerConfig } from './config.js';
import { redisOptionsOf } from './config-state.js';

function issuesOf(value: unknown, env: Record<string, string> = {}): string[] {
  try {
    parseServerConfig(value, { env });
  } catch (error) {
    if (error instanceof ConfigError) return error.issues.map((i) => `${i.path} ${i.message}`);
    throw error;
  }
  return [];
}

describe('the state section', () => {
  it('keeps state in memory by default', () => {
    const config = parseServerConfig({});
    expect(config.state).toEqual({});
    expect(redisOptionsOf(config.state, {})).toBeUndefined();
  });

  it('reads the Redis URL from the file or from the variable it names, with defaults', () => {
    const inFile = parseServerConfig({ state: { redis: { url: 'redis://127.0.0.1:6379' } } });
    expect(redisOptionsOf(inFile.state, {})).toEqual({
      url: 'redis://127.0.0.1:6379',
      keyPrefix: 'triage:',
      timeoutMs: 50,
    });
    const env = { REDIS_URL: 'rediss://:pw@cache.internal:6380/2' };
    const fromEnv = parseServerConfig(
      { state: { redis: { urlEnv: 'REDIS_URL', keyPrefix: 'prod:', timeoutMs: 20 } } },
      { env },
    );
    expect(redisOptionsOf(fromEnv.state, env)).toEqual({
      url: 'rediss://:pw@cache.internal:6380/2',
      keyPrefix: 'prod:',
      timeoutMs: 20,
    });
  });

  it('names the field of every mistake', () => {
    expect(issuesOf({ state: { redis: {} } })).toEqual([
      '/state/redis needs exactly one of url and urlEnv',
    ]);
    expect(
      issuesOf(
        { state: { redis: { url: 'redis://a:1', urlEnv: 'REDIS_URL' } } },
        { REDIS_URL: 'redis://b:2' },
      ),
    ).toEqual(['/state/redis needs exactly one of url and urlEnv']);
    expect(issuesOf({ state: { redis: { urlEnv: 'REDIS_URL' } } })).toEqual([
      '/state/redis/urlEnv environment variable REDIS_URL is not set',
    ]);
    expect(
      issuesOf({ state: { redis: { urlEnv: 'REDIS_URL' } } }, { REDIS_URL: 'http://x' }),
    ).toEqual([
      '/state/redis/urlEnv environment variable REDIS_URL does not hold a redis:// or rediss:// URL',
    ]);
    expect(issuesOf({ state: { redis: { url: 'http://x' } } }).join()).toMatch(
      /\/state\/redis\/url/,
    );
    expect(issuesOf({ state: { redis: { url: 'redis://x', db: 1 } } }).join()).toMatch(/db/);
    expect(issuesOf({ state: { memcached: {} } }).join()).toMatch(/memcached/);
  });

  it('treats the password of a Redis URL as a secret the logs must hide', () => {
    const env = { REDIS_URL: 'redis://user:s3cr%40t@cache:6379' };
    const config = parseServerConfig({ state: { redis: { urlEnv: 'REDIS_URL' } } }, { env });
    expect(knownKeys(config, env)).toEqual(expect.arrayContaining(['s3cr@t', env.REDIS_URL]));
  });
});
