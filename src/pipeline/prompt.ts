import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { CERTAINTY_TAGS } from '../core/certainty.js';
import type { JsonSchema } from '../llm/types.js';
import { MAX_REASON_CHARS } from './output-schema.js';
import {
  MAX_REPLY_CHARS,
  PIPELINE_RISK_LEVELS,
  PIPELINE_SPECIALIZATIONS,
  PIPELINE_TIERS,
  type ReservedField,
} from './reserved-fields.js';
import { STOCK_CLASSIFIERS_DIR } from './stock.js';

/**
 * Prompt assembly from shared fragments (ARCHITECTURE, after open-classify): every classifier's
 * system prompt is the shared preamble, the classifier's own `prompt.md`, and an output section
 * built from the fragment of each field it may emit. A reserved field is described in one place,
 * so every classifier that emits it tells the model the same thing. Prompts are assembled once,
 * when the classifier is loaded.
 */

/** The fragments, read once from `classifiers/_prompts/`. */
interface Fragments {
  readonly base: string;
  readonly output: string;
  readonly reason: string;
  readonly certainty: string;
  readonly custom: string;
  readonly shape: string;
  readonly fields: Readonly<Record<ReservedField | 'reply_exclusive', string>>;
}

let fragments: Fragments | undefined;

function loadFragments(): Fragments {
  const dir = join(STOCK_CLASSIFIERS_DIR, '_prompts');
  const read = (name: string) => readFileSync(join(dir, `${name}.md`), 'utf8').trim();
  const field = (name: string) => read(`fields/${name}`);
  return {
    base: read('base'),
    output: read('output'),
    reason: read('reason'),
    certainty: read('certainty'),
    custom: read('custom'),
    shape: read('shape'),
    fields: {
      final_reply: field('final_reply'),
      ack_reply: field('ack_reply'),
      reply_exclusive: field('reply_exclusive'),
      model_tier: field('model_tier'),
      model_specialization: field('model_specialization'),
      tools: field('tools'),
      risk_level: field('risk_level'),
    },
  };
}

/** What a prompt is assembled from. */
export interface PromptParts {
  readonly name: string;
  readonly purpose: string;
  /** The classifier's `prompt.md`. */
  readonly body: string;
  readonly reservedFields: readonly ReservedField[];
  readonly allowedTools: readonly string[];
  readonly customProperties: Readonly<Record<string, JsonSchema>>;
  readonly customRequired: readonly string[];
}

const PLACEHOLDER = /\{\{\s*([a-z_]+)\s*\}\}/g;

/** The names `{{…}}` placeholders may use in `prompt.md` and the fragments. */
export const PROMPT_PLACEHOLDERS = [
  'name',
  'purpose',
  'allowed_tools',
  'certainty_tags',
  'tiers',
  'specializations',
  'risk_levels',
  'max_reason_chars',
  'max_reply_chars',
] as const;

/** The placeholders `text` uses that are not known (for load-time errors). */
export function unknownPlaceholders(text: string): string[] {
  const known: ReadonlySet<string> = new Set(PROMPT_PLACEHOLDERS);
  const unknown = new Set<string>();
  for (const match of text.matchAll(PLACEHOLDER)) {
    if (!known.has(match[1] as string)) unknown.add(match[1] as string);
  }
  return [...unknown];
}

/** Assembles the system prompt of a classifier. */
export function assembleSystemPrompt(parts: PromptParts): string {
  fragments ??= loadFragments();
  const f = fragments;
  const values: Record<string, string> = {
    name: parts.name,
    purpose: parts.purpose,
    allowed_tools: list(parts.allowedTools),
    certainty_tags: list(CERTAINTY_TAGS),
    tiers: list(PIPELINE_TIERS),
    specializations: list(PIPELINE_SPECIALIZATIONS),
    risk_levels: list(PIPELINE_RISK_LEVELS),
    max_reason_chars: String(MAX_REASON_CHARS),
    max_reply_chars: String(MAX_REPLY_CHARS),
  };
  const fill = (text: string) =>
    text.replace(PLACEHOLDER, (all, key: string) => values[key] ?? all);
  const output = [f.output, f.reason, f.certainty];
  for (const field of parts.reservedFields) output.push(f.fields[field]);
  if (parts.reservedFields.includes('final_reply') && parts.reservedFields.includes('ack_reply')) {
    output.push(f.fields.reply_exclusive);
  }
  const custom = Object.entries(parts.customProperties);
  if (custom.length > 0) {
    output.push('', f.custom);
    for (const [field, schema] of custom) {
      output.push(describeCustomField(field, schema, parts.customRequired.includes(field)));
    }
  }
  output.push(
    '',
    f.shape.replace(PLACEHOLDER, (all, key: string) =>
      key === 'shape' ? exampleShape(parts) : all,
    ),
  );
  const sections = [
    f.base,
    `# Classifier: ${parts.name}\nPurpose: ${parts.purpose}`,
    parts.body.trim(),
    `# Output\n${output.join('\n')}`,
  ];
  return fill(sections.join('\n\n'));
}

function list(values: readonly string[]): string {
  return values.map((value) => JSON.stringify(value)).join(', ');
}

/** `- queries (required): array of strings, at most 5. Search phrases …` */
function describeCustomField(field: string, schema: JsonSchema, required: boolean): string {
  const description = typeof schema.description === 'string' ? ` ${schema.description}` : '';
  return `- ${field} (${required ? 'required' : 'optional'}): ${describeType(schema)}.${description}`;
}

/** A short English description of a JSON Schema's type, enough for a model to write a value. */
export function describeType(schema: JsonSchema): string {
  if (Array.isArray(schema.enum)) return `one of ${list(schema.enum.map(String))}`;
  if (schema.const !== undefined) return `exactly ${JSON.stringify(schema.const)}`;
  const limits: string[] = [];
  const type = typeof schema.type === 'string' ? schema.type : 'value';
  if (type === 'array') {
    const items =
      schema.items && typeof schema.items === 'object'
        ? describeType(schema.items as JsonSchema)
        : 'values';
    if (typeof schema.maxItems === 'number') limits.push(`at most ${schema.maxItems} items`);
    return `array of ${pluralise(items)}${limits.length ? `, ${limits.join(', ')}` : ''}`;
  }
  if (typeof schema.maxLength === 'number') limits.push(`at most ${schema.maxLength} characters`);
  if (typeof schema.minimum === 'number') limits.push(`at least ${schema.minimum}`);
  if (typeof schema.maximum === 'number') limits.push(`at most ${schema.maximum}`);
  return `${type}${limits.length ? ` (${limits.join(', ')})` : ''}`;
}

function pluralise(description: string): string {
  return /^(string|number|integer|boolean|object)\b/.test(description)
    ? description.replace(/^(\w+)/, '$1s')
    : description;
}

/** An example output object, showing every field the classifier may emit. */
function exampleShape(parts: PromptParts): string {
  const example: Record<string, unknown> = { reason: '...', certainty: 'strong' };
  const replies =
    parts.reservedFields.includes('final_reply') && parts.reservedFields.includes('ack_reply');
  for (const field of parts.reservedFields) {
    if (replies && field === 'ack_reply') continue; // the example must itself be valid
    example[field] = RESERVED_EXAMPLES[field](parts.allowedTools);
  }
  for (const [field, schema] of Object.entries(parts.customProperties)) {
    example[field] = exampleValue(schema);
  }
  return JSON.stringify(example);
}

const RESERVED_EXAMPLES: Readonly<Record<ReservedField, (tools: readonly string[]) => unknown>> = {
  final_reply: () => ({ text: '...' }),
  ack_reply: () => ({ text: '...' }),
  model_tier: () => PIPELINE_TIERS[0],
  model_specialization: () => PIPELINE_SPECIALIZATIONS[0],
  tools: (tools) => tools.slice(0, 1),
  risk_level: () => PIPELINE_RISK_LEVELS[0],
};

function exampleValue(schema: JsonSchema): unknown {
  if (Array.isArray(schema.enum)) return schema.enum[0];
  if (schema.const !== undefined) return schema.const;
  switch (schema.type) {
    case 'array':
      return schema.items && typeof schema.items === 'object'
        ? [exampleValue(schema.items as JsonSchema)]
        : [];
    case 'object':
      return {};
    case 'number':
    case 'integer':
      return 0;
    case 'boolean':
      return false;
    default:
      return '...';
  }
}
