import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { type ConfiguredProvider, createProvider } from '../llm/config.js';
import { whenAbandonedClosed } from '../llm/fake.test-helpers.js';
import { type FakeLlmServer, startFakeLlm } from '../testing/index.js';
import { GENERAL_CONTEXTUAL, PAGE_GROUNDED_DEFINITION, STANDALONE_DEFINITION } from './modes.js';
import { ContextRouter } from './router.js';

/**
 * The context router against real HTTP: the provider adapters of `src/llm` talking to the fake
 * LLM server in each wire format, with the original design's limits (350 ms, 80 tokens).
 */
let fake: FakeLlmServer;
const providers: ConfiguredProvider[] = [];
beforeAll(async () => {
  fake = await startFakeLlm();
});
afterEach(() => {
  fake.reset().reply('ok');
});
afterAll(async () => {
  await Promise.all(providers.map((provider) => provider.close()));
  await fake.close();
});

const KINDS = ['openai', 'anthropic', 'ollama'] as const;
function provider(kind: (typeof KINDS)[number], extra: Record<string, unknown> = {}) {
  const created = createProvider({
    id: `fake-${kind}`,
    kind,
    baseUrl: kind === 'openai' ? fake.openAiBaseUrl : fake.url,
    model: 'router-model',
    maxRetries: 0,
    ...extra,
  });
  providers.push(created);
  return created;
}

/** Tests not about the deadline give a busy CI machine more than the original design's 350 ms. */
const patient = { llm: { timeoutMs: 5_000 } };
const UNSURE = 'What does the arrow in the diagram mean?'; // local: general contextual, 0.54
const SURE = 'Define macroeconomics very concisely';
const verdict = (mode: string, confidence: number, reason = 'page location') => ({
  json: { mode, confidence, reason },
});

describe.each(KINDS)('the context router over HTTP (%s)', (kind) => {
  it('asks only when unsure, with the prompt, schema and limits of the original design', async () => {
    fake.reply(verdict(PAGE_GROUNDED_DEFINITION, 0.86));
    const router = new ContextRouter({ llm: provider(kind), config: patient });
    expect(await router.decide(SURE)).toMatchObject({ source: 'local' });
    expect(fake.chatRequests).toHaveLength(0);

    const decision = await router.decide(UNSURE);
    expect(decision).toMatchObject({
      mode: PAGE_GROUNDED_DEFINITION,
      source: 'llm',
      confidence: 0.86,
      local: { mode: GENERAL_CONTEXTUAL, confident: false },
    });
    expect(decision.reason).toBe('llm overrode local verdict: page location');
    expect(decision.llmMs).toBeGreaterThan(0);
    const [request] = fake.chatRequests;
    expect(request!.system).toContain('mode must be one of: standalone_definition');
    expect(request!.prompt.endsWith(`Question: ${UNSURE}`)).toBe(true);
    expect(request!.schema).toMatchObject({ properties: { mode: { type: 'string' } } });
    const body = request!.body as Record<string, unknown>;
    const maxTokens =
      kind === 'ollama'
        ? (body.options as Record<string, unknown>).num_predict
        : (body.max_tokens ?? body.max_completion_tokens);
    expect(maxTokens).toBe(80);
  });

  it('falls back to a standalone definition when the LLM is unsure', async () => {
    fake.reply(verdict(GENERAL_CONTEXTUAL, 0.6));
    const decision = await new ContextRouter({ llm: provider(kind), config: patient }).decide(
      UNSURE,
    );
    expect(decision).toMatchObject({
      mode: STANDALONE_DEFINITION,
      source: 'fallback',
      confidence: 0.5,
      reason: 'fallback:low_conf(local=0.54,llm=0.60)',
    });
  });
});

// HTTP errors, malformed bodies, answers outside the schema and the verdict cache over HTTP: the
// shared scenarios of test/hybrid-http.test.ts (context.hybrid-conformance.ts).
describe('the context router over HTTP when the LLM never answers', () => {
  it('gives up at its default deadline (350 ms), and closes the connection', async () => {
    fake.reply({ hang: true });
    const router = new ContextRouter({ llm: provider('openai') });
    const started = performance.now();
    // The fake server never answers: the call can only have ended at the deadline.
    const decision = await router.decide(UNSURE);
    expect(performance.now() - started).toBeGreaterThanOrEqual(345);
    expect(decision).toMatchObject({
      mode: STANDALONE_DEFINITION,
      source: 'fallback',
      fallbackCause: 'llm_timeout',
      reason: 'fallback:low_conf(local=0.54,llm=0.00)',
    });
    await whenAbandonedClosed(fake);
  });
});
