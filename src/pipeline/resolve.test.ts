import { describe, expect, it } from 'vitest';
import type { ConfigError } from '../core/errors.js';
import { parseCatalog } from './catalog.js';
import { TEST_CATALOG } from './pipeline.test-helpers.js';
import { resolveModel } from './resolve.js';

const catalog = parseCatalog(TEST_CATALOG);

describe('parseCatalog', () => {
  it('ranks by price index, then more parameters, then larger context, then catalog order', () => {
    const ranked = parseCatalog({
      default: 'x',
      models: [
        { id: 'a', tier: 'local_fast', inputCostPerMillion: 1, outputCostPerMillion: 1 },
        { id: 'b', tier: 'local_fast', inputCostPerMillion: 0.5, outputCostPerMillion: 1.5 },
        {
          id: 'c',
          tier: 'local_fast',
          inputCostPerMillion: 1,
          outputCostPerMillion: 1,
          contextWindow: 8000,
        },
        {
          id: 'd',
          tier: 'local_fast',
          inputCostPerMillion: 1,
          outputCostPerMillion: 1,
          parameters: 7,
        },
        {
          id: 'e',
          tier: 'local_fast',
          inputCostPerMillion: 1,
          outputCostPerMillion: 1,
          parameters: 7,
          contextWindow: 128000,
        },
        { id: 'f', tier: 'local_fast', inputCostPerMillion: 0, outputCostPerMillion: 1.9 },
      ],
    }).ranked.map((m) => m.id);
    expect(ranked).toEqual(['f', 'e', 'd', 'c', 'a', 'b']);
  });

  it('rejects repeated ids, unknown tiers and unknown keys, naming each', () => {
    try {
      parseCatalog({
        default: 'x',
        models: [
          { id: 'a', tier: 'local_fast', inputCostPerMillion: 0, outputCostPerMillion: 0 },
          { id: 'a', tier: 'local_fast', inputCostPerMillion: 0, outputCostPerMillion: 0 },
        ],
      });
      expect.unreachable();
    } catch (error) {
      expect((error as ConfigError).issues).toEqual([
        { path: '/models/1/id', message: "repeats 'a'" },
      ]);
    }
    expect(() =>
      parseCatalog({
        default: 'x',
        models: [
          { id: 'a', tier: 'huge', inputCostPerMillion: 0, outputCostPerMillion: 0, price: 1 },
        ],
      }),
    ).toThrow(/\/models\/0\/price is not a known field/);
    expect(() =>
      parseCatalog({
        default: 'x',
        models: [{ id: 'a', tier: 'huge', inputCostPerMillion: 0, outputCostPerMillion: 0 }],
      }),
    ).toThrow(/\/models\/0\/tier must be one of: local_fast/);
    expect(() => parseCatalog({ models: [] })).toThrow(/\/default is required/);
  });
});

describe('resolveModel', () => {
  const spec = (value: string, score = 0.75) => ({ value, score }) as never;

  it('pass 1: specialization and tier', () => {
    const r = resolveModel(catalog, {
      specialization: spec('writing'),
      tier: spec('local_strong', 0.88),
      lowConfidence: [],
    });
    expect(r.model).toBe('writer');
    expect(r.resolution).toEqual({
      constraints_used: { model_specialization: 'writing', model_tier: 'local_strong' },
      constraints_dropped: [],
      confidences: { routing: 0.75, model_specialization: 0.75, model_tier: 0.88 },
      pass: 'specialization_and_tier',
      candidates: 1,
    });
  });

  it('pass 2: specialization only, the tier relaxed', () => {
    const r = resolveModel(catalog, {
      specialization: spec('reasoning'),
      tier: spec('local_fast'),
      lowConfidence: [],
    });
    expect(r.model).toBe('frontier');
    expect(r.resolution.pass).toBe('specialization');
    expect(r.resolution.constraints_used).toEqual({ model_specialization: 'reasoning' });
    expect(r.resolution.constraints_dropped).toEqual([
      { axis: 'model_tier', reason: 'no_match_relaxed' },
    ]);
  });

  it('pass 3: tier only, the specialization relaxed', () => {
    const r = resolveModel(catalog, {
      specialization: spec('vision'),
      tier: spec('local_fast'),
      lowConfidence: [],
    });
    expect(r.model).toBe('chat-big');
    expect(r.resolution).toMatchObject({
      pass: 'tier',
      candidates: 2,
      constraints_used: { model_tier: 'local_fast' },
    });
    expect(r.resolution.constraints_dropped).toEqual([
      { axis: 'model_specialization', reason: 'no_match_relaxed' },
    ]);
  });

  it('pass 4: no constraint; both axes relaxed, or none requested', () => {
    const relaxed = resolveModel(catalog, {
      specialization: spec('vision'),
      tier: spec('frontier_coding'),
      lowConfidence: [],
    });
    expect(relaxed.model).toBe('chat-big');
    expect(relaxed.resolution.pass).toBe('unconstrained');
    expect(relaxed.resolution.constraints_dropped).toEqual([
      { axis: 'model_specialization', reason: 'no_match_relaxed' },
      { axis: 'model_tier', reason: 'no_match_relaxed' },
    ]);
    const none = resolveModel(catalog, { lowConfidence: [] });
    expect(none.resolution).toMatchObject({
      pass: 'unconstrained',
      candidates: 6,
      constraints_dropped: [],
    });
  });

  it('records low-confidence axes as dropped', () => {
    const r = resolveModel(catalog, {
      tier: spec('local_coding'),
      lowConfidence: ['model_specialization'],
    });
    expect(r.model).toBe('coder-big');
    expect(r.resolution.constraints_dropped).toEqual([
      { axis: 'model_specialization', reason: 'low_confidence' },
    ]);
  });

  it('falls back to catalog.default when every pass is empty', () => {
    const empty = parseCatalog({ default: 'gpt-default' });
    const r = resolveModel(empty, {
      specialization: spec('coding'),
      tier: spec('local_coding'),
      lowConfidence: [],
    });
    expect(r).toEqual({
      model: 'gpt-default',
      resolution: {
        constraints_used: {},
        constraints_dropped: [
          { axis: 'model_specialization', reason: 'default_fallback' },
          { axis: 'model_tier', reason: 'default_fallback' },
        ],
        confidences: { routing: 0.75, model_specialization: 0.75, model_tier: 0.75 },
        pass: 'default',
        candidates: 0,
      },
    });
  });
});
