/**
 * Polls `condition` every 20 ms until it holds, for what another process or a background task
 * does (Redis returning, a write landing, a log line written): rejects naming `what` after a
 * generous `limitMs`, so that a busy machine is never mistaken for a failure, and nothing about
 * timing is asserted.
 */
export async function poll(
  condition: () => boolean | Promise<boolean>,
  what: string,
  limitMs = 20_000,
): Promise<void> {
  const started = Date.now();
  while (!(await condition())) {
    if (Date.now() - started > limitMs) throw new Error(`still waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}
