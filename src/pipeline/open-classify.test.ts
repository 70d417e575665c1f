import { fileURLToPath } from 'node:url';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { runCli } from '../cli/program.js';
import { type FakeLlmServer, type FakeRequest, startFakeLlm } from '../testing/index.js';
import { loadPipelineConfig, parsePipelineConfig, pipelineFromConfig } from './config.js';
import { PIPELINE_DEPRECATED_SETTING } from './settings.js';

/**
 * open-classify's own configuration file (test/fixtures/open-classify/, as that project's
 * example has it: an `ollama` section and the deprecated `aggregator.confidenceThreshold`) runs
 * unchanged, against the fake LLM server speaking Ollama's wire format, found through
 * `OLLAMA_HOST` as Ollama's clients find it.
 */

const FIXTURE = fileURLToPath(
  new URL('../../test/fixtures/open-classify/open-classify.config.json', import.meta.url),
);

/** Valid answers of the stock classifiers (the classifier's name is in its prompt's heading). */
function answer(request: FakeRequest) {
  const name = /# Classifier: (\w+)/.exec(request.system ?? '')?.[1] ?? '';
  const extra: Record<string, Record<string, unknown>> = {
    routing: { model_tier: 'local_coding' },
    model_specialization: { model_specialization: 'coding' },
    tools: { tools: ['workspace'] },
    prompt_injection: { risk_level: 'normal' },
    preflight: { ack_reply: { text: 'On it.' } },
    memory_retrieval_queries: { queries: [] },
    conversation_digest: { digest: 'A unit test.', topics: [] },
    context_shift: { shift: 'new_topic' },
  };
  return { json: { reason: 'Test request.', certainty: 'strong', ...extra[name] } };
}

const ASK = [{ role: 'user', content: 'Write a unit test for parse() in parser.ts.' }];

let fake: FakeLlmServer;
beforeAll(async () => {
  fake = await startFakeLlm();
});
afterEach(() => {
  fake.reset();
  vi.unstubAllEnvs();
  vi.restoreAllMocks();
});
afterAll(() => fake.close());

describe("open-classify's configuration file", () => {
  it('runs unchanged: each classifier its model, Ollama options passed through, the deprecated threshold read', async () => {
    fake.reply(answer);
    vi.stubEnv('OLLAMA_HOST', fake.url.replace('http://', ''));
    const warnings = vi.spyOn(process, 'emitWarning').mockImplementation(() => undefined);
    const { pipeline, provider } = pipelineFromConfig(loadPipelineConfig(FIXTURE));
    try {
      expect(warnings).toHaveBeenCalledWith(
        expect.stringContaining('aggregator.confidenceThreshold is deprecated'),
        { type: 'DeprecationWarning', code: PIPELINE_DEPRECATED_SETTING },
      );
      expect(provider.config).toMatchObject({ kind: 'ollama', model: 'gemma4:e4b-it-q4_K_M' });
      const result = await pipeline.classify(ASK);

      const requests = fake.chatRequests;
      expect(requests.length).toBeGreaterThanOrEqual(7);
      for (const request of requests) {
        expect(request.format).toBe('ollama');
        expect(request.body).toMatchObject({
          options: { num_ctx: 4096, top_p: 1, temperature: 0, seed: 0 },
        });
      }
      const modelOf = (name: string) =>
        requests.find((r) => r.system?.includes(`# Classifier: ${name}`))?.model;
      expect(modelOf('memory_retrieval_queries')).toBe('qwen3:1.7b');
      expect(modelOf('routing')).toBe('gemma4:e4b-it-q4_K_M');
      expect(modelOf('context_shift')).toBe('gemma4:e4b-it-q4_K_M'); // defaultModel

      expect(result.audit.meta.certainty_threshold).toBe(0.65);
      expect(result.downstream).toEqual({ tools: { tools: ['workspace'] } });
      expect(result.audit.model_recommendation).toMatchObject({
        model: null,
        resolution: {
          confidences: { routing: 0.75, model_tier: 0.75, model_specialization: 0.75 },
        },
      });
    } finally {
      await provider.close();
    }
  });

  it('runs unchanged through the CLI', async () => {
    fake.reply(answer);
    vi.stubEnv('OLLAMA_HOST', fake.url);
    vi.spyOn(process, 'emitWarning').mockImplementation(() => undefined);
    const out = vi.spyOn(process.stdout, 'write').mockImplementation(() => true);
    const code = await runCli([
      'node',
      'triage',
      'pipeline',
      '--config',
      FIXTURE,
      '--json',
      'Write a unit test for parse() in parser.ts.',
    ]);
    expect(code).toBe(0);
    const result = JSON.parse(out.mock.calls.map((c) => String(c[0])).join(''));
    expect(result.downstream.tools.tools).toEqual(['workspace']);
    expect(result.audit.model_recommendation.resolution.pass).toBe('no_catalog');
  });

  it('names the field of a bad ollama section, and refuses two LLMs', () => {
    expect(() => parsePipelineConfig({ ollama: { options: {} } }, 'oc.json')).toThrow(
      /\/ollama.*defaultModel is required/,
    );
    expect(() =>
      parsePipelineConfig(
        {
          ollama: { defaultModel: 'm' },
          runner: { provider: { id: 'x', kind: 'ollama', model: 'm' } },
        },
        'oc.json',
      ),
    ).toThrow(/\/ollama names a second LLM beside runner.provider/);
  });

  it('refuses the deprecated threshold beside the new one', () => {
    expect(() =>
      parsePipelineConfig(
        { aggregator: { confidenceThreshold: 0.5, certaintyThreshold: 0.6 } },
        'oc.json',
      ),
    ).toThrow(/confidenceThreshold is the deprecated name of certaintyThreshold/);
  });
});
