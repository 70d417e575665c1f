import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { JsonLimitGuard, JsonTooComplexError, scanJson } from './json-scan.js';

/** Nesting depth of a JSON value: 0 for a scalar, 1 for a flat array or object. */
function depthOf(value: unknown): number {
  if (typeof value !== 'object' || value === null) return 0;
  const children = Array.isArray(value) ? value : Object.values(value);
  return 1 + Math.max(0, ...children.map(depthOf));
}

const many = { maxDepth: 1e9, maxValues: 1e9 };

describe('scanJson', () => {
  it('measures nesting as JSON.parse would see it, whatever the strings hold', () => {
    fc.assert(
      fc.property(fc.jsonValue(), (value) => {
        const raw = Buffer.from(JSON.stringify(value));
        const depth = depthOf(value);
        expect(() => scanJson(raw, { ...many, maxDepth: depth })).not.toThrow();
        if (depth > 0) {
          expect(() => scanJson(raw, { ...many, maxDepth: depth - 1 })).toThrow(
            JsonTooComplexError,
          );
        }
      }),
    );
  });

  it('finds the value JSON.parse keeps for model, and counts the model keys', () => {
    fc.assert(
      fc.property(
        fc.dictionary(fc.string(), fc.jsonValue()),
        fc.array(fc.jsonValue(), { maxLength: 3 }),
        (object, models) => {
          // Keys written by hand, so that duplicates survive.
          const members = [
            ...Object.entries(object).map(([k, v]) => `${JSON.stringify(k)}:${JSON.stringify(v)}`),
            ...models.map((m) => `"model" : ${JSON.stringify(m)}`),
          ];
          const raw = Buffer.from(`{${members.join(',')}}`);
          const shape = scanJson(raw);
          const ownModel = Object.hasOwn(object, 'model') ? 1 : 0;
          expect(shape.modelKeys).toBe(models.length + ownModel);
          const parsed = JSON.parse(raw.toString()) as { model?: unknown };
          if (shape.modelValue === undefined) expect(parsed.model).toBeUndefined();
          else {
            const { start, end } = shape.modelValue;
            expect(JSON.parse(raw.toString('utf8', start, end))).toEqual(parsed.model);
          }
        },
      ),
    );
  });

  it('never fails on bytes that are not JSON: only a limit stops it', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 300 }), (bytes) => {
        try {
          scanJson(Buffer.from(bytes), { maxDepth: 4, maxValues: 20 });
        } catch (error) {
          expect(error).toBeInstanceOf(JsonTooComplexError);
        }
      }),
    );
  });

  it('stops at the limit, not at the end of the body', () => {
    const raw = Buffer.from(`${'['.repeat(5_000_000)}`);
    expect(() => scanJson(raw, { maxDepth: 64, maxValues: 1e6 })).toThrow(/deeper than 64/);
    const flat = Buffer.from(`[${'0,'.repeat(2_000_000)}0]`);
    expect(() => scanJson(flat, { maxDepth: 64, maxValues: 1000 })).toThrow(
      /more than 1000 values/,
    );
  });

  it('treats strings of a top-level array as values, not keys', () => {
    expect(scanJson(Buffer.from('["model", "model"]')).modelKeys).toBe(0);
  });

  it('judges a body cut in chunks anywhere as it judges the whole', () => {
    // Strings full of quotes and backslashes, so that escapes straddle the cuts.
    const tricky = fc.string({
      unit: fc.constantFrom('a', '"', '\\', '[', '{', ','),
      maxLength: 12,
    });
    const value = fc.letrec((tie) => ({
      node: fc.oneof(
        { depthSize: 'small' },
        tricky,
        fc.array(tie('node'), { maxLength: 4 }),
        fc.dictionary(tricky, tie('node'), { maxKeys: 3 }),
      ),
    })).node;
    const limits = fc.record({
      maxDepth: fc.integer({ min: 0, max: 6 }),
      maxValues: fc.integer({ min: 0, max: 30 }),
    });
    fc.assert(
      fc.property(value, limits, fc.array(fc.nat(), { maxLength: 6 }), (v, lim, cuts) => {
        const raw = Buffer.from(JSON.stringify(v));
        const whole = verdict(() => scanJson(raw, lim));
        const guard = new JsonLimitGuard(lim);
        const at = [...new Set(cuts.map((c) => c % (raw.length + 1)))].sort((a, b) => a - b);
        const chunked = verdict(() => {
          let from = 0;
          for (const to of [...at, raw.length]) {
            guard.push(raw.subarray(from, to));
            from = to;
          }
        });
        expect(chunked).toBe(whole);
      }),
      { numRuns: 500 },
    );
  });
});

function verdict(run: () => unknown): string {
  try {
    run();
    return 'ok';
  } catch (error) {
    return (error as JsonTooComplexError).limit;
  }
}
