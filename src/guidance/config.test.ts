import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigError } from '../core/errors.js';
import type { LlmProvider } from '../llm/types.js';
import { LlmGuidanceClassifier } from './classifiers/llm.js';
import { compileGuidanceConfig, loadGuidanceConfig } from './config.js';
import { GuidanceEngine } from './engine.js';
import { fail, ok } from './guidance.test-helpers.js';

const file = (name: string, text: string) => {
  const path = join(mkdtempSync(join(tmpdir(), 'triage-guidance-')), name);
  writeFileSync(path, text);
  return path;
};
const provider: LlmProvider = {
  id: 'none',
  model: 'm',
  complete: () => Promise.reject(new Error('not called')),
};
const issues = (value: unknown): string => {
  try {
    compileGuidanceConfig(value, 'test config');
  } catch (error) {
    if (error instanceof ConfigError) return error.message;
    throw error;
  }
  return 'accepted';
};

describe('guidance configuration', () => {
  it('builds the document layered configuration from YAML', () => {
    const path = file(
      'guidance.yaml',
      `
maxPerEvent: 1
trajectory: { window: 32 }
providers:
  - id: doom_loop_breaker
    guidance: "Break the loop: {reason}"
    maxPerTurn: 1
    classifier:
      type: threshold
      minConfidence: 0.8
      classifier: { type: doom_loop, minRepetitions: 3 }
  - guidance: "Diagnose: {reason}"
    classifier: { type: error_streak, threshold: 3 }
  - id: parallel_reminder
    guidance: Run independent calls in parallel.
    cooldownTurns: 10
    classifier: { type: sequential_when_parallel }
`,
    );
    const options = loadGuidanceConfig(path);
    expect(options.providers?.map((p) => [p.id, p.classifier?.name])).toEqual([
      ['doom_loop_breaker', 'threshold(doom_loop, 0.8)'],
      ['error_streak', 'error_streak'],
      ['parallel_reminder', 'sequential_when_parallel'],
    ]);
    expect(options.providers?.[2]).toMatchObject({
      cooldownTurns: 10,
      maxPerTurn: 1,
      minConfidence: 0.5,
    });
    expect(options.trajectory).toMatchObject({ window: 32, maxCycleLength: 10 });
    const engine = new GuidanceEngine(options);
    const fired = [fail('a', {}, 'boom'), fail('b', {}, 'bad'), fail('c', {}, 'worse')].flatMap(
      (e) => engine.onEvent(e),
    );
    expect(fired.map((g) => g.message)).toEqual(['Diagnose: 3 consecutive errors']);
  });

  it('reads JSON, and uses the default providers when none are listed', () => {
    const options = loadGuidanceConfig(file('g.json', '{"maxPerEvent": 2}'));
    expect(options.providers).toBeUndefined();
    expect(new GuidanceEngine(options).providerIds).toContain('doom_loop');
  });

  it('builds composites and every classifier type', () => {
    const options = compileGuidanceConfig({
      providers: [
        {
          guidance: 'x',
          classifier: {
            type: 'any_of',
            classifiers: [
              {
                type: 'all_of',
                classifiers: [
                  { type: 'doom_loop', minRepetitions: 2 },
                  { type: 'high_tool_count', threshold: 30 },
                ],
              },
              { type: 'not', classifier: { type: 'progress_stall' } },
              { type: 'single_tool_repeated', ignoreTools: ['read_file'] },
              { type: 'large_output', sizeThreshold: 5 },
              { type: 'sensitive_content', terms: ['ssn'] },
            ],
          },
        },
      ],
    });
    expect(options.providers?.[0]?.classifier?.name).toBe(
      'any_of(all_of(doom_loop, high_tool_count), not(progress_stall), single_tool_repeated, large_output, sensitive_content)',
    );
    const engine = new GuidanceEngine(options);
    expect(engine.onEvent(ok('a'))).toHaveLength(1); // not(progress_stall) holds
  });

  it('names every bad field by its path', () => {
    expect(
      issues({
        providers: [{ guidance: 'x', classifier: { type: 'doom_loop', minRepetitions: 1 } }],
      }),
    ).toBe('invalid test config: /providers/0/classifier/minRepetitions must be >= 2');
    expect(
      issues({ providers: [{ guidance: 'x', classifier: { type: 'doom_loop' }, cooldown: 2 }] }),
    ).toMatch('/providers/0/cooldown is not a known field');
    expect(issues({ providers: [{ guidance: 'x', classifier: { type: 'loop' } }] })).toMatch(
      /\/providers\/0\/classifier\/type must be one of: doom_loop, error_streak/,
    );
    expect(
      issues({
        providers: [
          {
            guidance: 'x',
            classifier: { type: 'any_of', classifiers: [{ type: 'error_streak', threshold: 0 }] },
          },
        ],
      }),
    ).toMatch('/providers/0/classifier/classifiers/0/threshold must be >= 1');
    expect(issues({ providers: [{ guidance: 'x', classifier: 'doom_loop' }] })).toMatch(
      '/providers/0/classifier must be a classifier object',
    );
    expect(issues({ providers: [{ classifier: { type: 'doom_loop' } }] })).toMatch(
      '/providers/0/guidance is required',
    );
    expect(
      issues({ providers: [{ guidance: 'x', classifier: { type: 'all_of', classifiers: [] } }] }),
    ).toMatch('/providers/0/classifier/classifiers must NOT have fewer than 1 items');
    expect(issues({ trajectory: { window: 1 } })).toMatch('/trajectory/window must be >= 8');
    expect(issues({ maxPerEvent: 0, extra: true })).toMatch('/maxPerEvent must be >= 1');
    expect(issues({ maxPerEvent: 0, extra: true })).toMatch('/extra is not a known field');
    expect(
      issues({
        providers: [
          { guidance: 'x', classifier: { type: 'doom_loop' } },
          { guidance: 'y', classifier: { type: 'doom_loop' } },
        ],
      }),
    ).toMatch("/providers/1/id duplicate id 'doom_loop'");
  });

  it('builds llm classifiers only with a provider, inside composites too, never as a gate', () => {
    const llm = {
      type: 'llm',
      question: 'Stuck?',
      gate: { type: 'progress_stall', stallThreshold: 3 },
    };
    expect(issues({ providers: [{ guidance: 'x', classifier: llm }] })).toMatch(
      '/providers/0/classifier/type llm needs an LLM provider',
    );
    const options = compileGuidanceConfig(
      { providers: [{ guidance: 'x', classifier: llm }] },
      'c',
      { llm: provider },
    );
    expect(options.providers?.[0]?.asyncClassifier).toBeInstanceOf(LlmGuidanceClassifier);
    expect(options.providers?.[0]?.asyncClassifier?.name).toBe('llm(m)');
    const composite = compileGuidanceConfig(
      {
        providers: [
          {
            guidance: 'x',
            classifier: {
              type: 'threshold',
              minConfidence: 0.7,
              classifier: {
                type: 'all_of',
                classifiers: [
                  { type: 'high_tool_count', threshold: 30 },
                  { type: 'not', classifier: llm },
                ],
              },
            },
          },
          { guidance: 'y', classifier: { type: 'any_of', classifiers: [{ type: 'doom_loop' }] } },
        ],
      },
      'c',
      { llm: provider },
    );
    expect(composite.providers?.[0]?.classifier).toBeUndefined();
    expect(composite.providers?.[0]?.asyncClassifier?.name).toBe(
      'threshold(all_of(high_tool_count, not(llm(m))), 0.7)',
    );
    expect(composite.providers?.[1]?.classifier?.name).toBe('any_of(doom_loop)');
    expect(() =>
      compileGuidanceConfig(
        {
          providers: [
            { guidance: 'x', classifier: { type: 'llm', question: 'Really?', gate: llm } },
          ],
        },
        'c',
        { llm: provider },
      ),
    ).toThrow('/providers/0/classifier/gate/type must be a local classifier');
  });

  it('creates the LLM provider of an llm section, for llm classifiers to ask', async () => {
    const llm = { id: 'local', kind: 'ollama', model: 'qwen3:0.6b', baseUrl: 'http://127.0.0.1:9' };
    const options = compileGuidanceConfig({
      llm,
      providers: [{ guidance: 'x', classifier: { type: 'llm', question: 'Stuck?' } }],
    });
    expect(options.llmProvider?.id).toBe('local');
    expect(options.providers?.[0]?.asyncClassifier?.name).toBe('llm(qwen3:0.6b)');
    await options.llmProvider?.close();
    expect(issues({ llm: { ...llm, kind: 'gpt' } })).toMatch(
      '/llm/kind must be one of: openai, anthropic, ollama',
    );
    expect(issues({ llm: { ...llm, apiKey: 'sk-1' } })).toMatch('/llm/apiKey is not a known field');
    expect(issues({ llm: { ...llm, apiKeyEnv: 'TRIAGE_TEST_UNSET_KEY' } })).toBe(
      'invalid test config: /llm/apiKeyEnv environment variable TRIAGE_TEST_UNSET_KEY is not set',
    );
  });

  it('accepts the example of docs/guidance.md', () => {
    const doc = readFileSync(new URL('../../docs/guidance.md', import.meta.url), 'utf8');
    const yaml = doc.slice(
      doc.indexOf('```yaml') + 7,
      doc.indexOf('```', doc.indexOf('```yaml') + 7),
    );
    const options = loadGuidanceConfig(file('doc.yaml', yaml), { llm: provider });
    expect(options.providers?.map((p) => p.id)).toEqual([
      'doom_loop_breaker',
      'diagnostics',
      'stuck',
      'parallel_reminder',
    ]);
  });

  it('reports unreadable and unparsable files', () => {
    expect(() => loadGuidanceConfig('/nonexistent/g.yaml')).toThrow(
      /g.yaml: \(root\) cannot be read \(ENOENT\)/,
    );
    expect(() => loadGuidanceConfig(file('bad.yaml', 'providers: [\n'))).toThrow(
      /is not valid YAML/,
    );
    expect(() => loadGuidanceConfig(file('bad.json', '{'))).toThrow(/is not valid JSON/);
  });
});
