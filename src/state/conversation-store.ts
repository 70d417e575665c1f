/**
 * Where each agent conversation's guidance stands, shared by the instances that serve it. A
 * conversation's guidance state is a pure function of its messages (the trajectory classifiers
 * and their cooldowns count turns of the trajectory, never wall-clock time), and every request
 * carries the conversation's messages: so any instance can rebuild the state from the request
 * itself. What instances must agree on is only how far the conversation's guidance has already
 * been given, so that a step nudged on one instance is not nudged again on another (a retried or
 * duplicated request). That is a {@link ConversationMark}: a count and a fingerprint, a few dozen
 * bytes per conversation, kept for the section's `ttlSeconds` after its last request.
 */

/** How far a conversation's guidance has gone: its messages seen, and the last one's print. */
export interface ConversationMark {
  /** Messages of the conversation applied to its trajectory. */
  readonly applied: number;
  /** A fingerprint of the last of them (`''` when none): a rewritten history starts afresh. */
  readonly last: string;
}

/** The marks of the conversations passing through the server. */
export interface ConversationStore {
  /**
   * Records `mark` as where `conversation` stands now, kept for `ttlSeconds` from now, and returns
   * where it stood before (`undefined`: never seen, or expired). One atomic step: of two requests
   * of one conversation, on any instances, the second sees the first's mark. Memory stores answer
   * synchronously; shared ones with a promise that never rejects because of the store.
   */
  swap(
    conversation: string,
    mark: ConversationMark,
    ttlSeconds: number,
  ): ConversationMark | undefined | Promise<ConversationMark | undefined>;
}

/** A mark as one string, `<applied>:<last>` (the fingerprint holds no `:`). */
export function encodeMark(mark: ConversationMark): string {
  return `${mark.applied}:${mark.last}`;
}

/** A mark from {@link encodeMark}'s string; `undefined` for anything else (read as unknown). */
export function decodeMark(text: string | null | undefined): ConversationMark | undefined {
  if (typeof text !== 'string') return undefined;
  const colon = text.indexOf(':');
  if (colon <= 0) return undefined;
  const applied = Number(text.slice(0, colon));
  if (!Number.isSafeInteger(applied) || applied < 0) return undefined;
  return { applied, last: text.slice(colon + 1) };
}
