import type { LanguageModelV4, LanguageModelV4CallOptions } from '@ai-sdk/provider';
import { AIMessage, HumanMessage, SystemMessage } from '@langchain/core/messages';
import type { Model, ModelRequest } from '@openai/agents';
import { triageInjectionMiddleware, triageModel } from '../src/adapters/ai-sdk/index.js';
import { chatRequestOf } from '../src/adapters/ai-sdk/prompt.js';
import { TriageChatModel } from '../src/adapters/langchain/index.js';
import { chatRequestOf as langchainChatRequestOf } from '../src/adapters/langchain/messages.js';
import { triageModelProvider } from '../src/adapters/openai-agents/index.js';
import { chatRequestOf as agentsChatRequestOf } from '../src/adapters/openai-agents/input.js';
import { createTriage } from '../src/triage.js';
import type { BenchCase } from './harness.js';

/**
 * The adapters' own cost per call: each adapter's entry point called with a model that answers at
 * once, beside its `baseline`: the same decision on the same request plus the same model called
 * directly. The difference is what the adapter adds (reading the framework's prompt, choosing the
 * model, the fallback loop, the audit, re-streaming). The frameworks' own machinery around a call
 * (their callbacks, run trees, retries) is not counted: it is there with or without triage.
 */

const SYSTEM = 'You are a helpful assistant. Answer briefly.';
const QUESTION = 'What is the difference between a process and a thread, in two sentences?';
const triage = createTriage({ injection: false, context: false });
const screen = createTriage({ tier: false, context: false });

const TIER = { parts: ['tier'] } as const;
const INJECTION = { parts: ['injection'] } as const;

// AI SDK: a model that answers at once.
const usage = {
  inputTokens: { total: 10, noCache: 10, cacheRead: 0, cacheWrite: 0 },
  outputTokens: { total: 2, text: 2, reasoning: 0 },
};
const instant: LanguageModelV4 = {
  specificationVersion: 'v4',
  provider: 'bench',
  modelId: 'instant',
  supportedUrls: {},
  doGenerate: async () => ({
    content: [{ type: 'text', text: 'ok' }],
    finishReason: { unified: 'stop', raw: 'stop' },
    usage,
    warnings: [],
  }),
  doStream: async () => ({
    stream: new ReadableStream({
      start(controller) {
        controller.enqueue({ type: 'stream-start', warnings: [] });
        controller.enqueue({ type: 'text-start', id: '0' });
        controller.enqueue({ type: 'text-delta', id: '0', delta: 'ok' });
        controller.enqueue({ type: 'text-end', id: '0' });
        controller.enqueue({
          type: 'finish',
          usage,
          finishReason: { unified: 'stop', raw: 'stop' },
        });
        controller.close();
      },
    }),
  }),
};
const aiModel = triageModel({ tiers: { SIMPLE: instant, MEDIUM: instant }, triage });
const aiCall: LanguageModelV4CallOptions = {
  prompt: [
    { role: 'system', content: SYSTEM },
    { role: 'user', content: [{ type: 'text', text: QUESTION }] },
  ],
};
const middleware = triageInjectionMiddleware({ triage: screen });
const generated = instant.doGenerate(aiCall);

// OpenAI Agents SDK.
const agentsModel: Model = {
  getResponse: async () => ({ usage: {} as never, output: [] }),
  getStreamedResponse: async function* () {},
};
const agentsRouter = await triageModelProvider({
  tiers: { SIMPLE: agentsModel, MEDIUM: agentsModel },
  triage,
}).getModel();
const agentsRequest = {
  systemInstructions: SYSTEM,
  input: [{ role: 'user', content: QUESTION }],
  modelSettings: {},
  tools: [],
  outputType: 'text',
  handoffs: [],
  tracing: false,
} as unknown as ModelRequest;

// LangChain: the router's own `_generate` (the chat-model machinery around it is LangChain's).
const answer = new AIMessage('ok');
const langchainModel = { model: 'instant', invoke: async () => answer } as never;
const langchainRouter = new TriageChatModel({
  tiers: { SIMPLE: langchainModel, MEDIUM: langchainModel },
  triage,
});
const messages = [new SystemMessage(SYSTEM), new HumanMessage(QUESTION)];

const drain = async (stream: ReadableStream<unknown>) => {
  const reader = stream.getReader();
  while (!(await reader.read()).done) {}
};

const aiRequest = chatRequestOf(aiCall.prompt);
const agentsRequestAsChat = agentsChatRequestOf(agentsRequest.input, SYSTEM);
const langchainRequest = langchainChatRequestOf(messages);

export const benches: BenchCase[] = [
  {
    name: 'adapters.ai_sdk.generate.direct',
    description: 'baseline: the tier decision + the model called directly',
    fn: () => {
      triage.classify(aiRequest, TIER);
      return instant.doGenerate(aiCall);
    },
  },
  {
    name: 'adapters.ai_sdk.generate',
    description: 'triageModel.doGenerate over an instant model',
    baseline: 'adapters.ai_sdk.generate.direct',
    fn: () => aiModel.doGenerate(aiCall),
  },
  {
    name: 'adapters.ai_sdk.stream.direct',
    description: 'baseline: the tier decision + the model streamed directly, 5 parts read',
    fn: async () => {
      triage.classify(aiRequest, TIER);
      return drain((await instant.doStream(aiCall)).stream);
    },
  },
  {
    name: 'adapters.ai_sdk.stream',
    description: 'triageModel.doStream over an instant model, 5 parts read',
    baseline: 'adapters.ai_sdk.stream.direct',
    fn: async () => drain((await aiModel.doStream(aiCall)).stream),
  },
  {
    name: 'adapters.ai_sdk.injection.direct',
    description: 'baseline: the injection screen + the model called directly',
    fn: () => {
      screen.classify(aiRequest, INJECTION);
      return generated;
    },
  },
  {
    name: 'adapters.ai_sdk.injection',
    description: 'triageInjectionMiddleware.wrapGenerate over an instant model',
    baseline: 'adapters.ai_sdk.injection.direct',
    fn: () =>
      middleware.wrapGenerate!({
        doGenerate: () => generated,
        doStream: () => instant.doStream(aiCall),
        params: aiCall,
        model: instant,
      }),
  },
  {
    name: 'adapters.openai_agents.direct',
    description: 'baseline: the tier decision + the model called directly',
    fn: () => {
      triage.classify(agentsRequestAsChat, TIER);
      return agentsModel.getResponse(agentsRequest);
    },
  },
  {
    name: 'adapters.openai_agents',
    description: 'triageModelProvider model.getResponse over an instant model',
    baseline: 'adapters.openai_agents.direct',
    fn: () => agentsRouter.getResponse(agentsRequest),
  },
  {
    name: 'adapters.langchain.direct',
    description: 'baseline: the tier decision + the model called directly',
    fn: () => {
      triage.classify(langchainRequest, TIER);
      return (langchainModel as { invoke: () => Promise<AIMessage> }).invoke();
    },
  },
  {
    name: 'adapters.langchain',
    description:
      "TriageChatModel._generate over an instant model (LangChain's own invoke not counted)",
    baseline: 'adapters.langchain.direct',
    fn: () => langchainRouter._generate(messages, {} as never),
  },
];
