import { afterAll, afterEach, beforeAll } from 'vitest';
import { type FakeLlmServer, startFakeLlm } from '../testing/index.js';
import { type ConfiguredProvider, createProvider } from './config.js';

/** The three wire formats, for tests that run against each. */
export const KINDS = ['openai', 'anthropic', 'ollama'] as const;
export type Kind = (typeof KINDS)[number];

/** The key tests use; no test may find it in an error. */
export const TEST_KEY = 'sk-test-Zq8v1uNq3Yy7Secret';

/**
 * A provider of `kind` pointed at the fake server, with a key and fast retries. Its deadline is far
 * beyond any answer of the fake server on a busy machine; tests about deadlines set their own.
 */
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
      timeoutMs: 10_000,
      retryBaseMs: 5,
      retryMaxMs: 20,
      ...extra,
    },
    { env: { TEST_LLM_KEY: TEST_KEY } },
  );
}

/** A fake server shared by a test file, and providers pointed at it. */
export interface FakeLlmFixture {
  /** The server (started before the file's first test, reset after each test). */
  readonly fake: FakeLlmServer;
  /** A provider pointed at the server, closed after the file's last test. */
  provider(kind: Kind, extra?: Record<string, unknown>): ConfiguredProvider;
}

/** Registers the hooks that start, reset and stop one fake server for the calling test file. */
export function useFakeLlm(): FakeLlmFixture {
  let server: FakeLlmServer | undefined;
  const providers: ConfiguredProvider[] = [];
  beforeAll(async () => {
    server = await startFakeLlm();
  });
  afterEach(() => {
    server?.reset().reply('ok');
  });
  afterAll(async () => {
    await Promise.all(providers.splice(0).map((p) => p.close()));
    await server?.close();
  });
  const fixture: FakeLlmFixture = {
    get fake(): FakeLlmServer {
      if (!server) throw new Error('the fake LLM server is not started yet');
      return server;
    },
    provider(kind, extra = {}) {
      const p = fakeProvider(kind, fixture.fake, extra);
      providers.push(p);
      return p;
    },
  };
  return fixture;
}

/**
 * Resolves once every chat request the fake server received has been closed by its client: what
 * an abandoned call must do. On a loaded machine a short deadline can pass before the request is
 * even sent; then there is nothing to close, and this resolves at once.
 */
export function whenAbandonedClosed(fake: FakeLlmServer, timeoutMs = 15_000): Promise<void> {
  return fake.waitFor(
    () => fake.chatRequests.every((request) => request.outcome === 'client-aborted'),
    timeoutMs,
  );
}
