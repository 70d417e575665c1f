import { DecisionTimeoutError } from './errors.js';

/**
 * Runs `work` under a strict time limit. At `timeoutMs` the signal given to `work` is aborted and
 * the returned promise rejects with a {@link DecisionTimeoutError} at once, whether or not `work`
 * honours the signal: a caller is never kept waiting past its deadline. An abort of `outer`
 * (e.g. the client went away) aborts `work` and rejects with the outer reason.
 *
 * A late rejection of an abandoned `work` promise is swallowed, so it can never surface as an
 * unhandled rejection.
 */
export function withDeadline<T>(
  work: (signal: AbortSignal) => Promise<T>,
  timeoutMs: number,
  what: string,
  outer?: AbortSignal,
): Promise<T> {
  if (outer?.aborted) return Promise.reject(abortReason(outer));
  const controller = new AbortController();
  return new Promise<T>((resolve, reject) => {
    let settled = false;
    const finish = () => {
      settled = true;
      clearTimeout(timer);
      outer?.removeEventListener('abort', onOuterAbort);
    };
    const timer = setTimeout(() => {
      if (settled) return;
      finish();
      const error = new DecisionTimeoutError(what, timeoutMs);
      controller.abort(error);
      reject(error);
    }, timeoutMs);
    const onOuterAbort = () => {
      if (settled) return;
      finish();
      const reason = abortReason(outer as AbortSignal);
      controller.abort(reason);
      reject(reason);
    };
    outer?.addEventListener('abort', onOuterAbort, { once: true });
    let pending: Promise<T>;
    try {
      pending = work(controller.signal);
    } catch (error) {
      finish();
      reject(error);
      return;
    }
    pending.then(
      (value) => {
        if (settled) return;
        finish();
        resolve(value);
      },
      (error: unknown) => {
        if (settled) return;
        finish();
        reject(error);
      },
    );
  });
}

function abortReason(signal: AbortSignal): unknown {
  return signal.reason ?? new DOMException('The operation was aborted', 'AbortError');
}
