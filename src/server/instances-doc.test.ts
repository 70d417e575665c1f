import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { parseServerConfig } from './config.js';
import { redisOptionsOf } from './config-state.js';

/** The configurations docs/instances.md shows are valid, and mean what the guide says. */
const guide = readFileSync(new URL('../../docs/instances.md', import.meta.url), 'utf8');
const blocks = [...guide.matchAll(/```yaml\n([\s\S]*?)```/g)].map((m) => parse(m[1]!) as object);

const env = {
  TRIAGE_REDIS_URL: 'redis://:s3cret@redis.internal:6379/0',
  TRIAGE_CLIENT_KEYS: 'client-key-one',
  OPENAI_API_KEY: 'sk-test',
};

describe('docs/instances.md', () => {
  it('shows a state section, the breaker settings and a worked example that parse, sharing state through Redis', () => {
    expect(blocks).toHaveLength(3);
    const section = parseServerConfig(blocks[0]!, { env });
    expect(redisOptionsOf(section.state, env)).toEqual({
      url: env.TRIAGE_REDIS_URL,
      keyPrefix: 'triage:',
      timeoutMs: 50,
    });
    const breaker = parseServerConfig(blocks[1]!, { env });
    expect(breaker.breaker).toEqual((blocks[1] as { breaker: unknown }).breaker);
    const example = parseServerConfig(blocks[2]!, { env });
    expect(redisOptionsOf(example.state, env)?.keyPrefix).toBe('triage:prod:');
    expect(example.limits.default).toEqual({ requestsPerMinute: 600, spendPerDayUsd: 50 });
  });
});
