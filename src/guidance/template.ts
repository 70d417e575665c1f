import type { ClassificationResult } from '../core/result.js';

/** What a guidance template may refer to. */
export interface TemplateValues {
  readonly result: ClassificationResult;
  readonly turn: number;
  readonly provider: string;
  readonly classifier: string;
}

const PLACEHOLDER = /\{(\w+)\}/g;

/**
 * Compiles a guidance text with placeholders, once: `{reason}`, `{confidence}`, `{turn}`,
 * `{provider}`, `{classifier}`, or any key of the result's metadata (`{tool}`, `{cycle}`; arrays
 * are joined with ", "). A placeholder with no value is left as written.
 */
export function compileTemplate(text: string): (values: TemplateValues) => string {
  const parts = text.split(PLACEHOLDER);
  if (parts.length === 1) return () => text;
  return (values) => {
    let out = parts[0]!;
    for (let i = 1; i < parts.length; i += 2) {
      out += lookup(parts[i]!, values) + parts[i + 1]!;
    }
    return out;
  };
}

function lookup(name: string, values: TemplateValues): string {
  const { result } = values;
  switch (name) {
    case 'reason':
      return result.reason ?? '';
    case 'confidence':
      return result.confidence.toFixed(2);
    case 'turn':
      return String(values.turn);
    case 'provider':
      return values.provider;
    case 'classifier':
      return values.classifier;
  }
  const value = result.metadata?.[name];
  if (Array.isArray(value)) return value.join(', ');
  if (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean') {
    return String(value);
  }
  return `{${name}}`;
}
