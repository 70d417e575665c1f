import { BaseCallbackHandler } from '@langchain/core/callbacks/base';
import type { Serialized } from '@langchain/core/load/serializable';
import type { Guidance } from '../../guidance/engine.js';
import {
  GuidanceFeed,
  type GuidanceFeedOptions,
  type GuidanceSetting,
  guidanceText,
} from '../shared/guidance-feed.js';
import { TIER_MODEL_TAG } from './tier-model-tag.js';

/** Options of {@link TriageGuidanceHandler}. */
export interface TriageGuidanceHandlerOptions extends GuidanceFeedOptions {
  /** An engine, its options, or `true` (default) for the default providers. */
  readonly guidance?: GuidanceSetting;
}

/**
 * A LangChain callback handler that feeds an agent's tool starts, ends and errors to a guidance
 * engine (parallel tool runs included: the engine queues them in order), each chat-model call
 * marking a new turn. The guidance that fires waits for the next model call: give the handler
 * to `TriageChatModel` (`guidance: handler`), or take it yourself with {@link nudge}.
 *
 * ```ts
 * const guide = new TriageGuidanceHandler();
 * const model = new TriageChatModel({ tiers, guidance: guide });
 * await agent.invoke({ messages }, { callbacks: [guide] });
 * ```
 *
 * One per agent run: the engine follows one trajectory.
 */
export class TriageGuidanceHandler extends BaseCallbackHandler {
  name = 'triage_guidance';
  /** In order, before the run goes on: the next model call must see what the tools did. */
  override awaitHandlers = true;
  readonly feed: GuidanceFeed;

  constructor(options: TriageGuidanceHandlerOptions = {}) {
    super();
    this.feed = new GuidanceFeed(options.guidance ?? true, options);
  }

  override handleChatModelStart(
    _llm: Serialized,
    _messages: unknown,
    _runId: string,
    _parentRunId?: string,
    _extraParams?: Record<string, unknown>,
    tags?: string[],
  ): void {
    // The tier model a TriageChatModel calls answers the same turn as the router's own run.
    if (!tags?.includes(TIER_MODEL_TAG)) this.feed.turn();
  }

  override handleToolStart(
    tool: Serialized,
    input: string,
    runId: string,
    _parentRunId?: string,
    _tags?: string[],
    _metadata?: Record<string, unknown>,
    runName?: string,
  ): void {
    this.feed.call(runId, runName ?? tool.id.at(-1) ?? 'tool', input);
  }

  override handleToolEnd(output: unknown, runId: string): void {
    const content = (output as { content?: unknown } | null)?.content;
    this.feed.result(runId, true, content ?? output);
  }

  override handleToolError(error: unknown, runId: string): void {
    this.feed.result(runId, false, error);
  }

  /** The guidance fired since the last call (each once), after every event so far was evaluated. */
  take(): Promise<Guidance[]> {
    return this.feed.take();
  }

  /** The text to add to the next model call, or `undefined` when nothing fired. */
  async nudge(): Promise<string | undefined> {
    const fired = await this.take();
    return fired.length === 0 ? undefined : guidanceText(fired);
  }
}
