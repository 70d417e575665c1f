/**
 * Deadlines checked without guessing how fast the machine is.
 *
 * `settlesWithin(promise, ms)` tells whether `promise` settled before a reference timer of `ms`,
 * started now, fired. Node runs due timers in the order of their expiry and settles the promises
 * a timer callback resolves before it runs the next timer. So when the code under test armed its
 * own deadline before this call (wait until its request has reached the fake server, for
 * example) and that deadline is shorter than `ms`, a timer-driven cut-off always wins, however
 * late a busy machine runs both timers; only a deadline that is missing, longer, or re-armed
 * later loses. `settlesWithin(call, timeoutMs + 50)` checks "abandoned within its timeout + 50 ms"
 * on any machine.
 */
export function settlesWithin(promise: Promise<unknown>, ms: number): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<boolean>((resolve) => {
    timer = setTimeout(resolve, ms, false);
  });
  const settled = promise.then(
    () => true,
    () => true,
  );
  return Promise.race([settled, late]).finally(() => clearTimeout(timer));
}

/** Keeps the event loop busy for `ms` milliseconds (a stalled, overloaded process). */
export function blockFor(ms: number): void {
  const end = performance.now() + ms;
  while (performance.now() < end) {
    // spin
  }
}

/** A promise the test resolves when it chooses: a fake upstream that answers when released. */
export function gate(): { readonly opened: Promise<void>; open(): void } {
  let open = () => {};
  const opened = new Promise<void>((resolve) => {
    open = resolve;
  });
  return { opened, open };
}

/**
 * Resolves once `ready()` holds, checking after each turn of the event loop: waits for something
 * the code under test does (a request reached a fake), with no time limit of its own (the test's
 * limit still applies).
 */
export async function until(ready: () => boolean): Promise<void> {
  while (!ready()) await new Promise((resolve) => setImmediate(resolve));
}

/** A function that tells whether `promise` has settled yet. */
export function settled(promise: Promise<unknown>): () => boolean {
  let done = false;
  const mark = () => {
    done = true;
  };
  promise.then(mark, mark);
  return () => done;
}
