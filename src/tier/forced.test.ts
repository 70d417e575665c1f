import { describe, expect, it } from 'vitest';
import { compileForcedModels } from './forced.js';
import { tierOptions } from './options.js';

describe('forced tiers from model ids', () => {
  const forced = compileForcedModels(tierOptions().forcedModels);

  it('maps the tier ids, bare or with the triage/ prefix, in any case', () => {
    expect(forced('simple')).toBe('SIMPLE');
    expect(forced('triage/medium')).toBe('MEDIUM');
    expect(forced(' Triage/COMPLEX ')).toBe('COMPLEX');
    expect(forced('REASONING')).toBe('REASONING');
  });

  it("accepts claw-llm-router's ids unchanged", () => {
    expect(forced('claw-llm-router/simple')).toBe('SIMPLE');
    expect(forced('claw-llm-router/medium')).toBe('MEDIUM');
    expect(forced('claw-llm-router/complex')).toBe('COMPLEX');
    expect(forced('Claw-LLM-Router/REASONING')).toBe('REASONING');
  });

  it('classifies every other id', () => {
    for (const id of [
      'auto',
      'triage/auto',
      'claw-llm-router/auto',
      'gpt-4o',
      'other/simple',
      '',
      undefined,
    ]) {
      expect(forced(id)).toBeUndefined();
    }
  });

  it('takes configured ids and prefixes', () => {
    const custom = compileForcedModels(
      tierOptions({
        forcedModels: { prefixes: ['acme/'], tiers: { Fast: 'SIMPLE', smart: 'REASONING' } },
      }).forcedModels,
    );
    expect(custom('acme/fast')).toBe('SIMPLE');
    expect(custom('smart')).toBe('REASONING');
    expect(custom('triage/simple')).toBeUndefined();
  });
});
