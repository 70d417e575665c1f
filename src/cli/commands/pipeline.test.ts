import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { type FakeLlmServer, type FakeRequest, startFakeLlm } from '../../testing/index.js';
import { captureOutput } from '../capture.test-helpers.js';
import { runCli } from '../program.js';

let fake: FakeLlmServer;
let dir: string;
let config: string;

/** Answers every classifier with a valid output for it. */
function answer(request: FakeRequest) {
  const name = /# Classifier: (\w+)/.exec(request.system ?? '')?.[1];
  const extra: Record<string, Record<string, unknown>> = {
    routing: { model_tier: 'local_fast' },
    prompt_injection: { risk_level: 'normal' },
    memory_retrieval_queries: { queries: [] },
    conversation_digest: { digest: 'Greeting.', topics: [] },
    context_shift: { shift: 'new_topic' },
    preflight: { final_reply: { text: 'Hello!' } },
  };
  return { json: { reason: 'Greeting.', certainty: 'near_certain', ...(extra[name ?? ''] ?? {}) } };
}

beforeAll(async () => {
  fake = await startFakeLlm();
  fake.reply(answer);
  dir = mkdtempSync(join(tmpdir(), 'triage-cli-pipeline-'));
  writeFileSync(
    join(dir, 'catalog.json'),
    JSON.stringify({
      default: 'big',
      models: [
        { id: 'small', tier: 'local_fast', inputCostPerMillion: 0, outputCostPerMillion: 0 },
      ],
    }),
  );
  config = join(dir, 'pipeline.json');
  writeFileSync(
    config,
    JSON.stringify({
      runner: {
        provider: { id: 'fake', kind: 'openai', baseUrl: fake.openAiBaseUrl, model: 'tiny' },
      },
      catalog: 'catalog.json',
    }),
  );
});
afterEach(() => {
  vi.restoreAllMocks();
  fake.reset().reply(answer);
  process.exitCode = undefined;
});
afterAll(async () => {
  await fake.close();
});

const pipelineCli = (...args: string[]) => runCli(['node', 'triage', 'pipeline', ...args]);

describe('triage pipeline', () => {
  it('prints the decision and one line per classifier', async () => {
    const io = captureOutput();
    expect(await pipelineCli('hello there', '--config', config)).toBe(0);
    const text = io.out();
    expect(text).toMatch(/^model\s+small\s+\(pass tier, 1 candidate\(s\)\)/m);
    expect(text).toMatch(/^tier\s+local_fast \(routing, near_certain\)/m);
    expect(text).toMatch(/^final reply\s+"Hello!"/m);
    expect(text).toMatch(/^injection\s+normal \(prompt_injection, near_certain\)/m);
    expect(text).toMatch(/^ {2}routing\s+llm\s+near_certain/m);
    // The stock prompt_injection classifier is decided by the local detector: seven model calls.
    expect(text).toMatch(/^ {2}prompt_injection\s+local\s/m);
    expect(fake.chatRequests).toHaveLength(7);
  });

  it('--json prints the result with its audit; --messages with a final assistant message inspects', async () => {
    const messages = join(dir, 'conversation.json');
    writeFileSync(
      messages,
      JSON.stringify({
        messages: [
          { role: 'user', content: 'hi' },
          { role: 'assistant', content: 'Hello!' },
        ],
      }),
    );
    const io = captureOutput();
    expect(await pipelineCli('--messages', messages, '--config', config, '--json')).toBe(0);
    const result = JSON.parse(io.out());
    expect(result.audit.meta.mode).toBe('inspect');
    expect(Object.keys(result.classifier_outputs).sort()).toEqual([
      'conversation_digest',
      'prompt_injection',
    ]);
  });

  it('without a configuration, says what to configure (exit 2)', async () => {
    const io = captureOutput();
    const saved = process.env.TRIAGE_PIPELINE_CONFIG;
    delete process.env.TRIAGE_PIPELINE_CONFIG;
    try {
      expect(await pipelineCli('hello')).toBe(2);
    } finally {
      if (saved !== undefined) process.env.TRIAGE_PIPELINE_CONFIG = saved;
    }
    expect(io.err()).toMatch(/no model is configured: pass --config FILE .*runner\.provider/);
    const empty = join(dir, 'empty.json');
    writeFileSync(empty, '{}');
    expect(await pipelineCli('hello', '--config', empty)).toBe(2);
    expect(io.err()).toMatch(/\/runner\/provider no LLM is configured/);
  });

  it('reports bad conversations as one line (exit 2)', async () => {
    const bad = join(dir, 'bad.json');
    writeFileSync(
      bad,
      JSON.stringify([
        { role: 'user', content: 'a' },
        { role: 'robot', content: 'b' },
      ]),
    );
    const io = captureOutput();
    expect(await pipelineCli('--messages', bad, '--config', config)).toBe(2);
    expect(io.err()).toMatch(/^triage: invalid pipeline messages: \/1\/role must be one of/);
    expect(await pipelineCli('--messages', join(dir, 'none.json'), '--config', config)).toBe(2);
    expect(io.err()).toMatch(/cannot read \S+none\.json: ENOENT/);
  });
});
