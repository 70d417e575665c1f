import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type FakeLlmServer, startFakeLlm } from '../src/testing/index.js';

/**
 * The framework examples run against the fake LLM server, and each guide in docs/ shows the
 * example as it is and the output it really prints.
 */
const EXAMPLES = [
  { name: 'ai-sdk', load: () => import('../examples/ai-sdk.js') },
  { name: 'openai-agents', load: () => import('../examples/openai-agents.js') },
  { name: 'langchain', load: () => import('../examples/langchain.js') },
];

const read = (path: string) => readFileSync(new URL(`../${path}`, import.meta.url), 'utf8');

/** The block of a guide fenced as ```text after the line "It prints:". */
function shownOutput(guide: string): string {
  const match = /It prints:\n\n```text\n([\s\S]*?)```/.exec(guide);
  return match?.[1] ?? '';
}

describe.each(EXAMPLES.map((e) => [e.name, e.load] as const))('examples/%s.ts', (name, load) => {
  let fake: FakeLlmServer;
  const key = process.env.OPENAI_API_KEY;
  beforeAll(async () => {
    fake = await startFakeLlm();
    process.env.OPENAI_API_KEY = 'test'; // the examples read it, as users run them
  });
  afterAll(async () => {
    if (key === undefined) delete process.env.OPENAI_API_KEY;
    else process.env.OPENAI_API_KEY = key;
    await fake.close();
  });

  it('runs, and prints what its guide shows', async () => {
    const { main } = await load();
    const lines: string[] = [];
    await main(fake.openAiBaseUrl, (line: string) => lines.push(line));
    const guide = read(`docs/${name}.md`);
    expect(lines.length).toBeGreaterThan(2);
    if (process.env.SHOW_EXAMPLE_OUTPUT) console.log(`@@${name}\n${lines.join('\n')}\n@@`);
    expect(shownOutput(guide)).toBe(`${lines.join('\n')}\n`);
    // the guide's example is the file, as it is
    const source = read(`examples/${name}.ts`);
    expect(guide).toContain(`\`\`\`ts\n${source}\`\`\``);
  });
});
