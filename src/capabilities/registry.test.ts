import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { ConfigError } from '../core/errors.js';
import type { CapabilityInput } from './capability.js';
import { CapabilityRegistry } from './registry.js';

const ASSISTANT = fileURLToPath(new URL('./testdata/assistant.yaml', import.meta.url));
const dir = mkdtempSync(join(tmpdir(), 'triage-registry-'));

function file(name: string, text: string): string {
  const path = join(dir, name);
  writeFileSync(path, text);
  return path;
}

function issuesOf(action: () => unknown): readonly { path: string; message: string }[] {
  try {
    action();
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigError);
    return (error as ConfigError).issues;
  }
  throw new Error('expected a ConfigError');
}

const weather: CapabilityInput = {
  name: 'weather',
  description: 'Weather forecasts',
  guide: {
    instructions: 'Activate for weather questions',
    examples: [{ query: 'Will it rain?', result: true, reason: 'forecast' }],
  },
};

describe('CapabilityRegistry', () => {
  it('loads a YAML file, in order, with defaults filled in', () => {
    const registry = CapabilityRegistry.fromFile(ASSISTANT);
    expect(registry.all().map((c) => c.name)).toEqual([
      'respond',
      'current_weather',
      'send_email',
      'calendar',
    ]);
    expect(registry.alwaysActive().map((c) => c.name)).toEqual(['respond']);
    expect(registry.get('calendar')?.alwaysActive).toBe(false);
    expect(registry.get('current_weather')?.guide?.examples[4]).toEqual({
      query: 'What time is it?',
      result: false,
      reason: 'Time request, not weather',
    });
  });

  it('loads the same registry from JSON', () => {
    const path = file('caps.json', JSON.stringify({ capabilities: [weather] }));
    const registry = CapabilityRegistry.fromFile(path);
    expect(registry.get('weather')).toMatchObject({
      alwaysActive: false,
      description: 'Weather forecasts',
    });
  });

  it('names unknown keys, missing fields and bad values by path', () => {
    const path = file(
      'bad.yaml',
      [
        'capabilities:',
        '  - name: weather',
        '    description: Weather',
        '    always_active: true',
        '    guide:',
        '      instructions: Activate for weather',
        '      exampels: []',
        '  - name: "has space"',
        '  - name: ok',
        '    description: Fine',
        '    alwaysActive: "yes"',
      ].join('\n'),
    );
    const issues = issuesOf(() => CapabilityRegistry.fromFile(path));
    expect(issues).toContainEqual({
      path: '/capabilities/0/always_active',
      message: 'is not a known field',
    });
    expect(issues).toContainEqual({
      path: '/capabilities/0/guide/exampels',
      message: 'is not a known field',
    });
    expect(issues).toContainEqual({ path: '/capabilities/1/description', message: 'is required' });
    expect(issues.some((i) => i.path === '/capabilities/1/name')).toBe(true);
    expect(issues).toContainEqual({
      path: '/capabilities/2/alwaysActive',
      message: 'must be boolean',
    });
    expect(() => CapabilityRegistry.fromFile(path)).toThrow(/^invalid .*bad\.yaml: /);
  });

  it('rejects a duplicate name, pointing at both uses', () => {
    const path = file(
      'dup.json',
      JSON.stringify({ capabilities: [weather, { ...weather, description: 'again' }] }),
    );
    expect(issuesOf(() => CapabilityRegistry.fromFile(path))).toEqual([
      { path: '/capabilities/1/name', message: 'duplicates the name "weather" of /capabilities/0' },
    ]);
    expect(issuesOf(() => new CapabilityRegistry([weather, weather]))).toHaveLength(1);
    const registry = new CapabilityRegistry([weather]);
    expect(issuesOf(() => registry.register(weather))).toEqual([
      { path: '/name', message: 'is already registered' },
    ]);
    expect(registry.size).toBe(1);
  });

  it('says why a file cannot be used', () => {
    expect(() => CapabilityRegistry.fromFile(join(dir, 'missing.yaml'))).toThrow(
      /cannot be read \(ENOENT\)/,
    );
    expect(() => CapabilityRegistry.fromFile(file('broken.json', '{"capabilities": ['))).toThrow(
      /is not valid JSON/,
    );
    expect(() =>
      CapabilityRegistry.fromFile(file('broken.yaml', 'capabilities: [\n  - {')),
    ).toThrow(/is not valid YAML/);
    expect(() => CapabilityRegistry.fromFile(file('list.yaml', '- name: x'))).toThrow(
      /\(root\) must be object/,
    );
  });

  it('validates capabilities registered in code without changing the caller’s objects', () => {
    const input: CapabilityInput = { name: 'respond', description: 'Answers', alwaysActive: true };
    const registry = new CapabilityRegistry().register(input).register(weather);
    expect(input).toEqual({ name: 'respond', description: 'Answers', alwaysActive: true });
    expect(registry.get('weather')?.alwaysActive).toBe(false);
    expect(() => registry.register({ name: '', description: 'x' })).toThrow(ConfigError);
    expect(() => registry.register({ name: 'x', description: '' })).toThrow(ConfigError);
    expect(() =>
      registry.register({ name: 'x', description: 'y', guide: { instructions: '' } }),
    ).toThrow(/\/guide\/instructions/);
  });

  it('changes its version on every registration, so selectors can recompile', () => {
    const registry = new CapabilityRegistry([weather]);
    const before = registry.version;
    registry.register({ name: 'respond', description: 'Answers', alwaysActive: true });
    expect(registry.version).toBeGreaterThan(before);
    expect(registry.has('respond')).toBe(true);
  });
});
