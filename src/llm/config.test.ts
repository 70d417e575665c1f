import Type from 'typebox';
import { describe, expect, it } from 'vitest';
import { ConfigError } from '../core/errors.js';
import { compileConfig } from '../core/validate.js';
import { createProvider, ProviderConfigSchema, parseProviderConfig } from './config.js';

function issuesOf(value: unknown): unknown {
  try {
    parseProviderConfig(value);
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigError);
    return (error as ConfigError).issues;
  }
  return [];
}

describe('provider configuration', () => {
  it('fills in the defaults', () => {
    expect(parseProviderConfig({ id: 'local', kind: 'ollama', model: 'qwen3:0.6b' })).toEqual({
      id: 'local',
      kind: 'ollama',
      model: 'qwen3:0.6b',
      timeoutMs: 10_000,
      maxRetries: 2,
      retryBaseMs: 200,
      retryMaxMs: 2000,
      maxConcurrency: 8,
      maxResponseBytes: 4 * 1024 * 1024,
    });
    expect(parseProviderConfig({ id: 'c', kind: 'openai', model: 'm', cache: {} }).cache).toEqual({
      max: 10_000,
      ttlMs: 600_000,
    });
  });

  it('names every bad field', () => {
    expect(
      issuesOf({
        id: '',
        kind: 'gemini',
        model: 'm',
        baseUrl: 'ftp://x',
        timeoutMs: 0,
        apiKeyEnv: 'not a name',
        extra: true,
      }),
    ).toEqual(
      expect.arrayContaining([
        { path: '/id', message: 'must NOT have fewer than 1 characters' },
        { path: '/kind', message: 'must be one of: openai, anthropic, ollama' },
        { path: '/baseUrl', message: expect.stringMatching(/^must match pattern/) },
        { path: '/timeoutMs', message: 'must be >= 1' },
        { path: '/apiKeyEnv', message: expect.stringMatching(/^must match pattern/) },
        { path: '/extra', message: 'is not a known field' },
      ]),
    );
  });

  it('keeps OpenAI-only options to kind openai', () => {
    expect(
      issuesOf({ id: 'a', kind: 'anthropic', model: 'm', structuredOutput: 'prompt' }),
    ).toEqual([{ path: '/structuredOutput', message: 'applies to kind openai only' }]);
  });

  it('embeds in larger configurations', () => {
    const validate = compileConfig(
      Type.Object({ providers: Type.Array(ProviderConfigSchema) }, { additionalProperties: false }),
      'router config',
    );
    const config = validate({ providers: [{ id: 'a', kind: 'openai', model: 'm' }] });
    expect(config.providers[0]?.maxConcurrency).toBe(8);
  });

  it('builds a provider with the kind default base URL, exposing config and defaults', async () => {
    const provider = createProvider({ id: 'oa', kind: 'openai', model: 'gpt-4o-mini' });
    expect(provider).toMatchObject({ id: 'oa', model: 'gpt-4o-mini', timeoutMs: 10_000 });
    expect(provider.config.kind).toBe('openai');
    expect(provider.stats).toEqual({
      calls: 0,
      attempts: 0,
      retries: 0,
      timeouts: 0,
      failures: 0,
      active: 0,
      pending: 0,
      cacheHits: 0,
      cacheMisses: 0,
    });
    await provider.close();
  });

  it('names the configuration source in errors', () => {
    expect(() =>
      createProvider({ kind: 'openai' }, { source: 'router.yaml providers[0]' }),
    ).toThrow(/^invalid router.yaml providers\[0\]: \/id is required/);
  });
});
