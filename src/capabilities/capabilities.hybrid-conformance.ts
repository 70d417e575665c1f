import type { HybridCase, HybridVerdict } from '../../test/hybrid-http.js';
import { lruDecisionCache } from '../core/decision-cache.js';
import { CapabilitySelector } from './selection.js';

// Capability selection over HTTP (test/hybrid-http.ts): one structured yes/no per capability the
// pre-matcher cannot decide (here it is off, so the LLM is always asked); a capability whose
// check fails is reported as failed and not selected.
const TASK = 'Move my 3pm meeting to Friday';
const CALENDAR = { name: 'calendar', description: 'Reads and changes calendar events' };

export const hybridConformance: HybridCase[] = [
  {
    name: 'capability selection',
    create(llm, { timeoutMs, cache }) {
      const selector = new CapabilitySelector({
        registry: [CALENDAR],
        provider: llm,
        prematcher: false,
        timeoutMs,
        ...(cache ? { cache: lruDecisionCache<boolean>() } : {}),
      });
      const decide = async (): Promise<HybridVerdict> => {
        const decision = (await selector.select(TASK)).decisions[0]!;
        return { ...decision, value: decision.selected };
      };
      return {
        decide,
        decideAgain: decide,
        get stats() {
          return selector.stats;
        },
      };
    },
    answer: { reply: { json: { is_match: true, reason: 'a meeting to move' } }, value: true },
    outsideSchema: { json: { is_match: 'probably', reason: 'hard to say' } },
    fallback: false,
  },
];
