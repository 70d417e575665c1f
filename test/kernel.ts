import { readFileSync } from 'node:fs';

/**
 * The kernel's cap on a listen backlog: `net.core.somaxconn` on Linux (4096 on recent kernels,
 * 128 on older ones), 128 where it cannot be read. A server asked for a longer queue silently
 * gets this one; connections that arrive while the queue is full are reset or dropped, a limit of
 * the machine rather than of the server under test. Load tests size their bursts to fit.
 */
export function listenBacklogCap(): number {
  try {
    const value = Number(readFileSync('/proc/sys/net/core/somaxconn', 'utf8').trim());
    return Number.isInteger(value) && value > 0 ? value : 128;
  } catch {
    return 128;
  }
}
