import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { settled, settlesWithin, until } from '../../../test/timing.js';
import { lruDecisionCache } from '../../core/decision-cache.js';
import { ClassificationResult } from '../../core/result.js';
import { whenAbandonedClosed } from '../../llm/fake.test-helpers.js';
import {
  type CompletionRequest,
  type CompletionResponse,
  type ConfiguredProvider,
  createProvider,
  LlmHttpError,
  type LlmProvider,
} from '../../llm/index.js';
import { type FakeLlmServer, startFakeLlm } from '../../testing/index.js';
import { contextOf, fail, ok } from '../guidance.test-helpers.js';
import type { GuidanceContext } from '../types.js';
import { DEFAULT_LLM_TIMEOUT_MS, LLM_REASON_LIMIT, LlmGuidanceClassifier } from './llm.js';

/** A provider answering from a script, recording what it was asked. */
class ScriptedProvider implements LlmProvider {
  readonly id = 'scripted';
  readonly model = 'tiny-1';
  readonly requests: CompletionRequest[] = [];
  constructor(readonly answer: (request: CompletionRequest) => Promise<CompletionResponse>) {}
  complete(request: CompletionRequest): Promise<CompletionResponse> {
    this.requests.push(request);
    return this.answer(request);
  }
}

const reply = (json: unknown, text = JSON.stringify(json)): Promise<CompletionResponse> =>
  Promise.resolve({ text, json, model: 'tiny-1', latencyMs: 1 });
const textReply = (text: string): Promise<CompletionResponse> =>
  Promise.resolve({ text, model: 'tiny-1', latencyMs: 1 });
const never = (request: CompletionRequest): Promise<CompletionResponse> =>
  new Promise((_, reject) =>
    request.signal?.addEventListener('abort', () => reject(request.signal?.reason)),
  );

const QUESTION = 'Is the agent stuck and should it change approach?';
const stuck: GuidanceContext = contextOf([
  ok('read_file', { path: 'secret/plan.md' }, 'RAW OUTPUT 42'),
  fail('bash', { cmd: 'make deploy TOKEN=abc' }, 'error: /srv/app/7 not found'),
  { type: 'tool_call', callId: 'p1', tool: 'web_search', params: { q: 'private' } },
]);
const classify = (answer: ScriptedProvider['answer'], extra = {}) => {
  const provider = new ScriptedProvider(answer);
  const classifier = new LlmGuidanceClassifier({ provider, question: QUESTION, ...extra });
  return { provider, classifier, result: classifier.classify(stuck) };
};

describe('LlmGuidanceClassifier: answers', () => {
  it('fires when the model says the guidance is relevant', async () => {
    const { result, provider, classifier } = classify(() =>
      reply({ relevant: true, confidence: 0.8, reason: 'same failure twice' }),
    );
    expect(await result).toMatchObject({
      relevant: true,
      confidence: 0.8,
      reason: 'LLM: same failure twice',
      metadata: { source: 'llm' },
    });
    expect(classifier.name).toBe('llm(tiny-1)');
    const [request] = provider.requests;
    expect(request?.schema).toMatchObject({
      type: 'object',
      required: ['relevant', 'confidence', 'reason'],
    });
    expect(request?.timeoutMs).toBe(DEFAULT_LLM_TIMEOUT_MS);
    expect(request?.temperature).toBe(0);
    expect(classifier.stats).toMatchObject({ llmCalls: 1, llmErrors: 0, fallbacks: 0 });
  });

  it('does not fire when the model says no, and keeps its reason', async () => {
    const { result } = classify(() =>
      reply({ relevant: false, confidence: 0.9, reason: 'progressing' }),
    );
    expect(await result).toMatchObject({ relevant: false, reason: 'LLM: progressing' });
  });

  it('parses a text answer when the provider returned no parsed JSON', async () => {
    const { result } = classify(() =>
      textReply('{"relevant": true, "confidence": 0.7, "reason": "loop"}'),
    );
    expect(await result).toMatchObject({ relevant: true, confidence: 0.7 });
  });

  it('cuts an over-long reason instead of rejecting the answer', async () => {
    const { result } = classify(() =>
      reply({ relevant: true, confidence: 0.6, reason: 'r'.repeat(5000) }),
    );
    const answer = await result;
    expect(answer.relevant).toBe(true);
    expect(answer.reason?.length).toBe('LLM: '.length + LLM_REASON_LIMIT);
  });

  it('sends a minimal summary: tools, outcomes, normalised errors, never params or output', async () => {
    const { result, provider } = classify(() =>
      reply({ relevant: false, confidence: 1, reason: 'x' }),
    );
    await result;
    const prompt = provider.requests[0]?.messages[0]?.content ?? '';
    expect(prompt).toContain(QUESTION);
    expect(prompt).toContain('1. read_file: ok');
    expect(prompt).toContain('2. bash: error: error: <path> not found');
    expect(prompt).toContain('Pending calls: web_search');
    expect(prompt).toContain('1 consecutive errors');
    for (const secret of ['secret/plan.md', 'RAW OUTPUT', 'TOKEN=abc', 'private', '/srv/app']) {
      expect(prompt).not.toContain(secret);
    }
  });
});

describe('LlmGuidanceClassifier: fails open', () => {
  it('on a timeout, at its deadline, aborting the call', async () => {
    const { result, provider, classifier } = classify(never, { timeoutMs: 40 });
    await until(() => provider.requests.length > 0); // its deadline is armed by now
    expect(await settlesWithin(result, 40 + 50)).toBe(true);
    const answer = await result;
    expect(answer.relevant).toBe(false);
    expect(answer.reason).toMatch(/^no guidance \(fail open\): LLM timeout/);
    expect(answer.metadata).toMatchObject({ source: 'fallback' });
    expect(provider.requests[0]?.signal?.aborted).toBe(true);
    expect(classifier.stats).toMatchObject({ llmTimeouts: 1, fallbacks: 1 });
  });

  it('on a provider error', async () => {
    const { result, classifier } = classify(() =>
      Promise.reject(new LlmHttpError('scripted', 503, 'overloaded')),
    );
    const answer = await result;
    expect(answer.relevant).toBe(false);
    expect(answer.reason).toContain('LLM error');
    expect(answer.reason).toContain('HTTP 503');
    expect(classifier.stats.llmErrors).toBe(1);
  });

  it('on an answer that is not JSON, or not the verdict schema', async () => {
    const cases: [() => Promise<CompletionResponse>, RegExp][] = [
      [() => textReply('Yes, I think so.'), /reply contains no JSON object/],
      [
        () => reply({ relevant: 'yes', confidence: 0.5, reason: 'x' }),
        /\/relevant must be boolean/,
      ],
      [() => reply({ relevant: true, confidence: 1.5, reason: 'x' }), /\/confidence must be <= 1/],
      [() => reply({ relevant: true, confidence: 0.5 }), /\/reason is required/],
      [
        () => reply({ relevant: true, confidence: 0.5, reason: 'x', extra: 1 }),
        /\/extra is not a known field/,
      ],
      [() => reply(['relevant']), /must be object/],
    ];
    for (const [answer, why] of cases) {
      const result = await classify(answer).result;
      expect(result.relevant).toBe(false);
      expect(result.reason).toMatch(why);
      expect(result.reason).toMatch(/fail open/);
    }
  });

  it('when the caller aborts, without throwing', async () => {
    const provider = new ScriptedProvider(never);
    const classifier = new LlmGuidanceClassifier({ provider, question: QUESTION });
    const controller = new AbortController();
    const pending = classifier.classify(stuck, controller.signal);
    controller.abort(new Error('client went away'));
    expect(await pending).toMatchObject({ relevant: false, metadata: { source: 'fallback' } });
  });

  it('rejects a bad question or timeout when built', () => {
    const provider = new ScriptedProvider(never);
    expect(() => new LlmGuidanceClassifier({ provider, question: ' ' })).toThrow(/question/);
    expect(() => new LlmGuidanceClassifier({ provider, question: 'q', timeoutMs: 0 })).toThrow(
      /timeoutMs/,
    );
  });
});

describe('LlmGuidanceClassifier: gate and cache', () => {
  const gate = (result: ClassificationResult) => ({ name: 'gate', classify: () => result });

  it('asks only when the gate fires, and trusts a sure gate without asking', async () => {
    const answer = () => reply({ relevant: true, confidence: 0.9, reason: 'stuck' });
    const skipped = classify(answer, { gate: gate(ClassificationResult.no()) });
    expect(await skipped.result).toEqual(ClassificationResult.no());
    expect(skipped.provider.requests).toHaveLength(0);
    expect(skipped.classifier.stats.gateSkips).toBe(1);

    const maybe = ClassificationResult.maybe(0.55, { reason: 'possible stall' });
    const asked = classify(answer, { gate: gate(maybe), trustGateAt: 0.9 });
    expect(await asked.result).toMatchObject({
      relevant: true,
      metadata: { gate: 'possible stall' },
    });
    expect(asked.provider.requests).toHaveLength(1);

    const sure = ClassificationResult.yes(0.95, { reason: 'certain' });
    const trusted = classify(answer, { gate: gate(sure), trustGateAt: 0.9 });
    expect(await trusted.result).toBe(sure);
    expect(trusted.provider.requests).toHaveLength(0);
    expect(trusted.classifier.stats.gateTrusted).toBe(1);
  });

  it('asks once for the same situation when given a cache', async () => {
    const provider = new ScriptedProvider(() =>
      reply({ relevant: true, confidence: 0.8, reason: 'loop' }),
    );
    const classifier = new LlmGuidanceClassifier({
      provider,
      question: QUESTION,
      cache: lruDecisionCache(),
    });
    await classifier.classify(stuck);
    expect(await classifier.classify(stuck)).toMatchObject({
      relevant: true,
      metadata: { cached: true },
    });
    expect(provider.requests).toHaveLength(1);
  });
});

describe('LlmGuidanceClassifier over real HTTP (fake LLM server)', () => {
  let fake: FakeLlmServer;
  const providers: ConfiguredProvider[] = [];
  beforeAll(async () => {
    fake = await startFakeLlm();
  });
  afterEach(() => {
    fake.reset();
  });
  afterAll(async () => {
    await Promise.all(providers.map((p) => p.close()));
    await fake.close();
  });
  /** A deadline far beyond any answer of the fake server, unless the test is about the default. */
  const provider = (
    kind: 'openai' | 'anthropic' | 'ollama',
    deadline: { timeoutMs?: number } = { timeoutMs: 10_000 },
  ) => {
    const p = createProvider({
      id: `fake-${kind}`,
      kind,
      baseUrl: kind === 'openai' ? fake.openAiBaseUrl : fake.url,
      model: 'fake-model',
      maxRetries: 0,
    });
    providers.push(p);
    return new LlmGuidanceClassifier({ provider: p, question: QUESTION, ...deadline });
  };

  for (const kind of ['openai', 'anthropic', 'ollama'] as const) {
    it(`asks for the verdict schema and reads the answer (${kind})`, async () => {
      fake.script({
        json: { relevant: true, confidence: 0.75, reason: 'the same test fails each time' },
      });
      expect(await provider(kind).classify(stuck)).toMatchObject({
        relevant: true,
        confidence: 0.75,
        reason: 'LLM: the same test fails each time',
        metadata: { source: 'llm' },
      });
      const [request] = fake.chatRequests;
      expect(request?.schema).toMatchObject({ required: ['relevant', 'confidence', 'reason'] });
      expect(request?.prompt).toContain(QUESTION);
      expect(request?.prompt).not.toContain('TOKEN=abc');
    });
  }

  it('gives up at 500 ms on a model that hangs, closes the connection, and fails open', async () => {
    fake.script({ hang: true });
    const classifier = provider('openai', {});
    const started = performance.now();
    const pending = classifier.classify(stuck);
    const done = settled(pending);
    await until(() => done() || fake.chatRequests.length > 0); // its deadline is armed by now
    expect(await settlesWithin(pending, DEFAULT_LLM_TIMEOUT_MS + 50)).toBe(true);
    const answer = await pending;
    const elapsed = performance.now() - started;
    expect(answer.relevant).toBe(false);
    expect(answer.reason).toMatch(/^no guidance \(fail open\): LLM timeout/);
    expect(elapsed).toBeGreaterThanOrEqual(DEFAULT_LLM_TIMEOUT_MS - 5);
    await whenAbandonedClosed(fake);
    expect(classifier.stats).toMatchObject({ llmTimeouts: 1, fallbacks: 1 });
  });

  it('fails open on an HTTP error and on a reply that is not the verdict', async () => {
    fake.script({ status: 503, error: 'overloaded' }, { raw: '{"choices": [' }, 'no idea', {
      json: { relevant: 'maybe', confidence: 0.5, reason: 'x' },
    });
    const classifier = provider('openai');
    const reasons = [];
    for (let i = 0; i < 4; i++) {
      const answer = await classifier.classify(stuck);
      expect(answer.relevant).toBe(false);
      reasons.push(answer.reason);
    }
    expect(reasons[0]).toMatch(/LLM error: .*HTTP 503/);
    expect(reasons[1]).toMatch(/LLM invalid answer/);
    expect(reasons[2]).toMatch(/reply contains no JSON object/);
    expect(reasons[3]).toMatch(/\/relevant must be boolean/);
    expect(classifier.stats).toMatchObject({ llmCalls: 4, llmErrors: 4, fallbacks: 4 });
  });
});
