/** The chat messages of an agent asked to build a project whose `steps` calls of `make` failed. */
export function failingMake(steps: number): unknown[] {
  const messages: unknown[] = [{ role: 'user', content: 'build it' }];
  for (let i = 0; i < steps; i++) {
    messages.push({
      role: 'assistant',
      content: null,
      tool_calls: [
        {
          id: `c${i}`,
          type: 'function',
          function: { name: 'run_shell', arguments: '{"command":"make"}' },
        },
      ],
    });
    messages.push({
      role: 'tool',
      tool_call_id: `c${i}`,
      content: `Error: make: *** [all] Error ${i}`,
    });
  }
  return messages;
}
