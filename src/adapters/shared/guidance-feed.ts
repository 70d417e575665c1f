import { createGuidance, type GuidanceOptions } from '../../guidance/create.js';
import type { Guidance, GuidanceEngine } from '../../guidance/engine.js';
import type { TrajectoryEvent } from '../../guidance/types.js';

/**
 * What every adapter does with guidance: turn its framework's tool events into trajectory events,
 * give them to one guidance engine (which queues concurrent events in order, so parallel tool
 * callbacks need no serialising here), and keep the guidance that fired until the next model call
 * takes it.
 */

/** An engine, or the options to build one (`createGuidance`), or `true` for the defaults. */
export type GuidanceSetting = GuidanceEngine | GuidanceOptions | true;

/** Options of the guidance an adapter feeds. */
export interface GuidanceFeedOptions {
  /** Told about each guidance as it fires (before a model call takes it). */
  readonly onGuidance?: (guidance: Guidance) => void;
  /** Told about an event the trajectory refused (a result without its call, …); it is skipped. */
  readonly onEventError?: (error: unknown) => void;
}

/** The engine of a setting: the one given, or a new one (one per agent session). */
export function guidanceEngineOf(setting: GuidanceSetting): GuidanceEngine {
  if (setting === true) return createGuidance();
  return typeof (setting as GuidanceEngine).decide === 'function'
    ? (setting as GuidanceEngine)
    : createGuidance(setting as GuidanceOptions);
}

/** One session's feed of events into a guidance engine, and the guidance waiting to be taken. */
export class GuidanceFeed {
  readonly engine: GuidanceEngine;
  readonly #options: GuidanceFeedOptions;
  #waiting: Guidance[] = [];
  #inFlight: Promise<unknown>[] = [];

  constructor(setting: GuidanceSetting, options: GuidanceFeedOptions = {}) {
    this.engine = guidanceEngineOf(setting);
    this.#options = options;
  }

  /** Submits an event; what fires waits for {@link take}. Never rejects. */
  push(event: TrajectoryEvent): void {
    const decided = this.engine.decide(event).then(
      (fired) => {
        for (const guidance of fired) {
          this.#waiting.push(guidance);
          this.#options.onGuidance?.(guidance);
        }
      },
      (error: unknown) => this.#options.onEventError?.(error),
    );
    this.#inFlight.push(decided);
  }

  /** A model response begins. */
  turn(): void {
    this.push({ type: 'turn' });
  }

  /** The model requested a tool call. */
  call(callId: string, tool: string, params: unknown): void {
    this.push({ type: 'tool_call', callId, tool, params: paramsOf(params) });
  }

  /** A requested call returned (`success: false` for an error). */
  result(callId: string, success: boolean, output: unknown): void {
    this.push({ type: 'tool_result', callId, result: { success, message: textOf(output) } });
  }

  /** A call and its result at once. */
  invoked(callId: string, tool: string, params: unknown, success: boolean, output: unknown): void {
    this.push({
      type: 'tool_invoked',
      callId,
      tool,
      params: paramsOf(params),
      result: { success, message: textOf(output) },
    });
  }

  /**
   * The guidance fired since the last call, once every event submitted so far was evaluated;
   * each guidance is returned once.
   */
  async take(): Promise<Guidance[]> {
    while (this.#inFlight.length > 0) {
      const inFlight = this.#inFlight;
      this.#inFlight = [];
      await Promise.all(inFlight);
    }
    const taken = this.#waiting;
    this.#waiting = [];
    return taken;
  }

  /** Starts a new session: the trajectory and what was waiting are dropped. */
  reset(): void {
    this.engine.reset();
    this.#waiting = [];
  }
}

/** The guidance messages, as one text to add to a model's context. */
export function guidanceText(fired: readonly Guidance[]): string {
  return fired.map((g) => g.message).join('\n\n');
}

function paramsOf(params: unknown): Readonly<Record<string, unknown>> {
  if (typeof params === 'object' && params !== null && !Array.isArray(params)) {
    return params as Record<string, unknown>;
  }
  if (typeof params === 'string') {
    try {
      const parsed: unknown = JSON.parse(params);
      if (typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed)) {
        return parsed as Record<string, unknown>;
      }
    } catch {
      // not JSON: kept as the one argument
    }
    return { input: params };
  }
  return params === undefined ? {} : { input: params };
}

/** A tool's output as the text the model reads. */
export function textOf(output: unknown): string {
  if (typeof output === 'string') return output;
  if (output instanceof Error) return output.message;
  if (output === undefined || output === null) return '';
  try {
    return JSON.stringify(output) ?? String(output);
  } catch {
    return String(output);
  }
}
