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
      // A deadline far beyond any answer of the fake server (the default is 1 s).
      const router = createTierRouter(
        { llm: { timeoutMs: 10_000 } },
        { classifier: provider(kind) },
      );
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

// Timeouts, HTTP errors, malformed and invalid answers and the verdict cache over HTTP: the shared
// scenarios of test/hybrid-http.test.ts (tier.hybrid-conformance.ts).
