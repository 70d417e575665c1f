import type { ConformanceCase } from '../../test/conformance.js';
import { InjectionDetector } from './detector.js';

// The local detector as a user message, as a retrieved document, and with the strict preset:
// whatever the text, a well-formed verdict with evidence inside the text.
const balanced = new InjectionDetector();
const strict = new InjectionDetector({ preset: 'strict' });

function verdict(detector: InjectionDetector, text: string, source: 'user' | 'document') {
  const result = detector.detect(text, { source });
  return {
    confidence: result.confidence,
    relevant: result.riskLevel !== 'normal',
    reason: result.signals[0]?.label ?? result.riskLevel,
    value: result,
  };
}

export const conformance: ConformanceCase[] = [
  { name: 'injection: user message', classify: (text) => verdict(balanced, text, 'user') },
  { name: 'injection: document', classify: (text) => verdict(balanced, text, 'document') },
  { name: 'injection: strict preset', classify: (text) => verdict(strict, text, 'user') },
];
