import { tool } from '@langchain/core/tools';
import { END, START, StateGraph } from '@langchain/langgraph';
import { createReactAgent } from '@langchain/langgraph/prebuilt';
import { ChatOpenAI } from '@langchain/openai';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createAgentRouter } from '../../capabilities/agent/router.js';
import { StepError } from '../../capabilities/agent/severity.js';
import type { AgentState } from '../../capabilities/agent/state.js';
import {
  capabilitiesSelected,
  planCreated,
  stepCompleted,
  stepFailed,
  taskExtracted,
} from '../../capabilities/agent/updates.js';
import { DEFAULT_GUIDANCE } from '../../guidance/defaults.js';
import { byModel, type FakeLlmServer, startFakeLlm } from '../../testing/index.js';
import { doomLoopReplies } from '../shared/adapters.test-helpers.js';
import {
  AgentRouterAnnotation,
  agentRouteEdge,
  agentRouterNode,
  TriageChatModel,
  TriageGuidanceHandler,
} from './index.js';

/**
 * The LangChain adapter end to end: real @langchain/core, @langchain/langgraph and
 * @langchain/openai over real HTTP against the fake LLM server.
 */
describe('triage/langchain', () => {
  let fake: FakeLlmServer;
  beforeAll(async () => {
    fake = await startFakeLlm();
  });
  afterEach(() => {
    fake.reset();
    fake.reply('ok');
  });
  afterAll(async () => {
    await fake.close();
  });
  const chat = (model: string) =>
    new ChatOpenAI({
      model,
      apiKey: 'test',
      maxRetries: 0,
      configuration: { baseURL: fake.openAiBaseUrl },
    });
  const HARD =
    'Prove that there are infinitely many primes, step by step, then derive a formal proof of ' +
    'the bound on prime gaps using analytic number theory';

  describe('TriageChatModel', () => {
    it("routes each call to its tier's model, invoked or streamed", async () => {
      const model = new TriageChatModel({
        tiers: { SIMPLE: chat('small'), REASONING: chat('thinker') },
      });
      fake.reply((request) => `answer from ${request.model}`);
      const simple = await model.invoke('hi');
      expect(simple.text).toBe('answer from small');
      expect(simple.response_metadata.triage).toMatchObject({
        tier: 'SIMPLE',
        model: 'small',
        failed: [],
      });
      expect((await model.invoke(HARD)).text).toBe('answer from thinker');
      let streamed = '';
      for await (const chunk of await model.stream('hi')) streamed += chunk.text;
      expect(streamed).toBe('answer from small');
      expect(fake.chatRequests.map((r) => [r.model, r.stream])).toEqual([
        ['small', false],
        ['thinker', false],
        ['small', true],
      ]);
    });

    it('falls back down the chain before the first chunk', async () => {
      const failed: string[] = [];
      const model = new TriageChatModel({
        tiers: { SIMPLE: [chat('down'), chat('up')] },
        onFallback: (f) => failed.push(f.error instanceof Error ? f.error.name : 'error'),
      });
      fake.reply(byModel({ down: { status: 503, error: 'overloaded' }, up: 'from the backup' }));
      const answer = await model.invoke('hi');
      expect(answer.text).toBe('from the backup');
      expect(answer.response_metadata.triage).toMatchObject({ failed: ['down'] });
      let streamed = '';
      for await (const chunk of await model.stream('hi')) streamed += chunk.text;
      expect(streamed).toBe('from the backup');
      expect(failed).toHaveLength(2);
    });
  });

  describe('TriageGuidanceHandler', () => {
    it('turns a doom loop in an agent into guidance that reaches the next model call', async () => {
      const guide = new TriageGuidanceHandler();
      const model = new TriageChatModel({ tiers: { SIMPLE: chat('small') }, guidance: guide });
      const noop = (name: string) =>
        tool(async () => `${name} done`, { name, description: name, schema: z.object({}) });
      const agent = createReactAgent({
        llm: model,
        tools: [noop('search'), noop('read')],
        prompt: 'You fix tests.',
      });
      fake.script(...doomLoopReplies(3), 'I will try another way.');
      const result = await agent.invoke(
        { messages: [{ role: 'user', content: 'Find the flaky test and fix it' }] },
        { callbacks: [guide] },
      );
      expect(result.messages.at(-1)?.text).toBe('I will try another way.');
      const systems = fake.chatRequests.map((r) => r.system ?? '');
      const nudge = DEFAULT_GUIDANCE.doom_loop!.slice(0, 40);
      expect(systems.findIndex((s) => s.includes(nudge))).toBe(6);
      expect(systems[6]).toMatch(/^You fix tests\./);
      expect(guide.feed.engine.trajectory.length).toBe(6);
      expect(guide.feed.engine.trajectory.turnCount).toBe(7);
    });
  });

  describe('the agent router on LangGraph', () => {
    /** A capability agent: extract the task, select, plan one step per capability, run them. */
    const agentGraph = (weather: (state: AgentState) => Partial<AgentState>) => {
      const visited: string[] = [];
      const node =
        (name: string, run: (state: AgentState) => Partial<AgentState>) =>
        (state: typeof AgentRouterAnnotation.State) => {
          visited.push(name);
          return run(state as AgentState);
        };
      const graph = new StateGraph(AgentRouterAnnotation)
        .addNode('router', agentRouterNode({ router: createAgentRouter({ jitter: 0 }) }))
        .addNode(
          'extract',
          node('extract', () => taskExtracted('weather in Paris')),
        )
        .addNode(
          'classify',
          node('classify', () => capabilitiesSelected({ selected: ['current_weather'] })),
        )
        .addNode(
          'plan',
          node('plan', (s) => planCreated(s, { steps: [{ capability: 'current_weather' }] })),
        )
        .addNode('current_weather', node('current_weather', weather))
        .addNode(
          'fail',
          node('fail', () => ({})),
        )
        .addEdge(START, 'router')
        .addConditionalEdges('router', agentRouteEdge, {
          task_extraction: 'extract',
          classifier: 'classify',
          orchestrator: 'plan',
          current_weather: 'current_weather',
          done: END,
          error: 'fail', // a node may not share a name with a state field
        })
        .addEdge('extract', 'router')
        .addEdge('classify', 'router')
        .addEdge('plan', 'router')
        .addEdge('current_weather', 'router')
        .addEdge('fail', END)
        .compile();
      return { graph, visited };
    };

    it('reaches its end node when every plan step ran', async () => {
      const { graph, visited } = agentGraph((state) => stepCompleted(state));
      const final = await graph.invoke({});
      expect(visited).toEqual(['extract', 'classify', 'plan', 'current_weather']);
      expect(final.route).toMatchObject({ next: 'done' });
      expect(final.currentStepIndex).toBe(1);
      expect(final.hasError).toBe(false);
    });

    it('reaches its error node on a fatal error, the error state set by the reducers', async () => {
      const { graph, visited } = agentGraph((state) =>
        stepFailed(state, 'current_weather', new StepError('FATAL', 'the API key was revoked')),
      );
      const final = await graph.invoke({});
      expect(visited).toEqual(['extract', 'classify', 'plan', 'current_weather', 'fail']);
      expect(final.route).toMatchObject({ next: 'error', fatal: true, cause: 'severity' });
      expect(final.error).toMatchObject({ step: 'current_weather', severity: 'FATAL' });
    });

    it('retries a transient error after its delay, the retry counted in the state', async () => {
      let calls = 0;
      const { graph, visited } = agentGraph((state) =>
        ++calls === 1
          ? stepFailed(state, 'current_weather', new StepError('RETRIABLE', 'timeout'))
          : stepCompleted(state),
      );
      const final = await graph.invoke({});
      expect(visited.filter((v) => v === 'current_weather')).toHaveLength(2);
      expect(final.route).toMatchObject({ next: 'done' });
      expect(final.hasError).toBe(false);
      expect(final.error).toBeUndefined(); // cleared by the router's update, through the reducer
    });
  });
});
