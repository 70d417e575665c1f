import { createProvider } from '../src/llm/config.js';
import type { CompletionRequest, CompletionResponse, LlmProvider } from '../src/llm/types.js';
import { createPipeline, parseCatalog } from '../src/pipeline/index.js';
import { TEST_CATALOG } from '../src/pipeline/pipeline.test-helpers.js';
import { type FakeRequest, startFakeLlm } from '../src/testing/index.js';
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

const catalog = parseCatalog(TEST_CATALOG);

const pipeline = createPipeline({ provider: instant, catalog });
const short = [
  { role: 'user', content: 'Write a unit test for the parse() function in parser.ts.' },
];
const turn = (i: number) => ({
  role: i % 2 ? 'assistant' : 'user',
  content: `Turn ${i}: ${'we discussed the grammar, its precedence rules and the error recovery. '.repeat(4)}`,
});
const long = [...Array.from({ length: 30 }, (_, i) => turn(i)), short[0]];

/**
 * Wall time of a run whose model calls each take 100 ms to answer, over real HTTP (the fake LLM
 * server, OpenAI wire format). Of the eight stock classifiers, `prompt_injection` is decided by
 * the local detector first, so seven go to the model: with the default 8 workers, and with the
 * source document's 7, a run takes about one answer, never seven.
 */
const fake = await startFakeLlm();
fake.reply((request: FakeRequest) => {
  const name = /# Classifier: (\w+)/.exec(request.system ?? '')?.[1] ?? '';
  return { json: { reason: 'ok', certainty: 'strong', ...ANSWERS[name] }, delayMs: 100 };
});
const http = createProvider({
  id: 'fake',
  kind: 'openai',
  baseUrl: fake.openAiBaseUrl,
  model: 'fake',
});
const overHttp = (concurrency: number) =>
  createPipeline({ provider: http, catalog, settings: { runner: { concurrency } } });
const seven = overHttp(7);

/** One call of 100 ms through the same provider: the least a run can take. */
export const floorCall: BenchCase = {
  name: 'floor.1x100ms',
  description: 'one classifier call of 100 ms over HTTP, alone',
  fn: () =>
    http.complete({
      system: '# Classifier: routing',
      messages: [{ role: 'user', content: 'x' }],
      schema: { type: 'object' },
    }),
};
const eight = overHttp(8);

export const benches: BenchCase[] = [
  {
    name: 'pipeline.wall.8x100ms.c8',
    description: '8 classifiers, 7 model calls × 100 ms over HTTP, 8 workers (default)',
    fn: () => eight.classify(short),
  },
  {
    name: 'pipeline.wall.8x100ms.c7',
    description: '8 classifiers, 7 model calls × 100 ms over HTTP, 7 workers (source document)',
    fn: () => seven.classify(short),
  },
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
