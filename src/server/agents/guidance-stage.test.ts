import { describe, expect, it } from 'vitest';
import { ConfigError } from '../../core/errors.js';
import { parseServerConfig } from '../config.js';
import { failingMake } from './agents.test-helpers.js';
import { eventsOf, type GuidanceOutcome, GuidanceSessions } from './guidance-stage.js';

const section = (guidance: Record<string, unknown> = {}) =>
  parseServerConfig({ agents: { guidance: { enabled: true, ...guidance } } }).agents.guidance;

/** `observe` with the default (memory) store, which answers at once. */
function observe(sessions: GuidanceSessions, id: string, messages: unknown[]): GuidanceOutcome {
  const outcome = sessions.observe(id, messages);
  if (outcome instanceof Promise) throw new Error('a memory store answers synchronously');
  return outcome;
}

describe('GuidanceSessions', () => {
  it('reads assistant tool calls and tool results, failures included', () => {
    const [assistant, tool] = failingMake(1).slice(1);
    expect(eventsOf(assistant)).toEqual([
      { type: 'turn' },
      { type: 'tool_call', callId: 'c0', tool: 'run_shell', params: { command: 'make' } },
    ]);
    expect(eventsOf(tool)).toEqual([
      {
        type: 'tool_result',
        callId: 'c0',
        result: { success: false, message: 'Error: make: *** [all] Error 0' },
      },
    ]);
    expect(
      eventsOf({ role: 'tool', tool_call_id: 'c1', content: '{"error":"not found"}' })[0],
    ).toMatchObject({
      result: { success: false },
    });
    expect(eventsOf({ role: 'user', content: 'hi' })).toEqual([]);
  });

  it('applies only the messages a conversation has not seen, and starts afresh on a rewrite', () => {
    const sessions = new GuidanceSessions(section());
    expect(observe(sessions, 'a', failingMake(1))).toMatchObject({ applied: 3, fresh: true });
    expect(observe(sessions, 'a', failingMake(2))).toMatchObject({ applied: 2, fresh: false });
    const rewritten = failingMake(2);
    (rewritten[4] as { content: string }).content = 'ok';
    expect(observe(sessions, 'a', rewritten)).toMatchObject({ applied: 5, fresh: true });
    expect(observe(sessions, 'a', failingMake(1))).toMatchObject({ fresh: true }); // shorter: afresh
  });

  it('nudges a failing streak on its latest step only', () => {
    const sessions = new GuidanceSessions(section());
    const first = observe(sessions, 'b', failingMake(4));
    // The default providers: the streak fired at the third failure (the past); the fourth step
    // gets the next provider that fires on it.
    expect(first.guidance?.provider).toBe('single_tool_repeated');
    // The same step again (a retry of the request) adds nothing new: no second nudge.
    expect(observe(sessions, 'b', failingMake(4)).guidance).toBeUndefined();
  });

  it('keeps at most `conversations` conversations', () => {
    const sessions = new GuidanceSessions(section({ conversations: 2 }));
    for (const id of ['a', 'b', 'c']) observe(sessions, id, failingMake(1));
    expect(sessions.size).toBe(2);
  });

  it('refuses at start-up providers that ask an LLM', () => {
    const providers = [
      { classifier: { type: 'llm', question: 'Is the agent stuck?' }, guidance: 'Rethink.' },
    ];
    expect(() => new GuidanceSessions(section({ providers }))).toThrow(ConfigError);
  });

  it('names a bad field of the agents section', () => {
    expect(() => parseServerConfig({ agents: { tools: { enabled: 'yes' } } })).toThrow(
      /agents\/tools\/enabled/,
    );
  });
});
