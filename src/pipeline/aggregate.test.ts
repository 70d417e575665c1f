import { describe, expect, it } from 'vitest';
import type { Certainty } from '../core/certainty.js';
import { aggregate, type ClassifierRun } from './aggregate.js';

function run(
  name: string,
  certainty: Certainty,
  fields: Record<string, unknown>,
  dispatchOrder?: number,
): ClassifierRun {
  return {
    name,
    version: '1.0.0',
    dispatchOrder,
    output: { reason: 'r', certainty, ...fields },
    status: { source: 'llm', attempts: 1, ms: 1, model: 'm' },
  };
}

describe('aggregate', () => {
  it('uses a reserved value at or above the threshold, never below (0.60 < 0.65 ≤ 0.75)', () => {
    const above = aggregate([run('a', 'strong', { model_tier: 'local_fast' }, 1)], 0.65);
    expect(above.fields.model_tier).toMatchObject({
      winner: 'a',
      value: 'local_fast',
      score: 0.75,
    });
    const below = aggregate([run('a', 'reasonable', { model_tier: 'local_fast' }, 1)], 0.65);
    expect(below.fields.model_tier?.winner).toBeUndefined();
    expect(below.fields.model_tier?.candidates).toEqual([
      {
        classifier: 'a',
        value: 'local_fast',
        certainty: 'reasonable',
        score: 0.6,
        eligible: false,
      },
    ]);
    // Exactly at the threshold counts.
    expect(
      aggregate([run('a', 'reasonable', { model_tier: 'local_fast' })], 0.6).fields.model_tier
        ?.winner,
    ).toBe('a');
  });

  it('picks the highest certainty among contributors, whatever their order', () => {
    const merged = aggregate(
      [
        run('first', 'strong', { model_tier: 'local_fast' }, 1),
        run('second', 'near_certain', { model_tier: 'frontier_strong' }, 2),
      ],
      0.65,
    );
    expect(merged.fields.model_tier).toMatchObject({ winner: 'second', value: 'frontier_strong' });
  });

  it('breaks ties by the lower dispatch_order; classifiers without one lose', () => {
    const tie = (runs: ClassifierRun[]) => aggregate(runs, 0.65).fields.model_tier?.winner;
    expect(
      tie([
        run('late', 'strong', { model_tier: 'local_fast' }, 20),
        run('early', 'strong', { model_tier: 'local_small' }, 10),
      ]),
    ).toBe('early');
    expect(
      tie([
        run('none', 'strong', { model_tier: 'local_fast' }),
        run('ordered', 'strong', { model_tier: 'local_small' }, 99),
      ]),
    ).toBe('ordered');
    expect(
      tie([
        run('x', 'strong', { model_tier: 'local_fast' }),
        run('y', 'strong', { model_tier: 'local_small' }),
      ]),
    ).toBe('x');
  });

  it('keeps only one of final_reply and ack_reply across classifiers: the surer, ack on a tie', () => {
    const surer = aggregate(
      [
        run('a', 'near_certain', { final_reply: { text: 'Hi!' } }, 1),
        run('b', 'strong', { ack_reply: { text: 'On it' } }, 2),
      ],
      0.65,
    );
    expect(surer.fields.final_reply?.winner).toBe('a');
    expect(surer.fields.ack_reply).toMatchObject({ excluded_by: 'final_reply' });
    expect(surer.fields.ack_reply?.winner).toBeUndefined();
    const tied = aggregate(
      [
        run('a', 'strong', { final_reply: { text: 'Hi!' } }, 1),
        run('b', 'strong', { ack_reply: { text: 'On it' } }, 2),
      ],
      0.65,
    );
    expect(tied.fields.ack_reply?.winner).toBe('b');
    expect(tied.fields.final_reply).toMatchObject({ excluded_by: 'ack_reply' });
  });

  it('summarises the whole run: min and mean score, fallbacks counting 0', () => {
    const merged = aggregate(
      [run('a', 'near_certain', {}), run('b', 'strong', {}), run('c', 'no_signal', {})],
      0.65,
    );
    expect(merged.certainty).toEqual({ min: 0, avg: Math.round(((0.97 + 0.75) / 3) * 1e4) / 1e4 });
    expect(aggregate([], 0.65).certainty).toEqual({ min: 0, avg: 0 });
  });

  it('lists only the reserved fields some classifier emitted', () => {
    const merged = aggregate([run('a', 'strong', { tools: [], custom: 1 })], 0.65);
    expect(Object.keys(merged.fields)).toEqual(['tools']);
    expect(merged.fields.tools?.value).toEqual([]);
  });
});
