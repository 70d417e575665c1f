import { TrajectoryBuilder, type TrajectoryBuilderOptions } from './builder.js';
import type { GuidanceContext, ToolInvokedEvent, TrajectoryEvent } from './types.js';

/** Shared fixtures of the guidance tests. */

/** A builder with `events` applied, on a fixed clock. */
export function builderOf(
  events: readonly TrajectoryEvent[],
  options: TrajectoryBuilderOptions = {},
): TrajectoryBuilder {
  const builder = new TrajectoryBuilder({ now: () => 1_700_000_000_000, ...options });
  for (const event of events) builder.onEvent(event);
  return builder;
}

/** The context of a builder with `events` applied. */
export function contextOf(events: readonly TrajectoryEvent[]): GuidanceContext {
  return builderOf(events).context;
}

/** A call and its result in one event. */
function invoked(
  success: boolean,
  tool: string,
  params: Record<string, unknown>,
  message: string,
  turn: number | undefined,
): ToolInvokedEvent {
  return {
    type: 'tool_invoked',
    tool,
    params,
    result: { success, message },
    ...(turn === undefined ? {} : { turn }),
  };
}

/** A successful call and its result in one event. */
export const ok = (
  tool: string,
  params: Record<string, unknown> = {},
  message = 'ok',
  turn?: number,
) => invoked(true, tool, params, message, turn);

/** A failed call and its result in one event. */
export const fail = (
  tool: string,
  params: Record<string, unknown> = {},
  message = 'failed',
  turn?: number,
) => invoked(false, tool, params, message, turn);

/** the original design's `build_context_with_errors(count)`: `count` failures after one success. */
export function contextWithErrors(count: number): GuidanceContext {
  const events: TrajectoryEvent[] = [ok('read_file', { path: 'a.ts' })];
  for (let i = 0; i < count; i++) events.push(fail('bash', { cmd: `make ${i}` }, `exit ${i}`));
  return contextOf(events);
}
