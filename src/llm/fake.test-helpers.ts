import type { FakeLlmServer } from '../testing/index.js';
import { type ConfiguredProvider, createProvider } from './config.js';

/** The three wire formats, for tests that run against each. */
export const KINDS = ['openai', 'anthropic', 'ollama'] as const;
export type Kind = (typeof KINDS)[number];

/** The key tests use; no test may find it in an error. */
export const TEST_KEY = 'sk-test-Zq8v1uNq3Yy7Secret';

/** A provider of `kind` pointed at the fake server, with a key and fast retries. */
export function fakeProvider(
  kind: Kind,
  fake: FakeLlmServer,
  extra: Record<string, unknown> = {},
): ConfiguredProvider {
  return createProvider(
    {
      id: `fake-${kind}`,
      kind,
      baseUrl: kind === 'openai' ? fake.openAiBaseUrl : fake.url,
      model: 'fake-model',
      apiKeyEnv: 'TEST_LLM_KEY',
      timeoutMs: 2000,
      retryBaseMs: 5,
      retryMaxMs: 20,
      ...extra,
    },
    { env: { TEST_LLM_KEY: TEST_KEY } },
  );
}
