import { describe, expect, it } from 'vitest';
import type { Admission, CounterStore } from '../state/counter-store.js';
import { MemoryCounterStore } from '../state/memory-counter-store.js';
import type { HttpError } from './errors.js';
import { Limits } from './limits.js';

/** 2026-11-26 12:00:30 UTC: 29.5 s left in the minute. */
const NOW = Date.UTC(2026, 10, 26, 12, 0, 30, 500);

/** A memory store that also records each admission it is asked (one per request). */
function recording(): CounterStore & { admissions: Admission[] } {
  const store = new MemoryCounterStore(() => NOW);
  const admissions: Admission[] = [];
  return Object.assign(store, {
    admissions,
    admit(admission: Admission) {
      admissions.push(admission);
      return MemoryCounterStore.prototype.admit.call(store, admission);
    },
  });
}

async function refusal(limits: Limits, client = 'c'): Promise<HttpError | undefined> {
  try {
    await limits.admit(client);
    return undefined;
  } catch (error) {
    return error as HttpError;
  }
}

describe('Limits', () => {
  it('checks every limit and takes the request in one step of the store, naming what refused', async () => {
    const store = recording();
    const limits = new Limits(
      {
        default: {
          requestsPerMinute: 3,
          tokensPerMinute: 100,
          spendPerDayUsd: 1,
          spendPerMonthUsd: 10,
        },
        keys: {},
      },
      store,
      () => NOW,
    );
    expect(await refusal(limits)).toBeUndefined();
    expect(store.admissions).toHaveLength(1);
    expect(store.admissions[0]!.checks.map((c) => c.key)).toEqual([
      'spend:c:M2026-11',
      'spend:c:d2026-11-26',
      'tokens:c:m29928240',
    ]);

    await limits.spend('c', 100, 0.5);
    const tokens = await refusal(limits);
    expect(tokens?.message).toContain('the limit of 100 tokens a minute is reached');
    expect(tokens?.headers['retry-after']).toBe('30');

    const other = new Limits(
      { default: { requestsPerMinute: 1, spendPerDayUsd: 1, spendPerMonthUsd: 1.2 }, keys: {} },
      store,
      () => NOW,
    );
    expect(await refusal(other, 'd')).toBeUndefined();
    expect((await refusal(other, 'd'))?.message).toContain('the limit of 1 requests a minute');
    await other.spend('d', 0, 1);
    expect((await refusal(other, 'd'))?.message).toContain('the daily budget of $1 is spent');
    await other.spend('d', 0, 1);
    const month = await refusal(other, 'd');
    expect(month).toMatchObject({ statusCode: 429, code: 'budget_exceeded' });
    expect(month?.message).toContain('the monthly budget of $1.2 is spent');
  });

  it('asks nothing of the store for a client without limits', async () => {
    const store = recording();
    const limits = new Limits({ keys: { other: { requestsPerMinute: 1 } } }, store, () => NOW);
    expect(await refusal(limits, 'c')).toBeUndefined();
    await limits.spend('c', 10, 1);
    expect(store.admissions).toEqual([]);
    expect(await store.get('tokens:c:m29928240')).toBe(0);
  });
});
