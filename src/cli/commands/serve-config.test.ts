import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { DEFAULT_PORT, tierModels, tierOptionsOf } from '../../server/config.js';
import { findConfigFile, loadServerConfig } from './serve-config.js';

describe('triage serve configuration files', () => {
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
    expect(tierModels(loadServerConfig(path, {}), 'SIMPLE')[0]?.id).toBe('ollama/llama3.2');
  });

  it('reads JSON', () => {
    const path = write('a.json', JSON.stringify({ server: { port: 9000 } }));
    expect(loadServerConfig(path, {}).server.port).toBe(9000);
  });

  it('reads an empty file, or no file, as all defaults', () => {
    expect(loadServerConfig(write('empty.yaml', ''), {}).server.port).toBe(DEFAULT_PORT);
    expect(loadServerConfig(undefined, {}).server.port).toBe(DEFAULT_PORT);
  });

  it('reads trained weights named in the tier section, relative to the file', () => {
    const weights = {
      version: 1,
      fittedTo: 'outcomes',
      dimensions: { tokenCount: 0.5 },
      boundaries: { MEDIUM: -1, COMPLEX: 0, REASONING: 1 },
    };
    mkdirSync(join(dir, 'models'), { recursive: true });
    writeFileSync(join(dir, 'models', 'w.json'), JSON.stringify(weights));
    const path = write(
      'weights.yaml',
      'tier:\n  weights: models/w.json\n  split: { threshold: 0.2 }\n',
    );
    const config = loadServerConfig(path, {});
    expect(tierOptionsOf(config)).toMatchObject({ weights, split: { threshold: 0.2 } });
    writeFileSync(join(dir, 'models', 'bad.json'), JSON.stringify({ ...weights, version: 3 }));
    const bad = write('bad-weights.yaml', 'tier:\n  weights: models/bad.json\n');
    expect(() => loadServerConfig(bad, {})).toThrow(/invalid .*models\/bad\.json: \/version/);
    const missing = write('missing-weights.yaml', 'tier:\n  weights: models/none.json\n');
    expect(() => loadServerConfig(missing, {})).toThrow(/cannot read .*none\.json: ENOENT/);
  });

  it('names the file of a syntax error', () => {
    const path = write('bad.yaml', 'server:\n  port: [1,\n');
    expect(() => loadServerConfig(path, {})).toThrow(/bad\.yaml is not valid JSON or YAML/);
  });

  it('names the file and field of a validation error', () => {
    const path = write('field.yaml', 'server:\n  prot: 1\n');
    expect(() => loadServerConfig(path, {})).toThrow(
      /invalid server config .*field\.yaml: \/server\/prot is not a known field/,
    );
  });

  it('says when the file is missing', () => {
    expect(() => loadServerConfig(join(dir, 'none.yaml'), {})).toThrow(/cannot read .*none\.yaml/);
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
