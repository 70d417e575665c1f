import type { TrajectoryEvent } from '../src/guidance/index.js';

/**
 * A realistic agent session for the guidance benchmarks, generated from a fixed seed: turns with
 * one call or several parallel ones, mostly successful reads, searches, edits and test runs with
 * outputs from a line to tens of kilobytes, failures with noisy messages, stretches of a retry
 * loop, and pending calls (some with secrets in their params). Turns are announced with `turn`
 * events without numbers, so the list can be replayed in a cycle for ever.
 */
export function agentSession(calls: number, seed = 42): TrajectoryEvent[] {
  let state = seed >>> 0;
  const random = () => {
    state = (Math.imul(state, 1664525) + 1013904223) >>> 0;
    return state / 0x100000000;
  };
  const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)]!;
  const output = () => {
    const r = random();
    const size = r < 0.7 ? 200 : r < 0.97 ? 2_000 : 20_000;
    return 'const value = compute(input); // line of source\n'
      .repeat(Math.ceil(size / 50))
      .slice(0, size);
  };
  const params = (tool: string, n: number): Record<string, unknown> => {
    switch (tool) {
      case 'bash':
        return { cmd: `npm test -- --shard ${n % 4}`, timeout: 120 };
      case 'grep':
      case 'search':
        return {
          pattern: pick(['TODO', 'export function', 'apiClient', 'parseConfig']),
          path: 'src',
        };
      case 'http_post':
        return { url: 'https://api.example.com/v1/items', headers: { authorization: 'Bearer x' } };
      default:
        return { path: `src/module${n % 37}/file${n % 11}.ts`, offset: (n % 5) * 100 };
    }
  };
  const events: TrajectoryEvent[] = [];
  let made = 0;
  let id = 0;
  while (made < calls) {
    events.push({ type: 'turn' });
    const r = random();
    if (r < 0.12) {
      // A retry loop: test fails, edit, test fails again …
      for (let k = 0; k < 4 && made < calls; k++, made++) {
        const tool = k % 2 === 0 ? 'bash' : 'edit';
        const success = tool === 'edit';
        events.push({
          type: 'tool_invoked',
          tool,
          params: params(tool, made),
          result: success
            ? { success, message: 'edited' }
            : {
                success,
                message: `FAIL src/a.test.ts:${made % 90} expected ${made} received ${made + 1}`,
              },
        });
        if (k < 3) events.push({ type: 'turn' });
      }
      continue;
    }
    const parallel = r < 0.35 ? 2 + Math.floor(random() * 3) : 1;
    const batch: string[] = [];
    for (let k = 0; k < parallel && made < calls; k++, made++) {
      const tool = pick([
        'read_file',
        'read_file',
        'grep',
        'search',
        'edit',
        'bash',
        'write_file',
        'http_post',
      ]);
      const callId = `c${++id}`;
      batch.push(callId);
      events.push({ type: 'tool_call', callId, tool, params: params(tool, made) });
    }
    for (const callId of batch) {
      const failed = random() < 0.15;
      events.push({
        type: 'tool_result',
        callId,
        result: failed
          ? {
              success: false,
              message: `Error: ENOENT: no such file or directory, open '/tmp/build-${id}/out.log'`,
            }
          : { success: true, message: output() },
      });
    }
  }
  return events;
}
