import { afterEach, describe, expect, it } from 'vitest';
import { AGENT_TOOL_NAMES } from '../../../bench/agents/tools.js';
import { agentTraffic } from '../../../bench/agents/traffic.js';
import type { ChatRequestBody } from '../decide.js';
import { messagesRequestFromChat } from '../protocols/openai-request.js';
import { type Harness, post, startHarness } from '../server.test-helpers.js';
import { messagesForwarded } from './messages-agents.js';

/**
 * The agent stage on Anthropic Messages requests: the stage decides on the request's
 * chat-completions form, and its work is done to the client's own Messages body.
 */

type Json = Record<string, unknown>;

/** The fixture's chat request of scenario `s`, step `i`, as an Anthropic client sends it. */
function messagesRequest(s: number, i: number): Json {
  const chat = agentTraffic()[s]!.requests[i] as ChatRequestBody;
  const request = messagesRequestFromChat(chat) as Json;
  // A field with no chat-completions counterpart, which a translation would lose.
  return {
    ...request,
    system: [{ type: 'text', text: 'You are an SRE agent.', cache_control: { type: 'ephemeral' } }],
  };
}

let harness: Harness | undefined;
afterEach(async () => {
  await harness?.close();
  harness = undefined;
});

async function serve(agents: Json) {
  harness = await startHarness({
    config: (baseUrl) => ({
      providers: { claude: { baseUrl, api: 'anthropic', timeoutMs: 10_000 } },
      tiers: {
        SIMPLE: ['claude/small'],
        MEDIUM: ['claude/mid'],
        COMPLEX: ['claude/big'],
        REASONING: ['claude/think'],
      },
      agents,
    }),
  });
  return harness;
}

describe('agent stage on /v1/messages', () => {
  it('forwards only the tools the task needs, the rest of the body as the client sent it', async () => {
    const h = await serve({ tools: { enabled: true, alwaysKeep: ['send_slack_message'] } });
    const request = messagesRequest(1, 2);
    const before = h.fake.chatRequests.length;
    const answer = await post(`${h.url}/v1/messages`, request);
    expect(answer.status).toBe(200);
    const forwarded = h.fake.chatRequests[before]!.body as Json;
    const kept = (forwarded.tools as { name: string }[]).map((tool) => tool.name);
    expect(kept.length).toBeLessThan(AGENT_TOOL_NAMES.length);
    expect(kept).toEqual(
      expect.arrayContaining([
        'rollback_deployment',
        'get_metrics',
        'get_logs',
        'send_slack_message',
      ]),
    );
    expect(kept).not.toContain('get_weather');
    expect(answer.headers['x-triage-tools']).toBe(`${kept.length}/${AGENT_TOOL_NAMES.length}`);
    // Messages, system blocks (cache_control included) and the tools kept, exactly as sent.
    expect(forwarded.messages).toEqual(request.messages);
    expect(forwarded.system).toEqual(request.system);
    const sentTools = (request.tools as { name: string }[]).filter((t) => kept.includes(t.name));
    expect(forwarded.tools).toEqual(sentTools);
  });

  it('adds the guidance note to the system blocks, once, when a doom loop shows', async () => {
    const h = await serve({
      guidance: {
        enabled: true,
        providers: [
          {
            classifier: { type: 'doom_loop' },
            guidance: 'You are going in circles: {reason}.',
            cooldownTurns: 3,
          },
        ],
      },
    });
    const steps = agentTraffic()[4]!.requests.length;
    const notes: Json[] = [];
    for (let i = 0; i < steps; i++) {
      const request = messagesRequest(4, i);
      const before = h.fake.chatRequests.length;
      const answer = await post(`${h.url}/v1/messages`, request, {
        'x-triage-conversation': 'loop',
      });
      expect(answer.status).toBe(200);
      const forwarded = h.fake.chatRequests[before]!.body as Json;
      expect(forwarded.messages).toEqual(request.messages);
      if (answer.headers['x-triage-guidance'] !== undefined) notes.push(forwarded);
      else expect(forwarded.system).toEqual(request.system);
    }
    expect(notes).toHaveLength(1);
    const system = notes[0]!.system as { text: string; cache_control?: unknown }[];
    expect(system).toHaveLength(2);
    expect(system[0]!.cache_control).toEqual({ type: 'ephemeral' });
    expect(system[1]!.text).toMatch(/^You are going in circles: cycle/);
  });
});

describe('messagesForwarded', () => {
  const turns = [
    { role: 'user', content: 'Deploy the fix.' },
    { role: 'assistant', content: [{ type: 'tool_use', id: 'a', name: 'deploy', input: {} }] },
    {
      role: 'user',
      content: [
        { type: 'tool_result', tool_use_id: 'a', content: 'done', is_error: false },
        { type: 'text', text: 'Now check the logs.', cache_control: { type: 'ephemeral' } },
      ],
    },
    { role: 'assistant', content: 'Checking.' },
    { role: 'user', content: 'And?' },
  ];

  it('drops the trimmed turns, and the results of calls they held', () => {
    // Chat form: user, assistant (call), tool, user, assistant, user = 6 messages; trimmed to
    // the last 3 (the stage cut at the user message "Now check the logs.").
    const report = { trim: { kept: 3, total: 6, mode: 'x', tokensRemoved: 9 } };
    const out = messagesForwarded({ messages: turns }, report, 'system');
    expect(out.messages).toEqual([
      {
        role: 'user',
        content: [
          { type: 'text', text: 'Now check the logs.', cache_control: { type: 'ephemeral' } },
        ],
      },
      turns[3],
      turns[4],
    ]);
  });

  it('adds a user note to the last user turn, and a system note to a string system', () => {
    const guidance = {
      provider: 'p',
      classifier: 'c',
      action: 'nudged' as const,
      reason: 'r',
      message: 'Rethink.',
    };
    const user = messagesForwarded({ messages: turns }, { guidance }, 'user');
    expect((user.messages as Json[]).at(-1)).toEqual({
      role: 'user',
      content: [
        { type: 'text', text: 'And?' },
        { type: 'text', text: 'Rethink.' },
      ],
    });
    const system = messagesForwarded(
      { messages: turns, system: 'Be brief.' },
      { guidance },
      'system',
    );
    expect(system.system).toBe('Be brief.\n\nRethink.');
    expect(system.messages).toEqual(turns);
  });
});
