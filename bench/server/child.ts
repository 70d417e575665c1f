import { PerformanceObserver } from 'node:perf_hooks';

/** What a child process of the server benchmark reports when asked. */
export interface ChildUsage {
  /** CPU microseconds used so far (user and system). */
  readonly cpuUs: number;
  /** The garbage collector's pauses (ms) since the previous report. */
  readonly gcPausesMs: readonly number[];
}

/**
 * Tells the parent (`latency.ts`) that this child is ready, answers its `usage` messages with a
 * {@link ChildUsage}, and closes when the parent goes away. Garbage-collection pauses stop the
 * event loop, so they are a direct source of tail latency: each is kept until the next report.
 */
export function reportToParent(ready: { port: number }, close: () => unknown): void {
  let pauses: number[] = [];
  const observer = new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) pauses.push(entry.duration);
  });
  observer.observe({ entryTypes: ['gc'] });
  process.send?.(ready);
  process.on('message', (message: { type?: string }) => {
    if (message.type !== 'usage') return;
    const { user, system } = process.cpuUsage();
    const usage: ChildUsage = { cpuUs: user + system, gcPausesMs: pauses };
    pauses = [];
    process.send?.(usage);
  });
  process.on('disconnect', () => {
    observer.disconnect();
    void Promise.resolve(close()).then(() => process.exit(0));
  });
}
