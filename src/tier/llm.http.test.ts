import { describe, expect, it } from 'vitest';
import { type KINDS, useFakeLlm } from '../llm/fake.test-helpers.js';
import { createTierRouter } from './router.js';

// The LLM check over real HTTP: the provider layer talks to the fake LLM server on 127.0.0.1 in
// each wire format; the router reads the one-word answer with the layer's label helper.

const AMBIGUOUS = 'What are the differences between TCP and UDP?';
const llm = useFakeLlm();
const provider = (kind: (typeof KINDS)[number] = 'openai') => llm.provider(kind, { maxRetries: 0 });

describe.each(['openai', 'anthropic', 'ollama'] as const)(
  'the tier LLM check over %s HTTP',
  (kind) => {
    it('asks only when unsure, with the truncated user text, and uses the answer', async () => {
      llm.fake.reply('COMPLEX');
      const router = createTierRouter({}, { classifier: provider(kind) });
      expect((await router.decide('What is the capital of France?')).source).toBe('local');
      expect(llm.fake.chatRequests).toHaveLength(0);
      const decision = await router.decide({
        messages: [
          { role: 'system', content: 'SYSTEM-SECRET' },
          { role: 'user', content: `${AMBIGUOUS} ${'and the sea '.repeat(60)}` },
        ],
      });
      expect(decision).toMatchObject({ tier: 'COMPLEX', source: 'llm' });
      expect(decision.llmMs).toBeGreaterThan(0);
      const sent = llm.fake.chatRequests[0]!;
      expect(sent.system).toContain('SIMPLE, MEDIUM, COMPLEX or REASONING');
      expect(JSON.stringify(sent.messages)).not.toContain('SYSTEM-SECRET');
      expect(sent.messages.at(-1)?.content.length).toBe(500);
      expect(router.stats).toMatchObject({ llmCalls: 1, llmOverrode: 1 });
    });
  },
);

describe('the tier LLM check failures over HTTP (document failure table)', () => {
  it('falls back to MEDIUM on a provider error, an invalid answer and a timeout', async () => {
    const router = createTierRouter(
      { llm: { timeoutMs: 300, cacheSize: 0 } },
      { classifier: provider() },
    );
    llm.fake.script({ status: 503, error: 'overloaded' }, 'BANANA', { hang: true });
    const failed = await router.decide(AMBIGUOUS);
    expect(failed).toMatchObject({ tier: 'MEDIUM', source: 'fallback' });
    const invalid = await router.decide(AMBIGUOUS);
    expect(invalid).toMatchObject({ tier: 'MEDIUM', source: 'fallback' });
    const started = performance.now();
    const hung = await router.decide(AMBIGUOUS);
    expect(hung).toMatchObject({ tier: 'MEDIUM', source: 'fallback' });
    expect(performance.now() - started).toBeLessThan(5_000); // cut off, not left to hang
    expect(router.stats).toMatchObject({ llmCalls: 3, fallbacks: 3 });
    expect(router.stats.llmTimeouts + router.stats.llmErrors).toBe(3);
  });

  it('caches a verdict: the second identical prompt makes no HTTP call', async () => {
    llm.fake.reply('simple');
    const router = createTierRouter({}, { classifier: provider() });
    await router.decide(AMBIGUOUS);
    const second = await router.decide(AMBIGUOUS);
    expect(second).toMatchObject({ tier: 'SIMPLE', cached: true });
    expect(llm.fake.chatRequests).toHaveLength(1);
  });
});
