import type {
  InputGuardrail,
  ToolGuardrailFunctionOutput,
  ToolOutputGuardrailDefinition,
} from '@openai/agents';
import {
  AdapterInjectionScreen,
  type InjectionFinding,
  type InjectionScreenOptions,
  injectionAction,
} from '../shared/injection-screen.js';
import { chatRequestOf, outputText } from './input.js';

/**
 * Prompt-injection guardrails for the OpenAI Agents SDK: the input of a run, and the output of
 * each tool before the model reads it, screened by the front door's injection part against the
 * agent's instructions. With `action: 'throw'` (the default) a risky text trips the SDK's own
 * wire (`InputGuardrailTripwireTriggered`, `ToolOutputGuardrailTripwireTriggered`); with `flag`
 * the run goes on and `onFinding` and the guardrail's `outputInfo` report it.
 */

/** The agent's instructions when they are a string (what the screen judges requests against). */
function instructionsOf(agent: { instructions?: unknown } | undefined): string | undefined {
  return typeof agent?.instructions === 'string' ? agent.instructions : undefined;
}

/** A screen that reports; the guardrails decide how the SDK acts on it. */
function reportingScreen(options: InjectionScreenOptions): {
  screen: AdapterInjectionScreen;
  trips: boolean;
} {
  return {
    screen: new AdapterInjectionScreen({ ...options, action: 'flag' }),
    trips: injectionAction(options) === 'throw',
  };
}

/**
 * An input guardrail screening the run's input (the user's message, and tool results in a
 * resumed conversation). It blocks the agent until it has answered (`runInParallel: false`), so a
 * risky input never reaches the model.
 *
 * ```ts
 * const agent = new Agent({ name: 'helper', instructions, inputGuardrails: [injectionInputGuardrail()] });
 * ```
 */
export function injectionInputGuardrail(options: InjectionScreenOptions = {}): InputGuardrail {
  const { screen, trips } = reportingScreen(options);
  return {
    name: 'triage_injection',
    runInParallel: false,
    async execute({ input, agent }) {
      const finding = await screen.screen(chatRequestOf(input, instructionsOf(agent)));
      return { tripwireTriggered: trips && finding?.acts === true, outputInfo: finding ?? null };
    },
  };
}

/**
 * A tool-output guardrail screening what a tool returned before the model reads it. Give it to
 * each tool that brings outside text in (`tool({ …, outputGuardrails: [guard] })`).
 */
export function injectionToolOutputGuardrail(
  options: InjectionScreenOptions = {},
): ToolOutputGuardrailDefinition {
  const { screen, trips } = reportingScreen(options);
  return {
    type: 'tool_output',
    name: 'triage_injection',
    async run({ output, agent }): Promise<ToolGuardrailFunctionOutput> {
      const system = instructionsOf(agent);
      const request = {
        messages: [
          ...(system === undefined ? [] : [{ role: 'system', content: system }]),
          { role: 'tool', content: outputText(output) },
        ],
      };
      const finding: InjectionFinding | undefined = await screen.screen(request);
      if (trips && finding?.acts === true) {
        return { behavior: { type: 'throwException' }, outputInfo: finding };
      }
      return { behavior: { type: 'allow' }, outputInfo: finding ?? null };
    },
  };
}
