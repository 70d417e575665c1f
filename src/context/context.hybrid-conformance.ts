import type { HybridCase } from '../../test/hybrid-http.js';
import { PAGE_GROUNDED_DEFINITION, STANDALONE_DEFINITION } from './modes.js';
import { ContextRouter } from './router.js';

// The context router's LLM check over HTTP (test/hybrid-http.ts): a structured mode, a
// standalone definition when the check fails. The cache matches questions case-insensitively.
const UNSURE = 'What does the arrow in the diagram mean?'; // local: general contextual, unsure

export const hybridConformance: HybridCase[] = [
  {
    name: 'context router',
    create(llm, { timeoutMs, cache }) {
      const router = new ContextRouter({
        llm,
        config: { llm: { timeoutMs, ...(cache ? {} : { cacheSize: 0 }) } },
      });
      const decide = async (text: string) => {
        const decision = await router.decide(text);
        return { ...decision, value: decision.mode };
      };
      return {
        decide: () => decide(UNSURE),
        decideAgain: () => decide(UNSURE.toUpperCase()),
        get stats() {
          return router.stats;
        },
      };
    },
    answer: {
      reply: {
        json: { mode: PAGE_GROUNDED_DEFINITION, confidence: 0.86, reason: 'page location' },
      },
      value: PAGE_GROUNDED_DEFINITION,
    },
    outsideSchema: { json: { mode: 'a_mode_of_its_own', confidence: 0.9, reason: 'made up' } },
    fallback: STANDALONE_DEFINITION,
  },
];
