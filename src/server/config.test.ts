import { describe, expect, it } from 'vitest';
import { ConfigError } from '../core/errors.js';
import { clientKeys, DEFAULT_PORT, parseServerConfig, tierModels } from './config.js';

function issuesOf(value: unknown, env: Record<string, string> = {}): string[] {
  try {
    parseServerConfig(value, { env });
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigError);
    return (error as ConfigError).issues.map((i) => `${i.path} ${i.message}`);
  }
  throw new Error('expected a ConfigError');
}

const provider = { baseUrl: 'http://127.0.0.1:11434/v1' };

describe('server configuration', () => {
  it('fills every default into an empty configuration', () => {
    const config = parseServerConfig({});
    expect(config.server).toEqual({
      host: '127.0.0.1',
      port: DEFAULT_PORT,
      bodyLimitBytes: 10 * 1024 * 1024,
      maxJsonDepth: 128,
      maxJsonValues: 100_000,
      responseLimitBytes: 16 * 1024 * 1024,
      deadlineMs: 300_000,
      requestTimeoutMs: 60_000,
      decisionHeaders: true,
      unknownModel: 'reject',
      admin: { allowLoopback: true },
      log: { level: 'info', prompts: false },
    });
    expect(config.providers).toEqual({});
    expect(config.tiers).toEqual({});
  });

  it('resolves tier models in both forms, with per-model timeouts', () => {
    const config = parseServerConfig({
      providers: {
        local: { ...provider, timeoutMs: 5000 },
        or: { baseUrl: 'https://openrouter.ai/api/v1' },
      },
      tiers: {
        SIMPLE: [
          'local/llama3.2',
          { provider: 'or', model: 'anthropic/claude-3.5-haiku', timeoutMs: 900 },
        ],
      },
    });
    expect(tierModels(config, 'SIMPLE')).toEqual([
      { provider: 'local', model: 'llama3.2', id: 'local/llama3.2', timeoutMs: 5000 },
      {
        provider: 'or',
        model: 'anthropic/claude-3.5-haiku',
        id: 'or/anthropic/claude-3.5-haiku',
        timeoutMs: 900,
      },
    ]);
  });

  it('names each bad field by path', () => {
    expect(
      issuesOf({
        server: { port: 70000, colour: 'blue', log: { level: 'loud' } },
        providers: { p: { baseUrl: 'ftp://x', timeoutMs: 0 } },
        tiers: { SIMPLE: ['no-slash'], HARD: [] },
      }),
    ).toEqual(
      expect.arrayContaining([
        '/server/port must be <= 65535',
        '/server/colour is not a known field',
        expect.stringMatching(/^\/server\/log\/level must be one of: fatal, error/),
        expect.stringMatching(/^\/providers\/p\/baseUrl must match pattern/),
        '/providers/p/timeoutMs must be >= 1',
        '/tiers/HARD is not a known field',
        expect.stringMatching(/^\/tiers\/SIMPLE\/0 /),
      ]),
    );
  });

  it('rejects a tier naming an unknown provider, listing the known ones', () => {
    expect(issuesOf({ providers: { a: provider }, tiers: { MEDIUM: ['b/m'] } })).toEqual([
      "/tiers/MEDIUM/0 names provider 'b', which is not under providers (known: a)",
    ]);
    expect(issuesOf({ tiers: { MEDIUM: [{ provider: 'b', model: 'm' }] } })).toEqual([
      "/tiers/MEDIUM/0/provider names provider 'b', which is not under providers (none is configured)",
    ]);
  });

  it('rejects model ids reserved for routing, the configured forced ids included', () => {
    expect(issuesOf({ providers: { a: provider }, tiers: { MEDIUM: ['a/auto'] } })).toEqual([
      "/tiers/MEDIUM/0 model id 'auto' is reserved for routing",
    ]);
    expect(
      issuesOf({
        providers: { a: provider },
        tier: { forcedModels: { tiers: { fast: 'SIMPLE' } } },
        tiers: { MEDIUM: ['a/Triage/Fast', 'a/simple'] },
      }),
    ).toEqual(["/tiers/MEDIUM/0 model id 'Triage/Fast' is reserved for routing"]);
  });

  it('validates the tier section, naming its fields under /tier', () => {
    expect(issuesOf({ tier: { boundaries: { COMPLEX: 'high' }, colour: 1 } })).toEqual(
      expect.arrayContaining([
        '/tier/boundaries/COMPLEX must be number',
        '/tier/colour is not a known field',
      ]),
    );
  });

  it('requires the environment variables it names, without showing values', () => {
    const issues = issuesOf({
      providers: { a: { ...provider, apiKeyEnv: 'A_KEY' } },
      server: { auth: { keysEnv: 'CLIENT_KEYS' } },
    });
    expect(issues).toEqual([
      '/providers/a/apiKeyEnv environment variable A_KEY is not set',
      '/server/auth/keysEnv environment variable CLIENT_KEYS is not set (or holds no key)',
    ]);
    expect(() =>
      parseServerConfig(
        { providers: { a: { ...provider, apiKeyEnv: 'A_KEY' } } },
        { env: { A_KEY: 'sk-1' } },
      ),
    ).not.toThrow();
  });

  it('validates the LLM and context sections, naming their fields under their own paths', () => {
    expect(
      issuesOf({
        llm: { id: 'c', kind: 'openai', model: 'gpt-4o-mini', apiKeyEnv: 'LLM_KEY' },
        context: { localConfidenceThreshold: 2, colour: 1 },
      }),
    ).toEqual(
      expect.arrayContaining([
        '/context/localConfidenceThreshold must be <= 1',
        '/context/colour is not a known field',
      ]),
    );
    expect(issuesOf({ llm: { id: 'c', kind: 'openai' } })).toEqual(['/llm/model is required']);
    expect(parseServerConfig({ context: false }).context).toBe(false);
  });

  it('validates the injection section, the detector and guard settings under their paths', () => {
    expect(issuesOf({ injection: { policy: 'deny' } })).toEqual([
      '/injection/policy must be one of: off, flag, block',
    ]);
    expect(
      issuesOf({ injection: { detector: { preset: 'paranoid' }, guard: { timeoutMs: 0 } } }),
    ).toEqual([
      '/injection/detector/preset must be one of: strict, balanced, lenient',
      '/injection/guard/timeoutMs must be >= 1',
    ]);
    expect(parseServerConfig({}).injection).toEqual({ policy: 'off', minLevel: 'high_risk' });
  });

  it('refuses credentials in provider headers', () => {
    expect(
      issuesOf({ providers: { a: { ...provider, headers: { Authorization: 'Bearer x' } } } }),
    ).toEqual([
      '/providers/a/headers/Authorization must not hold a credential: name the environment variable in apiKeyEnv',
    ]);
  });

  it('gathers client keys from the file and the environment', () => {
    const config = parseServerConfig(
      { server: { auth: { keys: ['file-key-123'], keysEnv: 'K' } } },
      { env: { K: ' env-key-1 ,env-key-2,' } },
    );
    expect(clientKeys(config, { K: ' env-key-1 ,env-key-2,' })).toEqual([
      'file-key-123',
      'env-key-1',
      'env-key-2',
    ]);
  });

  it('rejects model ids that cannot be sent in a header, naming the field', () => {
    const providers = { local: provider };
    expect(
      issuesOf({
        providers,
        tiers: {
          MEDIUM: [
            { provider: 'local', model: 'gpt\r\nx-injected: 1' },
            { provider: 'local', model: 'модель' },
            'local/ok-model',
          ],
        },
      }),
    ).toEqual([
      '/tiers/MEDIUM/0/model must not contain control characters',
      '/tiers/MEDIUM/1/model must hold only Latin-1 characters (it is sent in the x-triage-model header)',
    ]);
    expect(issuesOf({ providers, tiers: { SIMPLE: ['local/bell\u0007'] } })).toEqual([
      '/tiers/SIMPLE/0 must not contain control characters',
    ]);
  });

  it('rejects provider names and header values that cannot be sent', () => {
    expect(
      issuesOf({
        providers: {
          'über-ρ': provider,
          ok: { ...provider, headers: { 'X-Title': 'a\nb', 'Bad Name': 'x' } },
        },
      }),
    ).toEqual([
      '/providers/über-ρ must hold only Latin-1 characters (it is sent in the x-triage-model header)',
      '/providers/ok/headers/X-Title must not contain control characters',
      '/providers/ok/headers/Bad Name is not a valid header name',
    ]);
  });

  it('rejects a baseUrl holding credentials, a query or a fragment, saying why', () => {
    expect(
      issuesOf({
        providers: {
          a: { baseUrl: 'https://user:pass@api.example.com/v1' },
          b: { baseUrl: 'https://api.example.com/v1?key=abc' },
          c: { baseUrl: 'https://api.example.com/v1#x' },
        },
      }),
    ).toEqual([
      '/providers/a/baseUrl must not hold credentials (user:password@): name the environment variable of the key in apiKeyEnv',
      '/providers/b/baseUrl must not have a query string (?…): requests go to <baseUrl>/chat/completions, which would drop it',
      '/providers/c/baseUrl must not have a fragment (#…)',
    ]);
  });

  it('reports a model listed twice in one tier', () => {
    expect(
      issuesOf({
        providers: { local: provider },
        tiers: {
          SIMPLE: ['local/a', 'local/b', { provider: 'local', model: 'a', timeoutMs: 5 }],
          MEDIUM: ['local/a'],
        },
      }),
    ).toEqual(['/tiers/SIMPLE/2 names local/a, already listed at /tiers/SIMPLE/0']);
  });

  it('rejects a model timeout longer than the request deadline, which it could never use', () => {
    expect(
      issuesOf({
        server: { deadlineMs: 60_000 },
        providers: { local: { ...provider, timeoutMs: 90_000 } },
        tiers: { MEDIUM: ['local/a', { provider: 'local', model: 'b', timeoutMs: 30_000 }] },
      }),
    ).toEqual([
      '/tiers/MEDIUM/0 has a timeout (90000 ms) longer than server.deadlineMs (60000 ms): raise the deadline or lower the timeout',
    ]);
  });
});
