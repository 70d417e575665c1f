import {
  completionCacheKey,
  extractJson,
  matchLabel,
  parseConfidence,
  validateJson,
} from '../src/llm/index.js';
import type { BenchCase } from './harness.js';

// The CPU the LLM layer spends on each answer, beside the network call: reading JSON out of a
// reply, validating it, matching a label, hashing the cache key. The HTTP overhead of a whole call
// (layer vs bare undici, against the fake server) and the timeout cut-off accuracy are measured by
// `node --import tsx bench/llm-overhead.ts`: the harness times synchronous functions.
const schema = {
  type: 'object',
  properties: {
    mode: { type: 'string', enum: ['standalone', 'contextual', 'general_contextual'] },
    certainty: { type: 'string' },
    reason: { type: 'string', maxLength: 200 },
  },
  required: ['mode', 'certainty'],
} as const;
const jsonReply = '{"mode": "contextual", "certainty": "strong", "reason": "refers to it"}';
const chattyReply = `Sure! Here is my answer:\n\`\`\`json\n${jsonReply}\n\`\`\`\nLet me know.`;
const tiers = ['SIMPLE', 'MEDIUM', 'COMPLEX', 'REASONING'];
const value = JSON.parse(jsonReply);
const request = {
  system: 'You classify prompts into tiers. Answer with one word. '.repeat(20),
  messages: [
    { role: 'user' as const, content: 'Explain how a B-tree stays balanced. '.repeat(12) },
  ],
  maxTokens: 10,
  temperature: 0,
};

export const benches: BenchCase[] = [
  {
    name: 'llm.json.plain',
    description: 'extractJson of a bare JSON reply',
    fn: () => extractJson(jsonReply),
  },
  {
    name: 'llm.json.chatty',
    description: 'extractJson from fenced prose',
    fn: () => extractJson(chattyReply),
  },
  {
    name: 'llm.validate',
    description: 'ajv check of a 3-field answer (compiled once)',
    fn: () => validateJson(value, schema, 'bench'),
  },
  {
    name: 'llm.label.exact',
    description: 'matchLabel "COMPLEX"',
    fn: () => matchLabel('COMPLEX', tiers),
  },
  {
    name: 'llm.label.prose',
    description: 'matchLabel in a sentence',
    fn: () => matchLabel('I would say this is complex, because it has steps.', tiers),
  },
  {
    name: 'llm.confidence',
    description: 'parseConfidence("85%")',
    fn: () => parseConfidence('85%'),
  },
  {
    name: 'llm.cache.key',
    description: 'SHA-256 key of a 1.5 kB request',
    fn: () => completionCacheKey('p', 'm', request),
  },
];
