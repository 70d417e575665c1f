import type { ContextPolicy } from './schema.js';

/** A conversation message: only its role matters here. */
export interface TurnMessage {
  readonly role: string;
}

/**
 * The last `turns` turns of a conversation. A turn starts at a `user` message and holds what
 * follows it up to the next one (the assistant's reply, tool messages); messages before the
 * first user message belong to no turn and are dropped when the window cuts. `turns` 0 (or
 * more than there are) keeps every message. Returns a new array; never modifies `messages`.
 */
export function lastTurns<M extends TurnMessage>(messages: readonly M[], turns: number): M[] {
  if (!Number.isInteger(turns) || turns < 0) {
    throw new RangeError(`turns must be a whole number >= 0, got ${turns}`);
  }
  if (turns === 0) return [...messages];
  let seen = 0;
  for (let i = messages.length - 1; i >= 0; i--) {
    if (messages[i]!.role === 'user' && ++seen === turns) return messages.slice(i);
  }
  return [...messages];
}

/**
 * The history a policy allows (the original design): none without `useHistory`, else the last
 * `historyTurnWindow` turns (0 = all of it).
 */
export function historyWindow<M extends TurnMessage>(
  messages: readonly M[],
  policy: Pick<ContextPolicy, 'useHistory' | 'historyTurnWindow'>,
): M[] {
  return policy.useHistory ? lastTurns(messages, policy.historyTurnWindow) : [];
}

/** The context an application has for a question. Every part is optional. */
export interface AvailableContext<M extends TurnMessage, I> {
  readonly history?: readonly M[];
  /** The page image (a URL, bytes, a message part: whatever the application sends). */
  readonly image?: I;
  /** Memory context from past sessions. */
  readonly memory?: string;
  /** Notes context (e.g. from an Obsidian vault). */
  readonly notes?: string;
}

/** What to send with the question, as a policy decides. */
export interface SelectedContext<M extends TurnMessage, I> {
  readonly history: M[];
  readonly image?: I;
  readonly memory?: string;
  readonly notes?: string;
  /** The turn instruction to add, when the policy has one. */
  readonly instruction?: string;
  /** The sentence cap of the answer, when the policy has one. */
  readonly maxSentences?: number;
}

/**
 * Applies a policy to the context at hand: drops what the policy excludes (the image, the
 * history beyond the window, memory, notes) and returns the turn instruction and sentence cap
 * to apply. This is where a standalone definition saves its ~4,200 tokens (the original design).
 */
export function selectContext<M extends TurnMessage, I>(
  policy: ContextPolicy,
  available: AvailableContext<M, I>,
): SelectedContext<M, I> {
  return {
    history: historyWindow(available.history ?? [], policy),
    ...(policy.useImage && available.image !== undefined ? { image: available.image } : {}),
    ...(policy.useMemoryContext && available.memory !== undefined
      ? { memory: available.memory }
      : {}),
    ...(policy.useNotesContext && available.notes !== undefined ? { notes: available.notes } : {}),
    ...(policy.turnInstruction === null ? {} : { instruction: policy.turnInstruction }),
    ...(policy.maxSentences === null ? {} : { maxSentences: policy.maxSentences }),
  };
}
