import type { ConformanceCase } from '../../test/conformance.js';
import { LocalContextRouter } from './local-router.js';
import { ContextRouter } from './router.js';
import { limitSentences, splitSentences } from './sentences.js';

// Built once: the conformance suite calls `classify` thousands of times.
const local = new LocalContextRouter();
const strict = new ContextRouter({ config: { whenUnsureWithoutLlm: 'fallback' } });

export const conformance: ConformanceCase[] = [
  {
    name: 'context: local router',
    classify: (text) => {
      const route = local.route(text);
      return {
        confidence: route.confidence,
        reason: route.signals.length === 0 ? 'no signal' : route.signals.join('+'),
        value: { mode: route.mode, scores: route.scores, margin: route.margin },
      };
    },
  },
  {
    name: 'context: decision without an LLM (fallback when unsure)',
    classify: (text) => {
      const decision = strict.decideLocally(text);
      if (decision === undefined) throw new Error('no LLM is configured: must decide locally');
      return {
        confidence: decision.confidence,
        reason: decision.reason,
        value: { mode: decision.mode, source: decision.source },
      };
    },
  },
  {
    name: 'context: sentence splitter and limiter',
    classify: (text) => {
      const sentences = splitSentences(text);
      const limited = limitSentences(text, 2);
      if (limited.length > text.length) throw new Error('the limiter made the text longer');
      return { confidence: 1, reason: `${sentences.length} sentences`, value: limited };
    },
  },
];
