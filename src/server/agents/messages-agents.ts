import { messagesOf } from '../protocols/anthropic-request.js';
import type { AgentReport } from './agent-stage.js';

/**
 * The agent stage's work on an Anthropic Messages request. The stage reads and rewrites the
 * request's chat-completions form (what the server classifies); what it did, as its report says
 * (tools removed, a note added, the oldest turns trimmed), is done here to the client's own
 * Messages body, so that nothing else of it changes: `cache_control`, system blocks, `thinking`,
 * `is_error` and the other fields with no chat-completions counterpart stay as they came.
 */

type Json = Record<string, unknown>;

function isRecord(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * The Messages body to forward after the stage: `original` with the tools the report removed
 * left out, the oldest turns the report trimmed dropped, and the guidance note added `as` a system
 * note (appended to `system`) or a user note (appended to the last user turn, or as one).
 */
export function messagesForwarded(
  original: Json,
  report: AgentReport,
  as: 'system' | 'user',
): Json {
  const out: Json = { ...original };
  if (report.tools && report.tools.removed.length > 0 && Array.isArray(original.tools)) {
    const removed = new Set(report.tools.removed);
    out.tools = original.tools.filter(
      (tool) => !(isRecord(tool) && removed.has(String(tool.name))),
    );
  }
  let messages = Array.isArray(original.messages) ? original.messages : [];
  if (report.trim && report.trim.kept < report.trim.total) {
    messages = trimmedTurns(messages, report.trim.total - report.trim.kept);
  }
  const note = report.guidance?.action === 'nudged' ? report.guidance.message : undefined;
  if (note !== undefined && as === 'system') out.system = withSystemNote(original.system, note);
  if (note !== undefined && as === 'user') messages = withUserNote(messages, note);
  out.messages = messages;
  return out;
}

/**
 * `messages` without the turns whose chat-completions form holds the first `dropped` chat
 * messages. The stage trims at a user message, so the cut falls between turns or, in a user turn
 * that opens with tool results, right after those results (each a chat `tool` message): they
 * answered calls of a turn that was dropped, and are dropped with it.
 */
function trimmedTurns(messages: readonly unknown[], dropped: number): unknown[] {
  let left = dropped;
  for (let i = 0; i < messages.length; i++) {
    if (left === 0) return messages.slice(i);
    const message = messages[i];
    // How many chat-completions messages this turn became (the server's translation).
    const size = messagesOf(message).length;
    if (size <= left) {
      left -= size;
      continue;
    }
    // The cut falls inside this turn, after its first `left` tool results.
    const content = (message as Json).content as unknown[];
    let results = left;
    const rest = content.filter((block) => {
      if (results > 0 && isRecord(block) && block.type === 'tool_result') {
        results -= 1;
        return false;
      }
      return true;
    });
    return [{ ...(message as Json), content: rest }, ...messages.slice(i + 1)];
  }
  return [];
}

function withSystemNote(system: unknown, note: string): unknown {
  if (Array.isArray(system)) return [...system, { type: 'text', text: note }];
  if (typeof system === 'string' && system.length > 0) return `${system}\n\n${note}`;
  return note;
}

/** The note as text at the end of the last user turn, or as a user turn after an assistant's. */
function withUserNote(messages: readonly unknown[], note: string): unknown[] {
  const last = messages.at(-1);
  const text = { type: 'text', text: note };
  if (isRecord(last) && last.role === 'user') {
    const content =
      typeof last.content === 'string'
        ? [{ type: 'text', text: last.content }, text]
        : [...(Array.isArray(last.content) ? last.content : []), text];
    return [...messages.slice(0, -1), { ...last, content }];
  }
  return [...messages, { role: 'user', content: [text] }];
}
