import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigError } from '../core/errors.js';
import { clientKeys, DEFAULT_PORT, parseServerConfig, tierModels } from './config.js';
import { findConfigFile, loadServerConfigFile } from './config-file.js';

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
      decisionHeaders: true,
      unknownModel: 'reject',
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

  it('rejects model ids reserved for routing', () => {
    expect(issuesOf({ providers: { a: provider }, tiers: { MEDIUM: ['a/auto'] } })).toEqual([
      "/tiers/MEDIUM/0 model id 'auto' is reserved for routing",
    ]);
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
});

describe('configuration files', () => {
  const dir = mkdtempSync(join(tmpdir(), 'triage-config-'));
  const write = (name: string, text: string) => {
    const path = join(dir, name);
    writeFileSync(path, text);
    return path;
  };

  it('reads YAML', () => {
    const path = write(
      'a.yaml',
      'providers:\n  ollama: { baseUrl: "http://127.0.0.1:11434/v1" }\ntiers:\n  SIMPLE: [ollama/llama3.2]\n',
    );
    expect(tierModels(loadServerConfigFile(path, {}), 'SIMPLE')[0]?.id).toBe('ollama/llama3.2');
  });

  it('reads JSON', () => {
    const path = write('a.json', JSON.stringify({ server: { port: 9000 } }));
    expect(loadServerConfigFile(path, {}).server.port).toBe(9000);
  });

  it('reads an empty file as all defaults', () => {
    expect(loadServerConfigFile(write('empty.yaml', ''), {}).server.port).toBe(DEFAULT_PORT);
  });

  it('names the file and the line of a syntax error', () => {
    const path = write('bad.yaml', 'server:\n  port: [1,\n');
    expect(() => loadServerConfigFile(path, {})).toThrow(/bad\.yaml.*not valid YAML \(line \d+/);
    const json = write('bad.json', '{"server": ');
    expect(() => loadServerConfigFile(json, {})).toThrow(/bad\.json.*not valid JSON/);
  });

  it('names the file and field of a validation error', () => {
    const path = write('field.yaml', 'server:\n  prot: 1\n');
    expect(() => loadServerConfigFile(path, {})).toThrow(
      /invalid server config .*field\.yaml: \/server\/prot is not a known field/,
    );
  });

  it('says when the file is missing', () => {
    expect(() => loadServerConfigFile(join(dir, 'none.yaml'), {})).toThrow(/no such file/);
  });

  it('finds the named file, then $TRIAGE_CONFIG, then triage.yaml in the directory', () => {
    const cwd = mkdtempSync(join(tmpdir(), 'triage-find-'));
    expect(findConfigFile(undefined, {}, cwd)).toBeUndefined();
    writeFileSync(join(cwd, 'triage.yaml'), '');
    expect(findConfigFile(undefined, {}, cwd)).toBe(join(cwd, 'triage.yaml'));
    expect(findConfigFile(undefined, { TRIAGE_CONFIG: 'x.json' }, cwd)).toBe(join(cwd, 'x.json'));
    expect(findConfigFile('/etc/t.yaml', { TRIAGE_CONFIG: 'x.json' }, cwd)).toBe('/etc/t.yaml');
  });
});
