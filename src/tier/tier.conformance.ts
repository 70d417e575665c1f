import type { ConformanceCase } from '../../test/conformance.js';
import { createTierRouter } from './router.js';

// The tier router on every kind of text, as a prompt and as the content of a chat request: it
// must never throw, keep confidence in [0, 1], explain itself and be deterministic.
const router = createTierRouter();

export const conformance: ConformanceCase[] = [
  {
    name: 'tier: router on a prompt',
    classify: (text) => {
      const decision = router.classify(text);
      return { confidence: decision.confidence, reason: decision.reason, value: decision.tier };
    },
  },
  {
    name: 'tier: router on a chat request',
    classify: (text) => {
      const decision = router.classify({
        messages: [
          { role: 'system', content: text },
          { role: 'user', content: [{ type: 'text', text }] },
        ],
      });
      return {
        confidence: decision.confidence,
        reason: decision.reason,
        value: [decision.tier, decision.signals],
      };
    },
  },
];
