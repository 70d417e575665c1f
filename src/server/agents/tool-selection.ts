import { createHash } from 'node:crypto';
import { LRUCache } from 'lru-cache';
import type { CapabilityInput, ClassifierExample } from '../../capabilities/capability.js';
import {
  LOCAL_DECISION_CONFIDENCE,
  type PrematcherOptions,
} from '../../capabilities/prematcher.js';
import { type CapabilitySelection, CapabilitySelector } from '../../capabilities/selection.js';
import type { LlmProvider } from '../../llm/types.js';
import type { AgentToolsSection } from './agents-config.js';

/**
 * Tool selection for agent requests: agents send every tool definition on every call; the
 * capability selector, with each tool's name and description as a capability, keeps the ones the
 * task needs. What is never removed: a tool already called in the conversation (the model may be
 * in the middle of using it), a tool named by `tool_choice`, the always-keep list, and any tool
 * the selector could not rule out with confidence (unsure, no LLM: kept, the safe side).
 *
 * The wire format is the caller's business: this module takes `{ name, description }` pairs and
 * answers which names to keep, so the chat and messages endpoints share it.
 */

/** A tool as the selector sees it. */
export interface ToolInfo {
  readonly name: string;
  readonly description: string;
}

/** What the conversation says must be kept. */
export interface ToolUse {
  /** The task: the last user message's text. */
  readonly task: string;
  /** Tools called anywhere in the conversation. */
  readonly called: ReadonlySet<string>;
  /** A tool the request forces (`tool_choice`). */
  readonly forced: string | undefined;
}

/** The outcome of a selection. */
export interface ToolChoice {
  /** Indexes of the tools kept, in the request's order. */
  readonly kept: readonly number[];
  readonly total: number;
  /** Why nothing was removed, when nothing was. */
  readonly keptAllBecause?: 'few_tools' | 'no_task' | 'invalid_tools' | 'nothing_ruled_out';
  /** Whether the LLM was asked. */
  readonly llm: boolean;
}

/** Longest tool description given to the selector (the schema's limit). */
const MAX_DESCRIPTION = 2_000;
/** Longest example (the schema's limit). */
const MAX_EXAMPLE = 2_000;
const NAME = /^[A-Za-z0-9_][A-Za-z0-9_.:-]{0,63}$/;

/** Chooses tools; one per server, its compiled selectors cached by tool list. */
export class ToolSelection {
  readonly #section: AgentToolsSection;
  readonly #llm: LlmProvider | undefined;
  readonly #alwaysKeep: ReadonlySet<string>;
  /** Compiled selectors by tool-list hash; `null`: the list cannot be selected from. */
  readonly #selectors: LRUCache<string, CapabilitySelector | { invalid: true }>;

  constructor(section: AgentToolsSection, llm: LlmProvider | undefined) {
    this.#section = section;
    this.#llm = section.llm ? llm : undefined;
    this.#alwaysKeep = new Set(section.alwaysKeep);
    this.#selectors = new LRUCache({ max: section.cacheSize });
  }

  /** Which tools to keep; a promise only when the LLM is asked about unsure tools. */
  choose(
    tools: readonly ToolInfo[],
    use: ToolUse,
    options: { signal?: AbortSignal; deadlineMs?: number } = {},
  ): ToolChoice | Promise<ToolChoice> {
    const total = tools.length;
    if (total < this.#section.minTools) return all(total, 'few_tools');
    if (use.task.trim() === '') return all(total, 'no_task');
    const selector = this.#selectorFor(tools);
    if (!(selector instanceof CapabilitySelector)) return all(total, 'invalid_tools');
    let local: CapabilitySelection;
    try {
      local = selector.classify(use.task);
    } catch {
      return all(total, 'nothing_ruled_out'); // a task the selector refuses: forward all
    }
    if (!local.needsLlm) return this.#kept(tools, use, local, false);
    return selector
      .decide(use.task, options)
      .then((decided) => this.#kept(tools, use, decided, true))
      .catch(() => all(total, 'nothing_ruled_out'));
  }

  #kept(
    tools: readonly ToolInfo[],
    use: ToolUse,
    selection: CapabilitySelection,
    llm: boolean,
  ): ToolChoice {
    const ruledOut = new Set<string>();
    for (const decision of selection.decisions) {
      if (decision.selected) continue;
      const confident =
        decision.source === 'llm' ||
        decision.source === 'cached' ||
        (decision.source === 'local' && decision.confidence >= LOCAL_DECISION_CONFIDENCE);
      if (confident) ruledOut.add(decision.name);
    }
    const kept: number[] = [];
    for (let i = 0; i < tools.length; i++) {
      const { name } = tools[i]!;
      const keep =
        !ruledOut.has(name) ||
        use.called.has(name) ||
        use.forced === name ||
        this.#alwaysKeep.has(name);
      if (keep) kept.push(i);
    }
    if (kept.length === tools.length) return all(tools.length, 'nothing_ruled_out', llm);
    return { kept, total: tools.length, llm };
  }

  #selectorFor(tools: readonly ToolInfo[]): CapabilitySelector | { invalid: true } {
    const hash = createHash('sha1');
    for (const tool of tools)
      hash.update(tool.name).update('\0').update(tool.description).update('\0');
    const key = hash.digest('base64');
    let selector = this.#selectors.get(key);
    if (selector === undefined) {
      selector = this.#build(tools);
      this.#selectors.set(key, selector);
    }
    return selector;
  }

  #build(tools: readonly ToolInfo[]): CapabilitySelector | { invalid: true } {
    const names = new Set<string>();
    const capabilities: CapabilityInput[] = [];
    for (const tool of tools) {
      // Names the registry refuses, or twice the same name: not ours to judge; forward all.
      if (!NAME.test(tool.name) || names.has(tool.name)) return { invalid: true };
      names.add(tool.name);
      const description = (tool.description.trim() || tool.name.replace(/[_.:-]+/g, ' ')).slice(
        0,
        MAX_DESCRIPTION,
      );
      const words = tool.name.replace(/[_.:-]+/g, ' ');
      // The pre-matcher compares tasks with examples: a tool's own words (its description and
      // its name) are its first positive examples; configured examples add to them.
      const examples: ClassifierExample[] = [
        { query: description.slice(0, MAX_EXAMPLE), result: true },
        { query: words, result: true },
        ...(this.#section.examples[tool.name] ?? []),
      ];
      capabilities.push({
        name: tool.name,
        description,
        guide: { instructions: `${words}: ${description}`, examples },
      });
    }
    try {
      return new CapabilitySelector({
        registry: capabilities,
        ...(this.#llm ? { llm: this.#llm } : {}),
        ...(this.#section.prematcher === undefined
          ? {}
          : { prematcher: this.#section.prematcher as PrematcherOptions }),
      });
    } catch {
      return { invalid: true };
    }
  }
}

function all(total: number, why: ToolChoice['keptAllBecause'], llm = false): ToolChoice {
  return { kept: Array.from({ length: total }, (_, i) => i), total, keptAllBecause: why, llm };
}
