import { inspect } from 'node:util';
import { describe, expect, it } from 'vitest';
import { ConfigError } from '../core/errors.js';
import { createProvider } from './config.js';
import { LlmHttpError, LlmNetworkError } from './errors.js';
import { fakeProvider, KINDS, TEST_KEY, useFakeLlm } from './fake.test-helpers.js';

const llm = useFakeLlm();

const ask = { messages: [{ role: 'user' as const, content: 'hello' }] };

/** Every way an error might be shown: message, stack, JSON, util.inspect (with its cause). */
function everyRendering(value: unknown): string {
  const error = value as Error;
  return [
    String(error),
    error.message,
    error.stack ?? '',
    JSON.stringify(error),
    inspect(error, { depth: 10, showHidden: true }),
  ].join('\n');
}

describe.each(KINDS)('%s: the API key never leaks', (kind) => {
  it('is redacted from a provider error message that echoes it', async () => {
    llm.fake.script({ status: 401, error: `Incorrect API key provided: ${TEST_KEY}.` });
    const provider = fakeProvider(kind, llm.fake);
    const error = await provider.complete(ask).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(LlmHttpError);
    expect((error as LlmHttpError).providerMessage).toBe('Incorrect API key provided: [redacted].');
    expect(everyRendering(error)).not.toContain(TEST_KEY);
    expect(llm.fake.requests.at(-1)?.rawBody).not.toContain(TEST_KEY);
    await provider.close();
  });

  it('appears in no network error, and not in the provider object', async () => {
    llm.fake.script({ text: 'cut', closeAfterBytes: 5 });
    const provider = fakeProvider(kind, llm.fake, { maxRetries: 0 });
    const error = await provider.complete(ask).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(LlmNetworkError);
    expect(everyRendering(error)).not.toContain(TEST_KEY);
    expect(inspect(provider, { depth: 10, showHidden: true })).not.toContain(TEST_KEY);
    expect(JSON.stringify(provider.config)).not.toContain(TEST_KEY);
    await provider.close();
  });
});

describe('keys come from the environment only', () => {
  it('names a missing variable without a value', () => {
    const error = (() => {
      try {
        createProvider(
          { id: 'p', kind: 'openai', model: 'm', apiKeyEnv: 'MISSING_KEY_VAR' },
          { env: {} },
        );
      } catch (e) {
        return e;
      }
      return undefined;
    })();
    expect(error).toBeInstanceOf(ConfigError);
    expect((error as ConfigError).issues).toEqual([
      { path: '/apiKeyEnv', message: 'environment variable MISSING_KEY_VAR is not set' },
    ]);
  });

  it('refuses credentials written into the configuration file', () => {
    expect(() =>
      createProvider({ id: 'p', kind: 'openai', model: 'm', apiKey: 'sk-in-file' }),
    ).toThrow(/\/apiKey is not a known field/);
    expect(() =>
      createProvider({
        id: 'p',
        kind: 'anthropic',
        model: 'm',
        headers: { 'X-Api-Key': 'sk-in-file', 'X-Title': 'ok' },
      }),
    ).toThrow(/\/headers\/X-Api-Key must not hold a credential/);
  });
});
