import type { CallModelInputFilter } from '@openai/agents';
import type { Guidance } from '../../guidance/engine.js';
import {
  GuidanceFeed,
  type GuidanceFeedOptions,
  type GuidanceSetting,
  guidanceText,
} from '../shared/guidance-feed.js';

/** Options of {@link triageGuidance}. */
export interface TriageGuidanceOptions extends GuidanceFeedOptions {
  /** An engine, its options, or `true` (default) for the default providers. */
  readonly guidance?: GuidanceSetting;
}

/** Guidance for one agent run (see {@link triageGuidance}). */
export interface TriageGuidance {
  /** The feed of trajectory events and the guidance engine behind it. */
  readonly feed: GuidanceFeed;
  /**
   * Listens to a runner's (or any `RunHooks`') tool starts and ends and feeds them to guidance.
   * Returns a function that stops listening.
   */
  attach(hooks: HookEmitter): () => void;
  /**
   * The run's `callModelInputFilter`: before each model call it marks a new turn and adds the
   * guidance fired since the last call to the instructions of that call.
   */
  readonly callModelInputFilter: CallModelInputFilter;
}

/**
 * Guidance in an OpenAI Agents SDK run: run hooks feed each tool call and its result to a guidance
 * engine (parallel tool calls included: the engine queues them in order), and the run's
 * `callModelInputFilter` puts the nudges (a doom loop, an error streak, …) into the instructions
 * of the next model call.
 *
 * ```ts
 * const guide = triageGuidance({ onGuidance: (g) => log(g.provider) });
 * const runner = new Runner();
 * guide.attach(runner);
 * await runner.run(agent, task, { callModelInputFilter: guide.callModelInputFilter });
 * ```
 *
 * One per run: the engine follows one trajectory.
 */
export function triageGuidance(options: TriageGuidanceOptions = {}): TriageGuidance {
  const feed = new GuidanceFeed(options.guidance ?? true, options);
  // (context, agent, tool, { toolCall }) and (context, agent, tool, result, { toolCall })
  const onStart = (
    _context: unknown,
    _agent: unknown,
    tool: { name: string },
    details: Details,
  ) => {
    feed.call(callIdOf(details.toolCall), tool.name, details.toolCall.arguments);
  };
  const onEnd = (_c: unknown, _a: unknown, _t: unknown, result: unknown, details: Details) => {
    feed.result(callIdOf(details.toolCall), true, result);
  };
  const callModelInputFilter: CallModelInputFilter = async ({ modelData }) => {
    const fired = await feed.take();
    feed.turn();
    if (fired.length === 0) return modelData;
    return { ...modelData, instructions: withNudge(modelData.instructions, fired) };
  };
  return {
    feed,
    callModelInputFilter,
    attach(hooks) {
      hooks.on('agent_tool_start', onStart);
      hooks.on('agent_tool_end', onEnd);
      return () => {
        hooks.off('agent_tool_start', onStart);
        hooks.off('agent_tool_end', onEnd);
      };
    },
  };
}

/** What `attach` needs of a `Runner` (or of any `RunHooks`): its events. */
export interface HookEmitter {
  // biome-ignore lint/suspicious/noExplicitAny: the SDK's listeners are typed per event
  on(type: 'agent_tool_start' | 'agent_tool_end', listener: (...args: any[]) => void): unknown;
  // biome-ignore lint/suspicious/noExplicitAny: as above
  off(type: 'agent_tool_start' | 'agent_tool_end', listener: (...args: any[]) => void): unknown;
}

interface Details {
  readonly toolCall: {
    readonly callId?: string;
    readonly id?: string;
    readonly arguments?: unknown;
  };
}

function callIdOf(call: Details['toolCall']): string {
  return call.callId ?? call.id ?? 'call';
}

function withNudge(instructions: string | undefined, fired: readonly Guidance[]): string {
  const text = guidanceText(fired);
  return instructions === undefined || instructions === '' ? text : `${instructions}\n\n${text}`;
}
