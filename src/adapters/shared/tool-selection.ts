import type { CapabilitySelection } from '../../capabilities/selection.js';
import { ConfigError } from '../../core/errors.js';
import type { Triage, TriageDecision } from '../../triage.js';

/**
 * Capability selection for a tool-calling agent: the front door's capabilities part picks the
 * capabilities a task needs, and each capability stands for tools (by default the tool of the
 * same name). The tools of the capabilities not selected are off for the step.
 */

/** Options of tool narrowing by capability. */
export interface ToolSelectionOptions {
  /** A front door with a capabilities part (`createTriage({ capabilities: { registry } })`). */
  readonly triage: Triage;
  /**
   * The tools of each capability; a capability not listed stands for the tool of its name. Tools
   * every task needs belong to an `alwaysActive` capability.
   */
  readonly tools?: Readonly<Record<string, readonly string[]>>;
  /** Told about each selection. */
  readonly onSelection?: (selection: CapabilitySelection) => void;
}

const CAPABILITIES_ONLY = { parts: ['capabilities'] } as const;

/** Picks the tools a task needs (see the module comment). */
export class ToolSelector {
  readonly #triage: Triage;
  readonly #tools: Readonly<Record<string, readonly string[]>>;
  readonly #onSelection: ((selection: CapabilitySelection) => void) | undefined;

  constructor(options: ToolSelectionOptions, where: string) {
    if (options.triage?.capabilities === undefined) {
      throw new ConfigError(where, [
        { path: '/tools/triage', message: 'needs a triage with a capabilities registry' },
      ]);
    }
    this.#triage = options.triage;
    this.#tools = options.tools ?? {};
    this.#onSelection = options.onSelection;
  }

  /** The names of the tools the task needs (asynchronous only when the LLM is asked). */
  select(task: string, signal?: AbortSignal): string[] | Promise<string[]> {
    const local = this.#triage.classify(task, CAPABILITIES_ONLY);
    if (!local.capabilities!.needsLlm) return this.#toolsOf(local);
    return this.#triage
      .decide(task, { ...CAPABILITIES_ONLY, from: local, ...(signal ? { signal } : {}) })
      .then((decided) => this.#toolsOf(decided));
  }

  #toolsOf(decision: TriageDecision): string[] {
    const selection = decision.capabilities!;
    this.#onSelection?.(selection);
    const tools: string[] = [];
    for (const capability of selection.selected) {
      for (const tool of this.#tools[capability] ?? [capability]) {
        if (!tools.includes(tool)) tools.push(tool);
      }
    }
    return tools;
  }
}
