import { describe, expect, it } from 'vitest';
import { settlesWithin } from '../../test/timing.js';
import { withDeadline } from './deadline.js';
import { DecisionTimeoutError } from './errors.js';

describe('withDeadline', () => {
  it('resolves with the work result when it finishes in time', async () => {
    await expect(withDeadline(async () => 42, 100, 'answer')).resolves.toBe(42);
  });

  it('rejects with a typed timeout at the deadline even if the work ignores its signal', async () => {
    const call = withDeadline(() => new Promise(() => {}), 30, 'slow thing');
    expect(await settlesWithin(call, 30 + 50)).toBe(true);
    const error = await call.catch((e) => e);
    expect(error).toBeInstanceOf(DecisionTimeoutError);
    expect((error as DecisionTimeoutError).timeoutMs).toBe(30);
  });

  it('passes work errors through', async () => {
    await expect(
      withDeadline(
        async () => {
          throw new Error('bad');
        },
        100,
        'x',
      ),
    ).rejects.toThrow('bad');
  });

  it('turns a synchronous throw into a rejection', async () => {
    await expect(
      withDeadline(
        () => {
          throw new Error('sync');
        },
        100,
        'x',
      ),
    ).rejects.toThrow('sync');
  });

  it('swallows a late rejection of abandoned work (no unhandled rejection)', async () => {
    const late = withDeadline(
      () => new Promise((_, reject) => setTimeout(() => reject(new Error('late')), 30)),
      5,
      'x',
    );
    await expect(late).rejects.toBeInstanceOf(DecisionTimeoutError);
    await new Promise((resolve) => setTimeout(resolve, 50));
  });

  it('rejects at once when the outer signal is already aborted', async () => {
    const controller = new AbortController();
    controller.abort(new Error('gone'));
    await expect(withDeadline(async () => 1, 100, 'x', controller.signal)).rejects.toThrow('gone');
  });
});
