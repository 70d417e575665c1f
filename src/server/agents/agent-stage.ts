import type { ContextDecision } from '../../context/router.js';
import type { Guidance } from '../../guidance/engine.js';
import type { LlmProvider } from '../../llm/types.js';
import type { ConversationStore } from '../../state/conversation-store.js';
import type { Triage } from '../../triage.js';
import { type Cancellation, deadlineOf } from '../../triage-cancellation.js';
import { lastUserText } from '../body.js';
import type { ChatRequestBody } from '../decide.js';
import { HttpError } from '../errors.js';
import { contextDecision } from '../server-context.js';
import type { AgentMetrics } from './agent-metrics.js';
import { type AgentSwitches, type AgentsSection, agentSwitches } from './agents-config.js';
import { conversationId } from './conversation-id.js';
import { type GuidanceOutcome, GuidanceSessions } from './guidance-stage.js';
import { trimHistory } from './history-trim.js';
import { type ToolChoice, type ToolInfo, ToolSelection } from './tool-selection.js';

/**
 * The agent stage: a transform of an OpenAI chat request before it is forwarded. In order:
 * guidance over the trajectory in `messages` (it may refuse the request, or add a nudge), history
 * trimmed by the context policy, and tool definitions the task does not need removed. Each
 * feature runs only when on (configuration, or the request's header); what each did is reported
 * in {@link AgentReport} (response headers, `/v1/route`, the log line) and in the metrics.
 * Synchronous unless tool selection asks the LLM, the context policy needs its LLM check, or
 * guidance reads its conversation's mark from a shared store (Redis).
 */

/** What the stage did to a request (no prompt text: names, counts and provider ids). */
export interface AgentReport {
  readonly tools?: {
    readonly kept: number;
    readonly total: number;
    readonly removed: readonly string[];
    readonly tokensRemoved: number;
    readonly keptAllBecause?: string;
  };
  readonly guidance?: {
    readonly provider: string;
    readonly classifier: string;
    readonly action: 'nudged' | 'blocked';
    /** Why it fired (may quote tool names and arguments: not logged). */
    readonly reason: string;
    /** The note added (not logged). */
    readonly message: string;
  };
  readonly trim?: {
    readonly kept: number;
    readonly total: number;
    readonly mode: string;
    readonly tokensRemoved: number;
  };
}

/** A request after the stage. */
export interface AgentOutcome {
  /** The body to forward (the request's own when `changed` is false). */
  readonly body: ChatRequestBody;
  readonly changed: boolean;
  /** Response headers reporting what was done. */
  readonly headers: Record<string, string>;
  readonly report: AgentReport;
}

/** Tokens estimated from JSON characters (the stage never tokenises). */
const CHARS_PER_TOKEN = 4;

/** The agent stage of a server. */
export class AgentStage {
  readonly section: AgentsSection;
  readonly metrics: AgentMetrics;
  readonly #tools: ToolSelection;
  readonly #guidance: GuidanceSessions | undefined;
  readonly #triage: Triage;

  constructor(
    section: AgentsSection,
    deps: {
      readonly llm: LlmProvider | undefined;
      readonly triage: Triage;
      /** Shared by every generation of the configuration (a metric is registered once). */
      readonly metrics: AgentMetrics;
      /**
       * How far each conversation's guidance has gone, shared by the generations (and, in Redis,
       * by the instances). Default: a memory store of this stage's own.
       */
      readonly conversations?: ConversationStore;
    },
  ) {
    this.section = section;
    this.metrics = deps.metrics;
    this.#tools = new ToolSelection(section.tools, deps.llm);
    this.#triage = deps.triage;
    // Built even when off in the configuration: a request may turn it on with its header.
    this.#guidance = new GuidanceSessions(section.guidance, deps.conversations);
  }

  /**
   * Applies the features on for this request; `undefined` when none is (the request is
   * forwarded as it came). Throws a 403 {@link HttpError} when a blocking guidance provider fires.
   */
  apply(
    body: ChatRequestBody,
    headers: Readonly<Record<string, string | string[] | undefined>>,
    cancel: Cancellation,
    bytes: number,
    /** `report` (for `POST /v1/route`): a blocking provider is reported, not thrown. */
    purpose: 'forward' | 'report' = 'forward',
  ): AgentOutcome | undefined | Promise<AgentOutcome | undefined> {
    const on = agentSwitches(this.section, headers);
    const tools = on.tools ? toolsOf(body) : undefined;
    if (!on.guidance && !on.trim && tools === undefined) return undefined;
    this.metrics.promptTokens.inc(Math.round(bytes / CHARS_PER_TOKEN));
    const guided = on.guidance ? this.#guide(body, headers, purpose) : undefined;
    const context = on.trim ? contextDecision(this.#triage, body, cancel) : undefined;
    const choice = tools ? this.#choose(body, tools, cancel) : undefined;
    if (guided instanceof Promise || context instanceof Promise || choice instanceof Promise) {
      return Promise.all([guided, context, choice]).then(([advised, decided, chosen]) =>
        this.#outcome(body, on, advised, decided, tools, chosen),
      );
    }
    return this.#outcome(body, on, guided, context, tools, choice);
  }

  #guide(
    body: ChatRequestBody,
    headers: Readonly<Record<string, string | string[] | undefined>>,
    purpose: 'forward' | 'report',
  ): GuidanceOutcome | Promise<GuidanceOutcome> {
    const outcome = this.#guidance!.observe(conversationId(headers, body.messages), body.messages);
    return outcome instanceof Promise
      ? outcome.then((seen) => this.#guided(seen, purpose))
      : this.#guided(outcome, purpose);
  }

  /** Counts what fired; throws a 403 when it blocks a request about to be forwarded. */
  #guided(outcome: GuidanceOutcome, purpose: 'forward' | 'report'): GuidanceOutcome {
    const fired = outcome.guidance;
    if (fired === undefined) return outcome;
    this.metrics.guidance.inc({
      provider: fired.provider,
      action: outcome.blocks ? 'blocked' : 'nudged',
    });
    if (outcome.blocks && purpose === 'forward') {
      throw new HttpError(403, 'agent_guidance_block', blockMessage(fired), {
        type: 'invalid_request_error',
        headers: { 'x-triage-guidance': `blocked:${fired.provider}` },
      });
    }
    return outcome;
  }

  #choose(
    body: ChatRequestBody,
    tools: readonly ToolInfo[],
    cancel: Cancellation,
  ): ToolChoice | Promise<ToolChoice> {
    const use = {
      task: lastUserText(body),
      called: calledTools(body.messages),
      forced: forcedTool(body.tool_choice),
    };
    const chosen = this.#tools.choose(tools, use, {
      ...deadlineOf(cancel),
      ...(this.section.tools.llm ? { signal: cancel.signal } : {}),
    });
    return chosen;
  }

  #outcome(
    body: ChatRequestBody,
    on: AgentSwitches,
    guided: GuidanceOutcome | undefined,
    context: ContextDecision | undefined,
    tools: readonly ToolInfo[] | undefined,
    choice: ToolChoice | undefined,
  ): AgentOutcome {
    const headers: Record<string, string> = {};
    const report: { -readonly [K in keyof AgentReport]: AgentReport[K] } = {};
    let messages = body.messages;
    let forwardedTools: unknown[] | undefined;

    if (on.trim && context !== undefined) {
      const { policy } = context;
      const trimmed = trimHistory(messages, policy.useHistory ? policy.historyTurnWindow : 1);
      const tokens = trimmed.removed > 0 ? removedTokens(messages, trimmed.messages) : 0;
      report.trim = {
        kept: trimmed.messages.length,
        total: messages.length,
        mode: context.mode,
        tokensRemoved: tokens,
      };
      headers['x-triage-trim'] = `${trimmed.messages.length}/${messages.length}`;
      if (trimmed.removed > 0) {
        this.metrics.messagesTrimmed.inc(trimmed.removed);
        this.metrics.tokensRemoved.inc({ by: 'trim' }, tokens);
      }
      messages = trimmed.messages;
    }

    const fired = guided?.guidance;
    if (fired !== undefined) {
      messages = [...messages, { role: this.section.guidance.as, content: fired.message }];
      const action = guided!.blocks ? 'blocked' : 'nudged';
      report.guidance = guidanceReport(fired, action);
      headers['x-triage-guidance'] = guided!.blocks ? `blocked:${fired.provider}` : fired.provider;
    }

    if (tools !== undefined && choice !== undefined) {
      const all = body.tools as unknown[];
      const removed: string[] = [];
      let tokens = 0;
      if (choice.kept.length < choice.total) {
        const keep = new Set(choice.kept);
        forwardedTools = [];
        for (let i = 0; i < all.length; i++) {
          if (keep.has(i)) forwardedTools.push(all[i]);
          else {
            removed.push(tools[i]!.name);
            tokens += Math.round((JSON.stringify(all[i])?.length ?? 0) / CHARS_PER_TOKEN);
          }
        }
        this.metrics.toolSelections.inc({ action: 'pruned' });
        this.metrics.toolsRemoved.inc(removed.length);
        this.metrics.tokensRemoved.inc({ by: 'tools' }, tokens);
      } else this.metrics.toolSelections.inc({ action: 'kept_all' });
      report.tools = {
        kept: choice.kept.length,
        total: choice.total,
        removed,
        tokensRemoved: tokens,
        ...(choice.keptAllBecause ? { keptAllBecause: choice.keptAllBecause } : {}),
      };
      headers['x-triage-tools'] = `${choice.kept.length}/${choice.total}`;
    }

    const changed = messages !== body.messages || forwardedTools !== undefined;
    if (!changed) return { body, changed, headers, report };
    const forwarded: Record<string, unknown> = { ...body, messages };
    if (forwardedTools !== undefined) forwarded.tools = forwardedTools;
    return { body: forwarded as ChatRequestBody, changed, headers, report };
  }
}

/** The tool definitions of an OpenAI chat request; `undefined` when it has none. */
export function toolsOf(body: ChatRequestBody): ToolInfo[] | undefined {
  const { tools } = body;
  if (!Array.isArray(tools) || tools.length === 0) return undefined;
  const infos: ToolInfo[] = [];
  for (const tool of tools) {
    const fn = (tool as { function?: unknown } | null)?.function as
      | { name?: unknown; description?: unknown }
      | undefined;
    // A tool of another kind (not a function) or without a name: the list is forwarded whole.
    if (typeof fn?.name !== 'string') return undefined;
    infos.push({
      name: fn.name,
      description: typeof fn.description === 'string' ? fn.description : '',
    });
  }
  return infos;
}

/** Names of the tools the conversation has called (assistant `tool_calls`). */
export function calledTools(messages: readonly unknown[]): Set<string> {
  const called = new Set<string>();
  for (const message of messages) {
    const calls = (message as { tool_calls?: unknown } | null)?.tool_calls;
    if (!Array.isArray(calls)) continue;
    for (const call of calls) {
      const name = (call as { function?: { name?: unknown } } | null)?.function?.name;
      if (typeof name === 'string') called.add(name);
    }
  }
  return called;
}

/** The tool a `tool_choice` names, if any. */
export function forcedTool(choice: unknown): string | undefined {
  const name = (choice as { function?: { name?: unknown } } | null)?.function?.name;
  return typeof name === 'string' ? name : undefined;
}

function guidanceReport(fired: Guidance, action: 'nudged' | 'blocked') {
  return {
    provider: fired.provider,
    classifier: fired.classifier,
    action,
    reason: fired.reason,
    message: fired.message,
  };
}

function blockMessage(fired: Guidance): string {
  return `request refused: guidance provider ${fired.provider} blocks this step (${fired.reason})`;
}

function removedTokens(before: readonly unknown[], after: readonly unknown[]): number {
  const kept = new Set(after);
  let chars = 0;
  for (const message of before) {
    if (!kept.has(message)) chars += JSON.stringify(message)?.length ?? 0;
  }
  return Math.round(chars / CHARS_PER_TOKEN);
}

/** The agent report in `POST /v1/route`'s body (snake_case, as the rest of it). */
export function agentRouteReport(report: AgentReport): Record<string, unknown> {
  const { tools, guidance, trim } = report;
  return {
    ...(tools
      ? {
          tools: {
            kept: tools.kept,
            total: tools.total,
            removed: tools.removed,
            tokens_removed: tools.tokensRemoved,
            ...(tools.keptAllBecause ? { kept_all_because: tools.keptAllBecause } : {}),
          },
        }
      : {}),
    ...(guidance ? { guidance } : {}),
    ...(trim
      ? {
          trim: {
            kept: trim.kept,
            total: trim.total,
            mode: trim.mode,
            tokens_removed: trim.tokensRemoved,
          },
        }
      : {}),
  };
}
