import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { trimHistory } from './history-trim.js';

/** A conversation: a system message, then user turns of assistant tool calls and results. */
const conversation = fc
  .array(
    fc.record({
      calls: fc.array(fc.integer({ min: 1, max: 3 }), { maxLength: 4 }),
      answered: fc.boolean(),
    }),
    { minLength: 1, maxLength: 8 },
  )
  .map((turns) => {
    const messages: Record<string, unknown>[] = [{ role: 'system', content: 'be brief' }];
    let id = 0;
    for (const turn of turns) {
      messages.push({ role: 'user', content: 'task' });
      for (const parallel of turn.calls) {
        const ids = Array.from({ length: parallel }, () => `c${id++}`);
        messages.push({ role: 'assistant', tool_calls: ids.map((callId) => ({ id: callId })) });
        for (const callId of ids)
          messages.push({ role: 'tool', tool_call_id: callId, content: 'ok' });
      }
      if (turn.answered) messages.push({ role: 'assistant', content: 'done' });
    }
    return messages;
  });

describe('trimHistory', () => {
  it('never separates a tool result from its call, keeps system messages and the last turns', () => {
    fc.assert(
      fc.property(conversation, fc.integer({ min: 0, max: 5 }), (messages, turns) => {
        const { messages: kept, removed } = trimHistory(messages, turns);
        expect(kept.length + removed).toBe(messages.length);
        expect(kept[0]).toBe(messages[0]);
        const called = new Set<string>();
        for (const message of kept as { tool_calls?: { id: string }[]; tool_call_id?: string }[]) {
          for (const call of message.tool_calls ?? []) called.add(call.id);
          if (message.tool_call_id !== undefined)
            expect(called.has(message.tool_call_id)).toBe(true);
        }
        const users = (list: readonly unknown[]) =>
          list.filter((m) => (m as { role: string }).role === 'user').length;
        const total = users(messages);
        expect(users(kept)).toBe(turns === 0 ? total : Math.min(turns, total));
        const lastUser = messages.findLastIndex((m) => m.role === 'user');
        expect(kept.slice(kept.length - (messages.length - lastUser))).toEqual(
          messages.slice(lastUser),
        );
      }),
    );
  });

  it('returns the same array when nothing is removed', () => {
    const messages = [{ role: 'user' }, { role: 'assistant' }];
    expect(trimHistory(messages, 3).messages).toBe(messages);
  });
});
