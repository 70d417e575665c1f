import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DecisionTimeoutError } from '../core/errors.js';
import { LlmHttpError } from '../llm/errors.js';
import type { CompletionRequest, CompletionResponse, LlmProvider } from '../llm/types.js';
import type { PipelineResult } from './envelope.js';
import { createPipeline } from './pipeline.js';
import { classifierDir, manifest } from './pipeline.test-helpers.js';

/**
 * The worker pool's mechanics, with an in-process provider whose timing the test controls
 * exactly. The same behaviours are exercised end to end over HTTP in `pipeline.test.ts`.
 */

type Answer = (request: CompletionRequest, signal: AbortSignal) => Promise<unknown> | unknown;

interface TestProvider extends LlmProvider {
  readonly calls: CompletionRequest[];
  readonly started: string[];
  maxInFlight: number;
  aborted: number;
}

function testProvider(answer: Answer): TestProvider {
  let inFlight = 0;
  const provider: TestProvider = {
    id: 'test',
    model: 'test-model',
    calls: [],
    started: [],
    maxInFlight: 0,
    aborted: 0,
    async complete(request: CompletionRequest): Promise<CompletionResponse> {
      provider.calls.push(request);
      provider.started.push(request.schemaName ?? '?');
      inFlight++;
      provider.maxInFlight = Math.max(provider.maxInFlight, inFlight);
      const signal = request.signal ?? new AbortController().signal;
      signal.addEventListener('abort', () => provider.aborted++, { once: true });
      try {
        const json = await answer(request, signal);
        return {
          text: JSON.stringify(json),
          json,
          model: request.model ?? 'test-model',
          latencyMs: 0,
        };
      } finally {
        inFlight--;
      }
    },
  };
  return provider;
}

/** Resolves after `ms`, or rejects with the signal's reason when it aborts first. */
function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(resolve, ms);
    signal.addEventListener('abort', () => {
      clearTimeout(timer);
      reject(signal.reason);
    });
  });
}

const ok = (reason = 'fine') => ({ reason, certainty: 'strong', label: 'x' });

let dir: ReturnType<typeof classifierDir>;
beforeEach(() => {
  dir = classifierDir();
  const schema = { type: 'object', properties: { label: { type: 'string' } }, required: ['label'] };
  const fallback = { reason: 'failed', certainty: 'no_signal', label: 'none' };
  dir.add('c_last', manifest({ output_schema: schema, fallback }));
  for (const [name, order] of [
    ['c_three', 3],
    ['c_one', 1],
    ['c_two', 2],
    ['c_four', 4],
  ] as const) {
    dir.add(name, manifest({ dispatch_order: order, output_schema: schema, fallback }));
  }
});
afterEach(() => dir.cleanup());

function pipeline(provider: LlmProvider, runner: Record<string, unknown> = {}) {
  return createPipeline({
    provider,
    settings: { runner: { stockClassifiers: false, classifierDirs: [dir.root], ...runner } },
  });
}

const hello = [{ role: 'user', content: 'hello' }];
const status = (result: PipelineResult, name: string) =>
  result.audit.meta.classifiers[name]?.status;

describe('worker pool', () => {
  it('starts classifiers in dispatch order, never more than `concurrency` at once', async () => {
    const provider = testProvider(async (_r, signal) => {
      await sleep(10, signal);
      return ok();
    });
    const result = await pipeline(provider, { concurrency: 2 }).classify(hello);
    expect(provider.started).toEqual(['c_one', 'c_two', 'c_three', 'c_four', 'c_last']);
    expect(provider.maxInFlight).toBe(2);
    expect(result.audit.classifier_outputs.map((o) => o.classifier)).toEqual(provider.started);
  });

  it('runs classifiers side by side: the run takes about one answer, not five', async () => {
    const provider = testProvider(async (_r, signal) => {
      await sleep(100, signal);
      return ok();
    });
    const result = await pipeline(provider).classify(hello);
    expect(provider.maxInFlight).toBe(5);
    // Timing is not asserted (shared machines); concurrency above is what makes the run short.
    expect(result.audit.meta.duration_ms).toBeGreaterThan(0);
  });

  it('retries a timed-out attempt once and uses the second answer', async () => {
    let calls = 0;
    const provider = testProvider(async (request, signal) => {
      if (request.schemaName === 'c_one' && calls++ === 0) await sleep(10_000, signal);
      return ok();
    });
    const result = await pipeline(provider, { attemptTimeoutMs: 50 }).classify(hello);
    expect(status(result, 'c_one')).toMatchObject({ source: 'llm', attempts: 2 });
    expect(provider.aborted).toBeGreaterThanOrEqual(1);
    expect(status(result, 'c_two')).toMatchObject({ source: 'llm', attempts: 1 });
  });

  it('falls back with reason timeout when every attempt times out', async () => {
    const provider = testProvider(async (request, signal) => {
      if (request.schemaName === 'c_two') await sleep(10_000, signal);
      return ok();
    });
    const result = await pipeline(provider, { attemptTimeoutMs: 30 }).classify(hello);
    expect(status(result, 'c_two')).toMatchObject({
      source: 'fallback',
      reason: 'timeout',
      attempts: 2,
      error: expect.stringContaining('classifier c_two did not answer within 30 ms'),
    });
    expect(result.classifier_outputs.c_two).toEqual({ label: 'none' });
    expect(result.audit.meta.certainty.min).toBe(0);
  });

  it('falls back with reason error after a failed retry; honours retries: 0', async () => {
    const provider = testProvider((request) => {
      if (request.schemaName === 'c_three') throw new LlmHttpError('test', 503, 'overloaded');
      return ok();
    });
    const result = await pipeline(provider).classify(hello);
    expect(status(result, 'c_three')).toMatchObject({
      source: 'fallback',
      reason: 'error',
      attempts: 2,
      error: 'LlmHttpError: test: HTTP 503: overloaded',
    });
    const once = await pipeline(provider, { retries: 0 }).classify(hello);
    expect(status(once, 'c_three')).toMatchObject({ source: 'fallback', attempts: 1 });
  });

  it('an invalid output is retried, then falls back, naming the field', async () => {
    const provider = testProvider((request) =>
      request.schemaName === 'c_four' ? { reason: 'r', certainty: 'strong', label: 7 } : ok(),
    );
    const result = await pipeline(provider).classify(hello);
    expect(status(result, 'c_four')).toMatchObject({
      source: 'fallback',
      reason: 'error',
      attempts: 2,
      error: expect.stringMatching(/LlmInvalidOutputError: test: .*\/label must be string/),
    });
  });

  it('a run time limit turns unfinished classifiers into timeout fallbacks', async () => {
    const provider = testProvider(async (request, signal) => {
      if (request.schemaName !== 'c_one') await sleep(10_000, signal);
      return ok();
    });
    const result = await pipeline(provider, { runTimeoutMs: 80, concurrency: 2 }).classify(hello);
    expect(status(result, 'c_one')).toMatchObject({ source: 'llm' });
    for (const name of ['c_two', 'c_three', 'c_four', 'c_last']) {
      expect(status(result, name)).toMatchObject({ source: 'fallback', reason: 'timeout' });
    }
    // Queued classifiers never started once the run was out of time.
    expect(provider.started.length).toBeLessThan(5);
  });

  it('an external abort cancels requests in flight, starts nothing more, and rejects', async () => {
    const provider = testProvider(async (_r, signal) => {
      await sleep(10_000, signal);
      return ok();
    });
    const controller = new AbortController();
    const run = pipeline(provider, { concurrency: 2 }).classify(hello, {
      signal: controller.signal,
    });
    setTimeout(() => controller.abort(new DecisionTimeoutError('client went away', 0)), 30);
    await expect(run).rejects.toThrow('client went away');
    expect(provider.started).toEqual(['c_one', 'c_two']);
    expect(provider.aborted).toBe(2);
    // An already aborted signal rejects before any request.
    const before = provider.calls.length;
    await expect(
      pipeline(provider).classify(hello, { signal: AbortSignal.abort() }),
    ).rejects.toThrow();
    expect(provider.calls.length).toBe(before);
  });

  it('sends each classifier its prompt, the shared conversation, schema and model', async () => {
    const provider = testProvider(() => ok());
    await pipeline(provider, {
      models: { c_two: 'special-model' },
      maxTokens: 99,
      seed: 7,
    }).classify([
      { role: 'user', content: 'earlier' },
      { role: 'assistant', content: 'reply' },
      { role: 'user', content: 'now' },
    ]);
    const c2 = provider.calls.find((c) => c.schemaName === 'c_two')!;
    const c1 = provider.calls.find((c) => c.schemaName === 'c_one')!;
    expect(c2.model).toBe('special-model');
    expect(c1.model).toBe('test-model');
    expect(c1).toMatchObject({ temperature: 0, seed: 7, maxTokens: 99, timeoutMs: 15_000 });
    expect(c1.system).toContain('# Classifier: c_one');
    expect(c1.messages).toHaveLength(1);
    expect(c1.messages[0]?.content).toBe(c2.messages[0]?.content);
    expect(c1.messages[0]?.content).toContain('<target role="user">\nnow\n</target>');
    expect(c1.schema).toMatchObject({ required: ['reason', 'certainty', 'label'] });
  });
});

describe('local stages', () => {
  const stage = (confidence: number, label = 'local') => ({
    minConfidence: 0.8,
    classify: () => ({
      value: { reason: 'local verdict', certainty: 'very_strong' as const, label },
      confidence,
    }),
  });

  it('a confident local stage answers without asking the model', async () => {
    const provider = testProvider(() => ok());
    const p = createPipeline({
      provider,
      settings: { runner: { stockClassifiers: false, classifierDirs: [dir.root] } },
      localStages: { c_one: stage(0.9) },
    });
    const result = await p.classify(hello);
    expect(provider.started).not.toContain('c_one');
    expect(status(result, 'c_one')).toMatchObject({ source: 'local', local_confidence: 0.9 });
    expect(result.classifier_outputs.c_one).toEqual({ label: 'local' });
    expect(p.localStats.c_one).toMatchObject({ decisions: 1, local: 1, llmCalls: 0 });
  });

  it('an unsure local stage asks the model; a failing model gives the fallback', async () => {
    const provider = testProvider((request) => {
      if (request.schemaName === 'c_two') throw new LlmHttpError('test', 500);
      return ok();
    });
    const p = createPipeline({
      provider,
      settings: { runner: { stockClassifiers: false, classifierDirs: [dir.root] } },
      localStages: { c_one: stage(0.5), c_two: stage(0.5) },
    });
    const result = await p.classify(hello);
    expect(status(result, 'c_one')).toMatchObject({
      source: 'llm',
      local_confidence: 0.5,
      attempts: 1,
    });
    expect(status(result, 'c_two')).toMatchObject({
      source: 'fallback',
      reason: 'error',
      attempts: 2,
      local_confidence: 0.5,
    });
    expect(result.classifier_outputs.c_two).toEqual({ label: 'none' });
    expect(p.localStats.c_one).toMatchObject({ llmCalls: 1, llmOverrode: 1 });
  });

  it('a stage that throws or answers invalidly counts as unsure', async () => {
    const provider = testProvider(() => ok());
    const p = createPipeline({
      provider,
      settings: { runner: { stockClassifiers: false, classifierDirs: [dir.root] } },
      localStages: {
        c_one: {
          minConfidence: 0.1,
          classify: () => {
            throw new Error('bug');
          },
        },
        c_two: {
          minConfidence: 0.1,
          classify: () => ({
            value: { reason: 'r', certainty: 'strong', label: 1 },
            confidence: 1,
          }),
        },
      },
    });
    const result = await p.classify(hello);
    expect(status(result, 'c_one')).toMatchObject({ source: 'llm', local_confidence: 0 });
    expect(status(result, 'c_two')).toMatchObject({ source: 'llm', local_confidence: 0 });
  });

  it('rejects stages and models for classifiers that are not loaded', () => {
    const provider = testProvider(() => ok());
    expect(() =>
      createPipeline({
        provider,
        settings: {
          runner: { stockClassifiers: false, classifierDirs: [dir.root], models: { nope: 'm' } },
        },
        localStages: { ghost: stage(1) },
      }),
    ).toThrow(
      /\/runner\/models\/nope is not a loaded classifier; \/localStages\/ghost is not a loaded classifier/,
    );
  });
});
