/**
 * Trimming forwarded history by a context policy, without ever separating an assistant's tool
 * calls from their results: the history is only cut at user messages (a turn starts at a user
 * message and holds the assistant replies and tool results that follow it), and the system and
 * developer messages before the cut are kept (they are instructions, not history).
 */

/** What a trim did. */
export interface Trimmed {
  readonly messages: readonly unknown[];
  /** Messages removed. */
  readonly removed: number;
}

const INSTRUCTION_ROLES = new Set(['system', 'developer']);

/**
 * The messages a window of `turns` turns keeps (`turns` 0: all). Messages before the cut other
 * than system/developer ones are dropped. `messages` is never modified.
 */
export function trimHistory(messages: readonly unknown[], turns: number): Trimmed {
  if (turns <= 0) return { messages, removed: 0 };
  let seen = 0;
  let cut = -1;
  for (let i = messages.length - 1; i >= 0; i--) {
    if (roleOf(messages[i]) === 'user' && ++seen === turns) {
      cut = i;
      break;
    }
  }
  if (cut <= 0) return { messages, removed: 0 };
  const kept: unknown[] = [];
  for (let i = 0; i < cut; i++) {
    if (INSTRUCTION_ROLES.has(roleOf(messages[i]))) kept.push(messages[i]);
  }
  if (kept.length === cut) return { messages, removed: 0 };
  for (let i = cut; i < messages.length; i++) kept.push(messages[i]);
  return { messages: kept, removed: messages.length - kept.length };
}

function roleOf(message: unknown): string {
  const role = (message as { role?: unknown } | null)?.role;
  return typeof role === 'string' ? role : '';
}
