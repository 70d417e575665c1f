import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigError } from '../core/errors.js';
import { loadPipelineConfig, parsePipelineConfig, pipelineFromConfig } from './config.js';
import { classifierDir, manifest } from './pipeline.test-helpers.js';

function tempFile(name: string, text: string): string {
  const path = join(mkdtempSync(join(tmpdir(), 'triage-pipeline-config-')), name);
  writeFileSync(path, text);
  return path;
}

const PROVIDER = { id: 'local', kind: 'ollama', model: 'qwen3:1.7b' };

describe('pipeline configuration', () => {
  it('fills defaults: 8 workers (one per stock classifier), 15 s per attempt, one retry, threshold 0.65, 5,000/5,000/20', () => {
    const config = parsePipelineConfig({});
    expect(config.settings).toEqual({
      runner: {
        concurrency: 8,
        attemptTimeoutMs: 15_000,
        retries: 1,
        temperature: 0,
        seed: 0,
        maxTokens: 512,
        models: {},
        stockClassifiers: true,
        classifierDirs: [],
        disable: [],
      },
      aggregator: { certaintyThreshold: 0.65 },
      input: { targetChars: 5000, historyChars: 5000, historyMessages: 20 },
    });
    expect(config.provider).toBeUndefined();
    expect(config.catalog).toBeUndefined();
  });

  it('reads YAML, resolves paths from the file’s folder, loads the catalog file', () => {
    const dir = mkdtempSync(join(tmpdir(), 'triage-pipeline-config-'));
    writeFileSync(
      join(dir, 'catalog.json'),
      JSON.stringify({
        default: 'm',
        models: [{ id: 'm', tier: 'local_fast', inputCostPerMillion: 0, outputCostPerMillion: 0 }],
      }),
    );
    const path = join(dir, 'pipeline.yaml');
    writeFileSync(
      path,
      [
        'runner:',
        '  provider: { id: local, kind: ollama, model: qwen3 }',
        '  models: { routing: qwen3:4b }',
        '  classifierDirs: [./mine]',
        'catalog: ./catalog.json',
        'aggregator: { certaintyThreshold: 0.7 }',
      ].join('\n'),
    );
    const config = loadPipelineConfig(path);
    expect(config.provider).toMatchObject({ id: 'local', kind: 'ollama', timeoutMs: 10_000 });
    expect(config.settings.runner.classifierDirs).toEqual([join(dir, 'mine')]);
    expect(config.settings.runner.models).toEqual({ routing: 'qwen3:4b' });
    expect(config.catalog?.ranked.map((m) => m.id)).toEqual(['m']);
    expect(config.settings.aggregator.certaintyThreshold).toBe(0.7);
  });

  it('names every bad field, with the file', () => {
    const path = tempFile(
      'bad.json',
      JSON.stringify({
        runner: {
          concurrency: 0,
          retries: 'once',
          colour: 1,
          provider: { id: 'x', kind: 'gpt', model: 'm' },
        },
        aggregator: { certaintyThreshold: 2 },
        extra: true,
      }),
    );
    try {
      loadPipelineConfig(path);
      expect.unreachable();
    } catch (error) {
      expect(error).toBeInstanceOf(ConfigError);
      const e = error as ConfigError;
      expect(e.message).toContain(path);
      expect(e.issues.map((i) => i.path).sort()).toEqual(
        [
          '/aggregator/certaintyThreshold',
          '/extra',
          '/runner/colour',
          '/runner/concurrency',
          '/runner/provider/kind',
          '/runner/retries',
        ].sort(),
      );
    }
    expect(() => loadPipelineConfig(tempFile('x.json', '{'))).toThrow(/cannot be parsed/);
    expect(() => loadPipelineConfig('/nowhere/pipeline.json')).toThrow(/cannot be read \(ENOENT\)/);
    expect(() => parsePipelineConfig({ catalog: { default: 'x', models: [{ id: 'a' }] } })).toThrow(
      /\/catalog/,
    );
  });

  it('rejects credentials in provider headers, as the LLM layer does', () => {
    expect(() =>
      parsePipelineConfig({
        runner: { provider: { ...PROVIDER, headers: { Authorization: 'Bearer x' } } },
      }),
    ).toThrow(/\/headers\/Authorization must not hold a credential/);
  });

  it('without a provider, says what to configure', () => {
    expect(() => pipelineFromConfig(parsePipelineConfig({}, 'my.json'))).toThrow(
      /invalid my\.json: \/runner\/provider no LLM is configured: add a provider/,
    );
  });

  it('checks per-classifier models against the loaded classifiers', async () => {
    const dir = classifierDir();
    try {
      dir.add('mine', manifest());
      const config = parsePipelineConfig({
        runner: {
          provider: PROVIDER,
          classifierDirs: [dir.root],
          models: { mine: 'a', routing: 'b' },
        },
      });
      const { pipeline, provider } = pipelineFromConfig(config);
      expect(pipeline.classifiers.map((c) => c.name)).toContain('mine');
      await provider.close();
      expect(() =>
        pipelineFromConfig(
          parsePipelineConfig({ runner: { provider: PROVIDER, models: { mine: 'a' } } }, 'cfg'),
        ),
      ).toThrow(/cfg: \/runner\/models\/mine is not a loaded classifier/);
    } finally {
      dir.cleanup();
    }
  });
});
