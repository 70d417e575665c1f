import Type from 'typebox';
import { describe, expect, it } from 'vitest';
import { ConfigError } from './errors.js';
import { compileConfig } from './validate.js';

const Schema = Type.Object(
  {
    mode: Type.Union([Type.Literal('off'), Type.Literal('flag'), Type.Literal('block')]),
    port: Type.Integer({ minimum: 1, maximum: 65535, default: 8080 }),
    upstreams: Type.Array(
      Type.Object({ name: Type.String({ minLength: 1 }) }, { additionalProperties: false }),
    ),
  },
  { additionalProperties: false },
);
const validate = compileConfig(Schema, 'server config');

describe('compileConfig', () => {
  it('returns the value typed, with defaults filled in', () => {
    const config = validate({ mode: 'flag', upstreams: [] });
    expect(config.port).toBe(8080);
  });

  it('names every bad field, by path, in words', () => {
    try {
      validate({ mode: 'loud', port: 0, upstreams: [{ name: '' }, { nom: 'x' }], extra: 1 });
      expect.unreachable();
    } catch (error) {
      expect(error).toBeInstanceOf(ConfigError);
      const issues = (error as ConfigError).issues;
      expect(issues).toContainEqual({ path: '/mode', message: 'must be one of: off, flag, block' });
      expect(issues).toContainEqual({ path: '/port', message: 'must be >= 1' });
      expect(issues).toContainEqual({ path: '/extra', message: 'is not a known field' });
      expect(issues).toContainEqual({ path: '/upstreams/1/nom', message: 'is not a known field' });
      expect(issues).toContainEqual({ path: '/upstreams/1/name', message: 'is required' });
      expect(issues).toContainEqual({
        path: '/upstreams/0/name',
        message: 'must NOT have fewer than 1 characters',
      });
      expect((error as Error).message).toMatch(/^invalid server config: /);
    }
  });

  it('uses the source given at the call', () => {
    expect(() => validate(null, 'triage.yaml')).toThrow(
      /^invalid triage\.yaml: \(root\) must be object/,
    );
  });
});
