import type { HybridCase } from '../../test/hybrid-http.js';
import { createTierRouter } from './router.js';

// The tier router's LLM check over HTTP (test/hybrid-http.ts): a one-word answer, MEDIUM when
// the check fails. The input is one the local scorer is unsure of (a change to the scorer may
// call for another: the first scenario then fails with source "local").
const UNSURE = 'What are the differences between TCP and UDP?';

export const hybridConformance: HybridCase[] = [
  {
    name: 'tier router',
    create(llm, { timeoutMs, cache }) {
      const router = createTierRouter(
        { llm: { timeoutMs, ...(cache ? {} : { cacheSize: 0 }) } },
        { classifier: llm },
      );
      const decide = async (text: string) => {
        const decision = await router.decide(text);
        return { ...decision, value: decision.tier };
      };
      return {
        decide: () => decide(UNSURE),
        decideAgain: () => decide(UNSURE),
        get stats() {
          return router.stats;
        },
      };
    },
    answer: { reply: 'COMPLEX', value: 'COMPLEX' },
    outsideSchema: 'BANANA',
    fallback: 'MEDIUM',
  },
];
