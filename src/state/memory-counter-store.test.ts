import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { MemoryCounterStore } from './memory-counter-store.js';

describe('MemoryCounterStore', () => {
  it('adds, reads, and forgets a counter once its window ended', async () => {
    let now = 1_000;
    const store = new MemoryCounterStore(() => now);
    expect(await store.add('a', 2, 2_000)).toBe(2);
    expect(await store.add('a', 3, 9_999)).toBe(5);
    expect(await store.get('a')).toBe(5);
    now = 2_000;
    expect(await store.get('a')).toBe(0);
    expect(await store.add('a', 1, 3_000)).toBe(1);
  });

  it('never lets concurrent check-and-adds pass the limit', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.integer({ min: 1, max: 5 }), { maxLength: 60 }),
        fc.integer({ min: 0, max: 40 }),
        async (amounts, limit) => {
          const store = new MemoryCounterStore(() => 0);
          const results = await Promise.all(
            amounts.map((amount) => store.checkAndAdd('k', amount, limit, 1)),
          );
          const admitted = amounts.filter((_, i) => results[i]!.allowed);
          const total = admitted.reduce((sum, n) => sum + n, 0);
          expect(total).toBeLessThanOrEqual(limit);
          expect(await store.get('k')).toBe(total);
        },
      ),
    );
  });

  it('admits when every check is below its limit and the take fits, saying which step refused', async () => {
    const store = new MemoryCounterStore(() => 0);
    await store.add('spend', 5, 10);
    const take = { key: 'requests', amount: 1, limit: 2, expiresAt: 10 };
    const checks = [
      { key: 'tokens', limit: 1 },
      { key: 'spend', limit: 6 },
    ];
    expect(await store.admit({ checks, take })).toBeUndefined();
    expect(await store.admit({ checks, take })).toBeUndefined();
    expect(await store.admit({ checks, take })).toBe(2);
    await store.add('spend', 1, 10);
    expect(await store.admit({ checks, take: { ...take, limit: 9 } })).toBe(1);
    expect(await store.get('requests')).toBe(2);
    expect(await store.admit({ checks: [] })).toBeUndefined();
  });

  it('sweeps expired counters so that memory stays bounded', async () => {
    let now = 0;
    const store = new MemoryCounterStore(() => now);
    for (let i = 0; i < 1_000; i++) await store.add(`old${i}`, 1, 10);
    now = 20;
    for (let i = 0; i < 1_100; i++) await store.add(`new${i}`, 1, 100);
    expect(store.size).toBeLessThan(1_200);
  });
});
