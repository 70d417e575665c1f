import type { CompletionRequest, CompletionResponse, LlmProvider } from '../src/llm/types.js';
import { createPipeline, parseCatalog } from '../src/pipeline/index.js';
import type { BenchCase } from './harness.js';

/**
 * The pipeline's own overhead per run: everything but the LLM calls (input preparation, prompt
 * rendering, the worker pool, output repair and validation, merging, model resolution, the
 * audit envelope), measured with an in-process provider that answers at once with valid outputs
 * for the eight stock classifiers.
 */
const ANSWERS: Readonly<Record<string, Record<string, unknown>>> = {
  prompt_injection: { risk_level: 'normal' },
  preflight: { ack_reply: { text: 'On it.' } },
  routing: { model_tier: 'local_coding' },
  model_specialization: { model_specialization: 'coding' },
  tools: { tools: ['workspace', 'browser'] },
  memory_retrieval_queries: { queries: ['preferred language', 'current project'] },
  conversation_digest: { digest: 'The user is writing a parser.', topics: ['parser'] },
  context_shift: { shift: 'continuation' },
};

const instant: LlmProvider = {
  id: 'instant',
  model: 'instant',
  complete(request: CompletionRequest): Promise<CompletionResponse> {
    const name = request.schemaName ?? '';
    const json = {
      reason: 'Asks for a unit test of a recursive-descent parser, in the same file.',
      certainty: 'very_strong',
      ...ANSWERS[name],
    };
    return Promise.resolve({ text: '', json, model: 'instant', latencyMs: 0 });
  },
};

const catalog = parseCatalog({
  default: 'big',
  models: [
    {
      id: 'big',
      tier: 'frontier_strong',
      specializations: ['reasoning'],
      inputCostPerMillion: 3,
      outputCostPerMillion: 15,
    },
    {
      id: 'coder',
      tier: 'local_coding',
      specializations: ['coding'],
      inputCostPerMillion: 0.2,
      outputCostPerMillion: 0.6,
    },
    {
      id: 'chat',
      tier: 'local_fast',
      specializations: ['chat'],
      inputCostPerMillion: 0.1,
      outputCostPerMillion: 0.1,
    },
  ],
});

const pipeline = createPipeline({ provider: instant, catalog });
const short = [
  { role: 'user', content: 'Write a unit test for the parse() function in parser.ts.' },
];
const turn = (i: number) => ({
  role: i % 2 ? 'assistant' : 'user',
  content: `Turn ${i}: ${'we discussed the grammar, its precedence rules and the error recovery. '.repeat(4)}`,
});
const long = [...Array.from({ length: 30 }, (_, i) => turn(i)), short[0]];

export const benches: BenchCase[] = [
  {
    name: 'pipeline.overhead.short',
    description: '8 stock classifiers, instant provider, one message',
    fn: () => pipeline.classify(short),
  },
  {
    name: 'pipeline.overhead.history',
    description: '8 stock classifiers, instant provider, 30-message history',
    fn: () => pipeline.classify(long),
  },
];
