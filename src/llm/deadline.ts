import { withDeadline } from '../core/deadline.js';
import { isTimeoutError, LlmTimeoutError } from '../core/errors.js';

/**
 * `withDeadline` for an LLM call: the same strict cut-off, but a call that runs out of time rejects
 * with an {@link LlmTimeoutError} naming the provider. An abort of `outer` still rejects with the
 * outer signal's own reason, even when that reason is itself a timeout (a caller's deadline).
 */
export async function llmDeadline<T>(
  provider: string,
  timeoutMs: number,
  outer: AbortSignal | undefined,
  work: (signal: AbortSignal) => Promise<T>,
): Promise<T> {
  try {
    return await withDeadline(work, timeoutMs, `${provider} LLM call`, outer);
  } catch (error) {
    const outerReason = outer?.aborted ? outer.reason : undefined;
    if (isTimeoutError(error) && !(error instanceof LlmTimeoutError) && error !== outerReason) {
      throw new LlmTimeoutError(provider, timeoutMs);
    }
    throw error;
  }
}
