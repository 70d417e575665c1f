import { describe, expect, it } from 'vitest';
import { ConfigError } from '../core/errors.js';
import { selectionConfig } from './config.js';
import { CapabilitySelector } from './selection.js';

describe('selectionConfig', () => {
  it('fills in the defaults', () => {
    expect(selectionConfig()).toEqual({
      concurrency: 5,
      seed: 0,
      timeoutMs: 5_000,
      bypass: false,
      temperature: 0,
      prematcher: {},
    });
    expect(selectionConfig({ prematcher: false, bypass: true })).toMatchObject({
      prematcher: false,
      bypass: true,
    });
    expect(selectionConfig({ prematcher: { hubWeight: 0 } }).prematcher).toEqual({
      hubWeight: 0,
    });
    expect(() => selectionConfig({ prematcher: { hubWeight: 1.5 } })).toThrow(ConfigError);
  });

  it('names unknown keys and bad values, nested ones included, without changing the input', () => {
    const input = { concurency: 3, timeoutMs: 0, prematcher: { noBellow: 0.1 } };
    try {
      selectionConfig(input, 'triage.yaml');
      expect.unreachable();
    } catch (error) {
      expect(error).toBeInstanceOf(ConfigError);
      const issues = (error as ConfigError).issues;
      expect(issues).toContainEqual({ path: '/concurency', message: 'is not a known field' });
      expect(issues).toContainEqual({ path: '/timeoutMs', message: 'must be >= 1' });
      expect(issues.some((issue) => issue.path.startsWith('/prematcher'))).toBe(true);
    }
    expect(input).toEqual({ concurency: 3, timeoutMs: 0, prematcher: { noBellow: 0.1 } });
  });

  it('is how the selector validates its settings', () => {
    expect(() => new CapabilitySelector({ registry: [], timeoutMs: -5 })).toThrow(
      /^invalid capability selector options: \/timeoutMs must be >= 1/,
    );
    expect(() => new CapabilitySelector({ registry: [], prematcher: { margin: 3 } })).toThrow(
      ConfigError,
    );
  });
});
