import { createHash } from 'node:crypto';
import { LRUCache } from 'lru-cache';
import { ConfigError } from '../../core/errors.js';
import { createGuidance, type GuidanceProviderSpec } from '../../guidance/create.js';
import type { Guidance, GuidanceEngine } from '../../guidance/engine.js';
import type { TrajectoryEvent } from '../../guidance/types.js';
import type { ConversationMark, ConversationStore } from '../../state/conversation-store.js';
import { MemoryConversationStore } from '../../state/memory-conversation-store.js';
import type { AgentGuidanceSection } from './agents-config.js';

/**
 * Guidance at the gateway: the request's `messages` already hold the agent's trajectory (assistant
 * tool calls, tool results, errors). The guidance state of a conversation (its trajectory, streaks,
 * cycles, cooldowns) is a pure function of those messages: the classifiers count turns, never
 * wall-clock time. So each instance keeps an engine per conversation in memory (a bounded LRU
 * with a time to live), fed only the messages it has not seen, and rebuilds it from the request's
 * own messages when it has none (another instance served the conversation before, or a reload).
 * What instances share, through the {@link ConversationStore}, is only how far guidance has
 * gone: guidance counts only when it fires on a step no request of the conversation reached
 * before (on any instance), and on the latest step (from the last assistant message on), so a
 * conversation first seen mid-way is not nudged about its past and a retried request is not
 * nudged twice. A client that rewrites its history (the last message seen is not where it was)
 * starts afresh.
 */

/** What the classifiers said about a request. */
export interface GuidanceOutcome {
  /** The guidance to add (the first that fired on the latest step). */
  readonly guidance: Guidance | undefined;
  /** Whether that guidance's provider blocks instead of nudging. */
  readonly blocks: boolean;
  /** Messages this request added to the conversation (beyond the ones guided before). */
  readonly applied: number;
  /** Whether the conversation's trajectory was started by this request. */
  readonly fresh: boolean;
}

/** An engine, and how far into its conversation it is. */
interface Conversation extends ConversationMark {
  readonly engine: GuidanceEngine;
}

/** Longest tool output given to the classifiers (what an error streak compares). */
const MAX_RESULT_CHARS = 4_000;
/** Tool outputs read as failures. */
const FAILED = /^\s*(?:error|exception|traceback|fatal|failed|failure|permission denied)\b/i;

/** The guidance engines of the conversations passing through the server. */
export class GuidanceSessions {
  readonly #section: AgentGuidanceSection;
  readonly #blocking: ReadonlySet<string>;
  readonly #conversations: LRUCache<string, Conversation>;
  readonly #marks: ConversationStore;

  /** `marks`: where the conversations stand (shared by instances); default: this one's memory. */
  constructor(
    section: AgentGuidanceSection,
    marks: ConversationStore = new MemoryConversationStore(section.conversations),
  ) {
    this.#section = section;
    this.#blocking = new Set(section.block);
    this.#marks = marks;
    this.#conversations = new LRUCache({
      max: section.conversations,
      ttl: section.ttlSeconds * 1000,
      updateAgeOnGet: true,
    });
    // Fail at start-up on bad providers, and on providers that ask an LLM: the gateway runs the
    // local classifiers only (a request must not wait for one LLM call per event; and an LLM's
    // verdicts would make guidance more than a function of the messages, which instances rely on).
    const probe = this.#engine();
    try {
      probe.classify({ type: 'turn' });
    } catch (error) {
      throw new ConfigError('server configuration', [
        {
          path: '/agents/guidance/providers',
          message: `must be local classifiers (${(error as Error).message})`,
        },
      ]);
    }
  }

  /** Conversations whose engine this instance holds. */
  get size(): number {
    return this.#conversations.size;
  }

  /**
   * Feeds a request's new messages to its conversation's trajectory and says what fired.
   * Synchronous with a memory store; a shared store makes it wait for one swap of the mark.
   */
  observe(id: string, messages: readonly unknown[]): GuidanceOutcome | Promise<GuidanceOutcome> {
    const prints = new Prints(messages);
    const mark = { applied: messages.length, last: prints.last() };
    const before = this.#marks.swap(id, mark, this.#section.ttlSeconds);
    if (before instanceof Promise) {
      return before.then((seen) => this.#observe(id, messages, prints, mark, seen));
    }
    return this.#observe(id, messages, prints, mark, before);
  }

  #observe(
    id: string,
    messages: readonly unknown[],
    prints: Prints,
    mark: ConversationMark,
    before: ConversationMark | undefined,
  ): GuidanceOutcome {
    const fresh = before === undefined || !prints.continues(before);
    const from = fresh ? 0 : before.applied;
    // Guidance counts from here on: steps no request reached before, and the latest one.
    const counted = Math.max(from, lastAssistantIndex(messages));
    let conversation = this.#conversations.get(id);
    if (
      conversation === undefined ||
      !prints.continues(conversation) ||
      conversation.applied > counted
    ) {
      conversation = { engine: this.#engine(), applied: 0, last: '' };
    }
    let fired: Guidance | undefined;
    for (let i = conversation.applied; i < messages.length; i++) {
      for (const event of eventsOf(messages[i])) {
        let guidance: readonly Guidance[];
        try {
          guidance = conversation.engine.classify(event);
        } catch {
          continue; // an event that does not fit (a result for an unknown call): skipped
        }
        if (fired === undefined && i >= counted && guidance.length > 0) fired = guidance[0];
      }
    }
    this.#conversations.set(id, { engine: conversation.engine, ...mark });
    return {
      guidance: fired,
      blocks: fired !== undefined && this.#blocking.has(fired.provider),
      applied: messages.length - from,
      fresh,
    };
  }

  #engine(): GuidanceEngine {
    const { providers } = this.#section;
    return createGuidance(
      providers === undefined ? {} : { providers: providers as GuidanceProviderSpec[] },
    );
  }
}

/** The fingerprints of a request's messages, each computed once. */
class Prints {
  readonly #messages: readonly unknown[];
  readonly #prints = new Map<number, string>();

  constructor(messages: readonly unknown[]) {
    this.#messages = messages;
  }

  /** The print of the last message (`''` when none). */
  last(): string {
    return this.#messages.length === 0 ? '' : this.#at(this.#messages.length - 1);
  }

  /** Whether these messages continue what `mark` saw (its last message is where it was). */
  continues(mark: ConversationMark): boolean {
    if (mark.applied > this.#messages.length) return false;
    return mark.applied === 0 || this.#at(mark.applied - 1) === mark.last;
  }

  #at(index: number): string {
    let print = this.#prints.get(index);
    if (print === undefined) {
      print = fingerprint(this.#messages[index]);
      this.#prints.set(index, print);
    }
    return print;
  }
}

/** The trajectory events of one chat message (OpenAI shape); none for other messages. */
export function eventsOf(message: unknown): TrajectoryEvent[] {
  if (typeof message !== 'object' || message === null) return [];
  const {
    role,
    tool_calls: calls,
    tool_call_id: callId,
    content,
  } = message as Record<string, unknown>;
  if (role === 'assistant') {
    const events: TrajectoryEvent[] = [{ type: 'turn' }];
    if (!Array.isArray(calls)) return events;
    for (const call of calls) {
      const { id, function: fn } = (call ?? {}) as { id?: unknown; function?: unknown };
      const { name, arguments: args } = (fn ?? {}) as { name?: unknown; arguments?: unknown };
      if (typeof id !== 'string' || id === '' || typeof name !== 'string' || name === '') continue;
      events.push({ type: 'tool_call', callId: id, tool: name, params: paramsOf(args) });
    }
    return events;
  }
  if (role === 'tool' && typeof callId === 'string' && callId !== '') {
    const text = textOf(content).slice(0, MAX_RESULT_CHARS);
    return [{ type: 'tool_result', callId, result: { success: !failed(text), message: text } }];
  }
  return [];
}

function paramsOf(args: unknown): Record<string, unknown> {
  if (typeof args === 'object' && args !== null && !Array.isArray(args)) {
    return args as Record<string, unknown>;
  }
  if (typeof args !== 'string') return {};
  try {
    const parsed: unknown = JSON.parse(args);
    return typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed)
      ? (parsed as Record<string, unknown>)
      : { arguments: parsed };
  } catch {
    return { arguments: args };
  }
}

function failed(text: string): boolean {
  if (FAILED.test(text)) return true;
  if (!text.startsWith('{')) return false;
  try {
    const parsed = JSON.parse(text) as Record<string, unknown>;
    return parsed.error !== undefined && parsed.error !== null && parsed.error !== false;
  } catch {
    return false;
  }
}

function textOf(content: unknown): string {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  let text = '';
  for (const part of content) {
    const value = (part as { text?: unknown } | null)?.text;
    if (typeof value === 'string') text += value;
  }
  return text;
}

function lastAssistantIndex(messages: readonly unknown[]): number {
  for (let i = messages.length - 1; i >= 0; i--) {
    if ((messages[i] as { role?: unknown } | null)?.role === 'assistant') return i;
  }
  return messages.length;
}

function fingerprint(message: unknown): string {
  return createHash('sha1')
    .update(JSON.stringify(message) ?? 'null')
    .digest('base64');
}
