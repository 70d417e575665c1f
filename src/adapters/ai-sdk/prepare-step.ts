import type { ModelMessage, PrepareStepFunction, PrepareStepResult, StepResult, ToolSet } from 'ai';
import type { Guidance } from '../../guidance/engine.js';
import { lastUserText } from '../../triage-request.js';
import {
  GuidanceFeed,
  type GuidanceFeedOptions,
  type GuidanceSetting,
  guidanceText,
} from '../shared/guidance-feed.js';
import { type ToolSelectionOptions, ToolSelector } from '../shared/tool-selection.js';

/** Options of {@link triagePrepareStep}. */
export interface TriagePrepareStepOptions extends GuidanceFeedOptions {
  /** Narrow the tools of each step to the task's capabilities (`activeTools`). */
  readonly tools?: ToolSelectionOptions;
  /**
   * Guidance from the steps so far: an engine, its options, or `true` for the default providers.
   * The engine follows one loop: a step 0 starts a new session.
   */
  readonly guidance?: GuidanceSetting;
  /**
   * Where a nudge goes: `system` (default) adds it to the step's instructions, for this step only;
   * `messages` appends it as a user message, which stays in the conversation.
   */
  readonly placement?: 'system' | 'messages';
}

/** The `prepareStep` of one tool loop, with the guidance it feeds (see {@link triagePrepareStep}). */
export interface TriagePrepareStep {
  /** A `PrepareStepFunction` of any tool set. */
  <TOOLS extends ToolSet>(step: StepOptions<TOOLS>): Promise<PrepareStepResult<TOOLS>>;
  /** The guidance feed, when guidance is on. */
  readonly feed: GuidanceFeed | undefined;
}

type StepOptions<TOOLS extends ToolSet> = Parameters<PrepareStepFunction<TOOLS>>[0];
type Step<TOOLS extends ToolSet> = NonNullable<PrepareStepResult<TOOLS>>;

/**
 * A `prepareStep` for `generateText` / `streamText` / `ToolLoopAgent` tool loops: each step gets
 * the tools of the task's capabilities as `activeTools`, and the guidance the steps so far
 * triggered (a doom loop, an error streak, …) as a nudge in its instructions or messages.
 *
 * ```ts
 * const { text } = await generateText({
 *   model, tools, stopWhen: stepCountIs(10),
 *   prepareStep: triagePrepareStep({ guidance: true, tools: { triage } }),
 *   prompt: 'Find the failing test and fix it',
 * });
 * ```
 *
 * One per loop: the guidance engine follows one trajectory (a step 0 starts it again).
 */
export function triagePrepareStep(options: TriagePrepareStepOptions = {}): TriagePrepareStep {
  const selector =
    options.tools === undefined ? undefined : new ToolSelector(options.tools, 'triagePrepareStep');
  const feed =
    options.guidance === undefined ? undefined : new GuidanceFeed(options.guidance, options);
  const placement = options.placement ?? 'system';
  let fed = 0; // steps given to the engine
  const prepare = async <TOOLS extends ToolSet>(
    step: StepOptions<TOOLS>,
  ): Promise<PrepareStepResult<TOOLS>> => {
    let result: Step<TOOLS> | undefined;
    if (selector !== undefined) {
      const task = lastUserText({ messages: step.initialMessages });
      result = { activeTools: (await selector.select(task)) as Step<TOOLS>['activeTools'] };
    }
    if (feed !== undefined) {
      if (step.stepNumber === 0 && fed > 0) {
        feed.reset();
        fed = 0;
      }
      for (; fed < step.steps.length; fed++) feedStep(feed, step.steps[fed]!);
      const fired = await feed.take();
      if (fired.length > 0) result = Object.assign(result ?? {}, nudge(step, fired, placement));
    }
    return result;
  };
  return Object.assign(prepare, { feed });
}

/** A finished step as trajectory events: a turn, its calls, their results or errors. */
function feedStep<TOOLS extends ToolSet>(feed: GuidanceFeed, step: StepResult<TOOLS>): void {
  feed.turn();
  for (const call of step.toolCalls) feed.call(call.toolCallId, call.toolName, call.input);
  for (const part of step.content) {
    if (part.type === 'tool-result') feed.result(part.toolCallId, true, part.output);
    else if (part.type === 'tool-error') feed.result(part.toolCallId, false, part.error);
  }
}

function nudge<TOOLS extends ToolSet>(
  step: StepOptions<TOOLS>,
  fired: readonly Guidance[],
  placement: 'system' | 'messages',
): Step<TOOLS> {
  const text = guidanceText(fired);
  if (placement === 'messages') {
    const message: ModelMessage = { role: 'user', content: text };
    return { messages: [...step.messages, message] };
  }
  const { instructions } = step;
  if (instructions === undefined) return { instructions: text };
  if (typeof instructions === 'string') return { instructions: `${instructions}\n\n${text}` };
  const list = Array.isArray(instructions) ? instructions : [instructions];
  return { instructions: [...list, { role: 'system', content: text }] };
}
