import type { FakeBehaviour, FakeRequest } from '../../testing/index.js';

/** Shared fixtures of the adapter tests (the fake LLM server speaks text; tool calls are raw). */

/** A tool call the fake model makes. */
export interface FakeToolCall {
  readonly name: string;
  readonly args: Record<string, unknown>;
}

let calls = 0;

/**
 * An OpenAI chat completion whose answer is tool calls, as raw bytes (the fake server's replies
 * are text): what a model in a tool loop answers.
 */
export function toolCallReply(...toolCalls: FakeToolCall[]): FakeBehaviour {
  return {
    raw: JSON.stringify({
      id: `chatcmpl-tools${calls}`,
      object: 'chat.completion',
      created: 1_700_000_000,
      model: 'fake-model',
      choices: [
        {
          index: 0,
          message: {
            role: 'assistant',
            content: null,
            tool_calls: toolCalls.map((call) => ({
              id: `call_${++calls}`,
              type: 'function',
              function: { name: call.name, arguments: JSON.stringify(call.args) },
            })),
          },
          finish_reason: 'tool_calls',
        },
      ],
      usage: { prompt_tokens: 10, completion_tokens: 5, total_tokens: 15 },
    }),
  };
}

/** The names of the tools a recorded OpenAI request offered. */
export function toolsOffered(request: FakeRequest | undefined): string[] {
  const tools = (request?.body as { tools?: { function?: { name?: string } }[] } | undefined)
    ?.tools;
  return (tools ?? []).map((tool) => tool.function?.name ?? '');
}

/** The two-tool cycle of a doom loop: search, read, search, read, … with the same arguments. */
export function doomLoopReplies(cycles: number): FakeBehaviour[] {
  const replies: FakeBehaviour[] = [];
  for (let i = 0; i < cycles; i++) {
    replies.push(toolCallReply({ name: 'search', args: { query: 'flaky test' } }));
    replies.push(toolCallReply({ name: 'read', args: { path: 'test/flaky.test.ts' } }));
  }
  return replies;
}
