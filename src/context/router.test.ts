import { describe, expect, it } from 'vitest';
import { settlesWithin, until } from '../../test/timing.js';
import type { DecisionCache, LlmVerdict } from '../core/hybrid.js';
import { LlmHttpError } from '../llm/errors.js';
import type { CompletionRequest, CompletionResponse, LlmProvider } from '../llm/types.js';
import { GENERAL_CONTEXTUAL, PAGE_GROUNDED_DEFINITION, STANDALONE_DEFINITION } from './modes.js';
import { ContextRouter } from './router.js';

/**
 * An in-process provider that answers with whatever `reply` returns and records every request.
 * (Tests over HTTP against the fake LLM server are in `router.http.test.ts`.)
 */
class ScriptedProvider implements LlmProvider {
  readonly id = 'scripted';
  readonly model = 'tiny-router';
  readonly requests: CompletionRequest[] = [];
  constructor(
    readonly reply: (request: CompletionRequest) => Promise<Partial<CompletionResponse>>,
  ) {}
  async complete(request: CompletionRequest): Promise<CompletionResponse> {
    this.requests.push(request);
    const response = await this.reply(request);
    return { text: '', model: this.model, latencyMs: 1, ...response };
  }
}

const answering = (json: unknown) => new ScriptedProvider(async () => ({ json }));
const textAnswer = (text: string) => new ScriptedProvider(async () => ({ text }));
/** Never answers; rejects with the signal's reason when aborted, as a real provider does. */
const hanging = () =>
  new ScriptedProvider(
    (request) =>
      new Promise((_, reject) => {
        request.signal?.addEventListener('abort', () => reject(request.signal?.reason));
      }),
  );

const UNSURE = 'What is complexity in this context?'; // local: page grounded at 0.51
const SURE = 'Define macroeconomics very concisely';

describe('ContextRouter', () => {
  it('decides confident questions locally without asking the LLM', async () => {
    const llm = answering({ mode: GENERAL_CONTEXTUAL, confidence: 0.9, reason: 'x' });
    const router = new ContextRouter({ llm });
    const decision = await router.decide(SURE);
    expect(decision).toMatchObject({
      mode: STANDALONE_DEFINITION,
      source: 'local',
      confidence: 0.99,
      llmMs: 0,
      reason: 'signals: definition+concision',
    });
    expect(decision.policy.useImage).toBe(false);
    expect(llm.requests).toHaveLength(0);
  });

  it('asks the LLM when unsure, with the original design’s prompt, limits and schema', async () => {
    const llm = answering({
      mode: PAGE_GROUNDED_DEFINITION,
      confidence: 0.88,
      reason: 'spatial reference to the page',
    });
    const router = new ContextRouter({ llm });
    const decision = await router.decide(UNSURE);
    expect(decision).toMatchObject({
      mode: PAGE_GROUNDED_DEFINITION,
      source: 'llm',
      confidence: 0.88,
      llmConfidence: 0.88,
      local: { mode: PAGE_GROUNDED_DEFINITION, confident: false },
    });
    expect(decision.reason).toBe('llm confirmed local verdict: spatial reference to the page');
    expect(decision.policy).toMatchObject({ useImage: true, historyTurnWindow: 2 });
    const [request] = llm.requests;
    expect(request).toMatchObject({ maxTokens: 80, temperature: 0, timeoutMs: 350 });
    expect(request!.system).toBe(
      [
        'You classify user questions for a document-camera assistant.',
        'Return JSON only with keys mode, confidence, reason.',
        'mode must be one of: standalone_definition, page_grounded_definition, general_contextual.',
        '',
        'Use standalone_definition for direct concept definitions without requested page grounding.',
        "Use page_grounded_definition for definition requests tied to page location or document references (e.g., 'definition on the far right').",
        'Use general_contextual for general page interpretation.',
        '',
        'confidence must be between 0 and 1.',
      ].join('\n'),
    );
    expect(request!.messages).toEqual([
      {
        role: 'user',
        content: [
          'Classify this question.',
          '',
          'Examples:',
          '- Explain macroeconomics very concisely. => standalone_definition',
          '- Explain what complexity means in the definition on the far right. => page_grounded_definition',
          '- What does this section mean? => general_contextual',
          '',
          `Question: ${UNSURE}`,
        ].join('\n'),
      },
    ]);
    expect(request!.schema).toMatchObject({
      required: ['mode', 'confidence', 'reason'],
      properties: {
        mode: { enum: [STANDALONE_DEFINITION, PAGE_GROUNDED_DEFINITION, GENERAL_CONTEXTUAL] },
      },
    });
    expect(request!.signal).toBeInstanceOf(AbortSignal);
  });

  it('lets the LLM override the local verdict (document example 4’s flow)', async () => {
    const router = new ContextRouter({
      llm: answering({ mode: PAGE_GROUNDED_DEFINITION, confidence: 0.82, reason: 'far right' }),
    });
    const decision = await router.decide('What does the arrow in the diagram mean?');
    expect(decision).toMatchObject({
      mode: PAGE_GROUNDED_DEFINITION,
      source: 'llm',
      local: { mode: GENERAL_CONTEXTUAL },
    });
    expect(decision.reason).toContain('overrode');
    expect(router.stats).toMatchObject({ llmCalls: 1, llmOverrode: 1 });
  });

  it('falls back to a standalone definition at 0.5 when the LLM is unsure, recording both confidences', async () => {
    const router = new ContextRouter({
      llm: answering({ mode: GENERAL_CONTEXTUAL, confidence: 0.55, reason: 'hmm' }),
    });
    const decision = await router.decide(UNSURE);
    expect(decision).toMatchObject({
      mode: STANDALONE_DEFINITION,
      source: 'fallback',
      confidence: 0.5,
      llmConfidence: 0.55,
      reason: 'fallback:low_conf(local=0.51,llm=0.55)',
    });
    expect(decision.policy.maxSentences).toBe(2);
    expect(router.stats).toMatchObject({ llmUnsure: 1, fallbacks: 1 });
  });

  it('falls back when the LLM does not answer within the time limit', async () => {
    const llm = hanging();
    const router = new ContextRouter({ llm, config: { llm: { timeoutMs: 50 } } });
    const pending = router.decide(UNSURE);
    await until(() => llm.requests.length > 0); // its deadline is armed by now
    expect(await settlesWithin(pending, 50 + 50)).toBe(true);
    const decision = await pending;
    expect(decision).toMatchObject({
      mode: STANDALONE_DEFINITION,
      source: 'fallback',
      fallbackCause: 'llm_timeout',
      confidence: 0.5,
      reason: 'fallback:low_conf(local=0.51,llm=0.00)',
    });
    expect(llm.requests[0]!.signal?.aborted).toBe(true);
    expect(router.stats.llmTimeouts).toBe(1);
  });

  it('never gives the LLM less than 50 ms, whatever llm.timeoutMs says (the original design)', async () => {
    const llm = answering({ mode: GENERAL_CONTEXTUAL, confidence: 0.9, reason: 'x' });
    for (const timeoutMs of [1, 10, 49]) {
      const router = new ContextRouter({ llm, config: { llm: { timeoutMs } } });
      expect(router.config.llm.timeoutMs).toBe(timeoutMs);
      expect(router.llmTimeoutMs).toBe(50);
      expect(await router.decide(UNSURE)).toMatchObject({ source: 'llm' });
      expect(llm.requests.at(-1)!.timeoutMs).toBe(50);
    }
    expect(new ContextRouter({ config: { llm: { timeoutMs: 51 } } }).llmTimeoutMs).toBe(51);
  });

  it('falls back on an HTTP error, with the cause in fallbackCause', async () => {
    const llm = new ScriptedProvider(async () => {
      throw new LlmHttpError('scripted', 503, 'overloaded');
    });
    const decision = await new ContextRouter({ llm }).decide(UNSURE);
    expect(decision).toMatchObject({
      source: 'fallback',
      fallbackCause: 'llm_error',
      reason:
        'fallback:low_conf(local=0.51,llm=0.00): LlmHttpError: scripted: HTTP 503: overloaded',
    });
  });

  it.each([
    ['not JSON', textAnswer('I think it is about the page'), 'reply contains no JSON object'],
    [
      'an unknown mode',
      answering({ mode: 'visual', confidence: 0.9, reason: '' }),
      '/mode must be one of: standalone_definition',
    ],
    [
      'no confidence',
      answering({ mode: GENERAL_CONTEXTUAL, reason: 'x' }),
      '/confidence is required',
    ],
    [
      'a confidence above 1',
      answering({ mode: GENERAL_CONTEXTUAL, confidence: 1.5, reason: 'x' }),
      '/confidence must be <= 1',
    ],
    [
      'a confidence as text',
      answering({ mode: GENERAL_CONTEXTUAL, confidence: '0.9', reason: 'x' }),
      '/confidence must be number',
    ],
    ['an array', answering([GENERAL_CONTEXTUAL]), '(root) must be object'],
  ])('falls back on an answer with %s', async (_what, llm, message) => {
    const decision = await new ContextRouter({ llm }).decide(UNSURE);
    expect(decision).toMatchObject({ mode: STANDALONE_DEFINITION, source: 'fallback' });
    expect(decision.reason).toContain('LlmInvalidOutputError');
    expect(decision.reason).toContain(message);
  });

  it('reads JSON from a text answer wrapped in a code fence, and cuts a long reason', async () => {
    const reason = 'r'.repeat(500);
    const llm = textAnswer(
      `\`\`\`json\n${JSON.stringify({ mode: GENERAL_CONTEXTUAL, confidence: 0.9, reason })}\n\`\`\``,
    );
    const decision = await new ContextRouter({ llm }).decide(UNSURE);
    expect(decision).toMatchObject({ mode: GENERAL_CONTEXTUAL, source: 'llm' });
    expect(decision.reason).toBe(`llm overrode local verdict: ${'r'.repeat(200)}`);
  });

  it('caches LLM verdicts by normalised question', async () => {
    const llm = answering({ mode: PAGE_GROUNDED_DEFINITION, confidence: 0.9, reason: 'x' });
    const router = new ContextRouter({ llm });
    await router.decide(UNSURE);
    const again = await router.decide(`  ${UNSURE.toUpperCase()}   `);
    expect(again).toMatchObject({ mode: PAGE_GROUNDED_DEFINITION, source: 'cached', cached: true });
    expect(llm.requests).toHaveLength(1);
    expect(router.stats).toMatchObject({ llmCalls: 1, cacheHits: 1 });
    // Unsure verdicts are not cached: each is asked again.
    const unsure = answering({ mode: GENERAL_CONTEXTUAL, confidence: 0.2, reason: 'x' });
    const second = new ContextRouter({ llm: unsure });
    await second.decide(UNSURE);
    await second.decide(UNSURE);
    expect(unsure.requests).toHaveLength(2);
  });

  it('uses a cache given by the caller, and none when cacheSize is 0', async () => {
    const store = new Map<string, LlmVerdict<string>>();
    const cache: DecisionCache<string> = {
      get: (key) => store.get(key),
      set: (key, verdict) => store.set(key, verdict),
    };
    const llm = answering({ mode: PAGE_GROUNDED_DEFINITION, confidence: 0.9, reason: 'x' });
    await new ContextRouter({ llm, cache }).decide(UNSURE);
    expect([...store.keys()]).toEqual([`scripted\u0000tiny-router\u0000${UNSURE.toLowerCase()}`]);
    const uncached = new ContextRouter({ llm, config: { llm: { cacheSize: 0 } } });
    await uncached.decide(UNSURE);
    await uncached.decide(UNSURE);
    expect(llm.requests).toHaveLength(3);
  });

  it('sends the configured model, and at most maxQuestionChars of the question', async () => {
    const llm = answering({ mode: GENERAL_CONTEXTUAL, confidence: 0.9, reason: 'x' });
    const router = new ContextRouter({
      llm,
      config: { maxQuestionChars: 100, llm: { model: 'claude-haiku-4-5' } },
    });
    await router.decide(`What is complexity in this context? ${'x'.repeat(10_000)}`);
    expect(llm.requests[0]!.model).toBe('claude-haiku-4-5');
    expect(llm.requests[0]!.messages[0]!.content.endsWith('x'.repeat(64))).toBe(true);
    expect(llm.requests[0]!.messages[0]!.content.length).toBeLessThan(600);
  });

  it('without an LLM keeps an unsure local verdict, or falls back when configured to', async () => {
    const kept = await new ContextRouter().decide(UNSURE);
    expect(kept).toMatchObject({ mode: PAGE_GROUNDED_DEFINITION, source: 'local' });
    expect(kept.reason).toContain('no LLM configured');
    const strict = new ContextRouter({ config: { whenUnsureWithoutLlm: 'fallback' } });
    expect(await strict.decide(UNSURE)).toMatchObject({
      mode: STANDALONE_DEFINITION,
      source: 'fallback',
      fallbackCause: 'no_llm',
      reason: 'fallback:low_conf(local=0.51,llm=0.00)',
    });
    expect(await strict.decide('Hmm?')).toMatchObject({
      reason: 'fallback:low_conf(local=0.34,llm=0.00)',
    });
  });

  it('when disabled, gives every question general contextual without asking anyone', async () => {
    const llm = answering({ mode: STANDALONE_DEFINITION, confidence: 0.99, reason: 'x' });
    const router = new ContextRouter({ llm, config: { enabled: false } });
    for (const question of [SURE, UNSURE, 'Can you clarify?']) {
      const decision = await router.decide(question);
      expect(decision).toMatchObject({
        mode: GENERAL_CONTEXTUAL,
        source: 'forced',
        confidence: 1,
        reason: 'router disabled',
      });
      expect(decision.policy.useMemoryContext).toBe(true);
      expect(decision.local).toBeNull();
    }
    expect(llm.requests).toHaveLength(0);
  });

  it('offers the LLM the modes a user added', async () => {
    const llm = answering({ mode: 'code_help', confidence: 0.9, reason: 'code' });
    const router = new ContextRouter({
      llm,
      config: {
        modes: {
          code_help: {
            description: 'questions about source code on the page',
            examples: ['Why does this loop never end?'],
            score: { terms: [] },
            policy: { maxSentences: 4 },
          },
        },
      },
    });
    const decision = await router.decide('Hmm?');
    expect(decision).toMatchObject({ mode: 'code_help', source: 'llm' });
    expect(decision.policy.maxSentences).toBe(4);
    expect(llm.requests[0]!.system).toContain(
      'Use code_help for questions about source code on the page.',
    );
    expect(llm.requests[0]!.messages[0]!.content).toContain(
      '- Why does this loop never end? => code_help',
    );
  });

  it('rejects when the caller aborts, instead of falling back', async () => {
    const controller = new AbortController();
    const router = new ContextRouter({ llm: hanging() });
    const pending = router.decide(UNSURE, { signal: controller.signal });
    controller.abort(new Error('client went away'));
    await expect(pending).rejects.toThrow('client went away');
  });

  it('decides synchronously when no LLM call is needed, and says when one is', () => {
    const llm = answering({ mode: GENERAL_CONTEXTUAL, confidence: 0.9, reason: 'x' });
    const router = new ContextRouter({ llm });
    expect(router.decideLocally(SURE)).toMatchObject({
      mode: STANDALONE_DEFINITION,
      source: 'local',
    });
    expect(router.decideLocally(UNSURE)).toBeUndefined();
    expect(new ContextRouter().decideLocally(UNSURE)).toMatchObject({ source: 'local' });
    expect(new ContextRouter({ config: { enabled: false } }).decideLocally(SURE)).toMatchObject({
      mode: GENERAL_CONTEXTUAL,
      source: 'forced',
    });
    expect(llm.requests).toHaveLength(0);
    expect(router.stats).toMatchObject({ decisions: 1, local: 1 });
  });

  it('exposes the policy of any mode, and refuses unknown ones', () => {
    const router = new ContextRouter();
    expect(router.policy(GENERAL_CONTEXTUAL).maxSentences).toBeNull();
    expect(() => router.policy('nope')).toThrow(RangeError);
  });
});
