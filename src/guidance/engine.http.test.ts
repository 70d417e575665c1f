import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { type FakeLlmServer, startFakeLlm } from '../testing/index.js';
import { compileGuidanceConfig, type LoadedGuidanceConfig } from './config.js';
import { GuidanceEngine } from './engine.js';
import { fail, ok } from './guidance.test-helpers.js';

/**
 * The LLM classifier in the places the original design allows it: declared before local
 * providers (declaration order, first match wins) and inside composites, configured from a file
 * and answered over real HTTP by the fake LLM server.
 */
describe('guidance with an LLM provider over HTTP', () => {
  let fake: FakeLlmServer;
  const loaded: LoadedGuidanceConfig[] = [];
  beforeAll(async () => {
    fake = await startFakeLlm();
  });
  afterEach(() => {
    fake.reset();
  });
  afterAll(async () => {
    await Promise.all(loaded.map((l) => l.llmProvider?.close()));
    await fake.close();
  });
  const engine = (providers: unknown[]) => {
    const options = compileGuidanceConfig({
      llm: {
        id: 'fake',
        kind: 'openai',
        baseUrl: fake.openAiBaseUrl,
        model: 'tiny',
        maxRetries: 0,
      },
      maxPerEvent: 1,
      providers,
    });
    loaded.push(options);
    return new GuidanceEngine(options);
  };
  const verdict = (relevant: boolean, reason: string) => ({
    json: { relevant, confidence: 0.9, reason },
  });

  it('an LLM provider declared before a local one wins when it fires', async () => {
    const guide = engine([
      {
        id: 'stuck',
        guidance: 'Change approach: {reason}',
        classifier: { type: 'llm', question: 'Is the agent stuck?' },
      },
      {
        id: 'errors',
        guidance: 'Errors: {reason}',
        classifier: { type: 'error_streak', threshold: 1 },
      },
    ]);
    fake.script(verdict(true, 'the same build fails'), verdict(false, 'progressing'));
    expect(await guide.onEventAsync(fail('bash', { cmd: 'make' }, 'exit 2'))).toMatchObject([
      { provider: 'stuck', message: 'Change approach: LLM: the same build fails' },
    ]);
    expect(await guide.onEventAsync(fail('bash', { cmd: 'make' }, 'exit 2'))).toMatchObject([
      { provider: 'errors' },
    ]);
    expect(fake.chatRequests).toHaveLength(2);
  });

  it('an LLM classifier inside all_of is asked only when the local part fired', async () => {
    const guide = engine([
      {
        id: 'busy_and_stuck',
        guidance: 'Many calls and no progress: {reason}',
        classifier: {
          type: 'threshold',
          minConfidence: 0.8,
          classifier: {
            type: 'all_of',
            classifiers: [
              { type: 'high_tool_count', threshold: 3, warningRatio: 1 },
              { type: 'llm', question: 'Is the agent stuck?' },
            ],
          },
        },
      },
    ]);
    fake.script(verdict(true, 'it keeps reading the same files'));
    expect(await guide.onEventAsync(ok('read_file', { path: 'a.ts' }))).toEqual([]);
    expect(await guide.onEventAsync(ok('read_file', { path: 'b.ts' }))).toEqual([]);
    expect(fake.chatRequests).toHaveLength(0);
    expect(await guide.onEventAsync(ok('read_file', { path: 'c.ts' }))).toMatchObject([
      {
        provider: 'busy_and_stuck',
        classifier: 'threshold(all_of(high_tool_count, llm(tiny)), 0.8)',
        confidence: 0.95,
        reason: '3 tool calls reach the limit of 3; LLM: it keeps reading the same files',
      },
    ]);
    expect(fake.chatRequests).toHaveLength(1);
  });

  it('not over an LLM classifier that fails open does not invert the failure into guidance', async () => {
    const guide = engine([
      {
        id: 'not_stuck',
        guidance: 'Keep going',
        classifier: { type: 'not', classifier: { type: 'llm', question: 'Is the agent stuck?' } },
      },
    ]);
    fake.script(verdict(false, 'making progress'), { status: 503, error: 'down' });
    expect(await guide.onEventAsync(ok('a'))).toMatchObject([{ provider: 'not_stuck' }]);
    expect(await guide.onEventAsync(ok('b'))).toEqual([]);
    expect(fake.chatRequests).toHaveLength(2);
  });
});
