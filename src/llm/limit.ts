import pLimit from 'p-limit';
import { LlmTimeoutError } from './errors.js';
import type { CompletionRequest, CompletionResponse, LlmProvider } from './types.js';

/** A provider with a concurrency limit. */
export interface LimitedProvider extends LlmProvider {
  /** Calls running now. */
  readonly activeCount: number;
  /** Calls waiting for a slot. */
  readonly pendingCount: number;
}

/**
 * Wraps `provider` so that at most `maxConcurrency` calls run at once; the others wait in order.
 * Waiting counts against the call's time limit (the request's `timeoutMs`, else the provider's):
 * a call still waiting at its deadline rejects with an `LlmTimeoutError` then and gives up its
 * place, and a call that starts late runs with the time it has left. An abort of the request's
 * signal removes a waiting call the same way. Once a call runs, the provider's own deadline is the
 * only one (a second timer racing it would make the outcome depend on which fired first).
 */
export function withConcurrencyLimit(
  provider: LlmProvider,
  maxConcurrency: number,
): LimitedProvider {
  if (!(Number.isInteger(maxConcurrency) && maxConcurrency >= 1)) {
    throw new RangeError(`maxConcurrency must be an integer >= 1, got ${maxConcurrency}`);
  }
  const limit = pLimit({ concurrency: maxConcurrency, rejectOnClear: true });
  return {
    id: provider.id,
    model: provider.model,
    ...(provider.timeoutMs === undefined ? {} : { timeoutMs: provider.timeoutMs }),
    get activeCount() {
      return limit.activeCount;
    },
    get pendingCount() {
      return limit.pendingCount;
    },
    complete(request: CompletionRequest): Promise<CompletionResponse> {
      const timeoutMs = request.timeoutMs ?? provider.timeoutMs;
      const signal = request.signal;
      if (signal?.aborted) return Promise.reject(signal.reason);
      const queuedAt = performance.now();
      return new Promise<CompletionResponse>((resolve, reject) => {
        let state: 'waiting' | 'running' | 'abandoned' = 'waiting';
        const stopWaiting = () => {
          clearTimeout(timer);
          signal?.removeEventListener('abort', onAbort);
        };
        const giveUp = (reason: unknown) => {
          if (state !== 'waiting') return;
          state = 'abandoned';
          stopWaiting();
          reject(reason);
        };
        const onAbort = () => giveUp(signal?.reason);
        const timer =
          timeoutMs === undefined
            ? undefined
            : setTimeout(() => giveUp(new LlmTimeoutError(provider.id, timeoutMs)), timeoutMs);
        signal?.addEventListener('abort', onAbort, { once: true });
        limit(async () => {
          if (state === 'abandoned') return;
          state = 'running';
          stopWaiting();
          const waited = performance.now() - queuedAt;
          const run =
            timeoutMs === undefined || waited < 1
              ? request
              : { ...request, timeoutMs: Math.max(1, timeoutMs - waited) };
          try {
            resolve(await provider.complete(run));
          } catch (error) {
            // A late start ran out of the time left; the caller's limit is the whole timeout.
            reject(
              error instanceof LlmTimeoutError && timeoutMs !== undefined
                ? new LlmTimeoutError(provider.id, timeoutMs)
                : error,
            );
          }
        }).catch(giveUp);
      });
    },
    close: async () => {
      limit.clearQueue();
      await provider.close?.();
    },
  };
}
