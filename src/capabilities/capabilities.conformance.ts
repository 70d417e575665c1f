import { fileURLToPath } from 'node:url';
import type { ConformanceCase } from '../../test/conformance.js';
import { Prematcher } from './prematcher.js';
import { CapabilityRegistry } from './registry.js';

// The local pre-matcher over the test registry (positive and negative examples, one capability
// without a guide added), checked as a whole and per capability: whatever the text, every verdict
// is well-formed and deterministic.
const registry = CapabilityRegistry.fromFile(
  fileURLToPath(new URL('./testdata/assistant.yaml', import.meta.url)),
).register({ name: 'no_guide', description: 'A capability without a classifier guide' });
const prematcher = new Prematcher(registry.all().filter((c) => !c.alwaysActive));

const whole: ConformanceCase = {
  name: 'capabilities: pre-matcher (all capabilities)',
  classify: (text) => {
    const { coverage, matches } = prematcher.match(text);
    const count = (decision: string) => matches.filter((m) => m.decision === decision).length;
    return {
      relevant: count('yes') > 0,
      confidence: Math.max(0, ...matches.map((m) => m.score)),
      reason: `${count('yes')} yes, ${count('no')} no, ${count('uncertain')} uncertain (coverage ${coverage.toFixed(2)})`,
      value: matches.map((m) => [m.name, m.decision, m.value, m.confidence, m.reason]),
    };
  },
};

const perCapability: ConformanceCase[] = prematcher.names.map((name, i) => ({
  name: `capabilities: pre-matcher → ${name}`,
  classify: (text) => {
    const match = prematcher.match(text).matches[i]!;
    return {
      relevant: match.value,
      confidence: match.confidence,
      reason: match.reason,
      value: [match.decision, match.score, match.negative],
    };
  },
}));

export const conformance: ConformanceCase[] = [whole, ...perCapability];
