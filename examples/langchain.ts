// triage in LangChain.js and LangGraph.js: a chat model routed by tier, and the agent router as
// a graph's central node. Run: OPENAI_API_KEY=… node --import tsx examples/langchain.ts
import { END, START, StateGraph } from '@langchain/langgraph';
import { ChatOpenAI } from '@langchain/openai';
import {
  capabilitiesSelected,
  planCreated,
  stepCompleted,
  taskExtracted,
} from 'triage/capabilities';
import {
  AgentRouterAnnotation,
  agentRouteEdge,
  agentRouterNode,
  type RoutingMetadata,
  TriageChatModel,
} from 'triage/langchain';

export async function main(baseURL = 'https://api.openai.com/v1', print = console.log) {
  const chat = (model: string) => new ChatOpenAI({ model, configuration: { baseURL } });
  const model = new TriageChatModel({
    tiers: { SIMPLE: chat('gpt-4o-mini'), REASONING: chat('o3-mini') },
  });
  for (const question of ['What is the capital of France?', 'Prove that √2 is irrational.']) {
    const answer = await model.invoke(question);
    const { tier, model: chosen } = answer.response_metadata.triage as RoutingMetadata;
    print(`${tier} → ${chosen}`);
  }

  // The router decides each next step; the nodes do the work and return state updates.
  const graph = new StateGraph(AgentRouterAnnotation)
    .addNode('router', agentRouterNode())
    .addNode('extract', () => taskExtracted('Summarise the weather in Paris'))
    .addNode('classify', () => capabilitiesSelected({ selected: ['current_weather'] }))
    .addNode('plan', (s) => planCreated(s, { steps: [{ capability: 'current_weather' }] }))
    .addNode('current_weather', (s) => {
      print(`step ${s.currentStepIndex + 1}: ${s.route?.reason}`);
      return stepCompleted(s);
    })
    .addNode('fail', (s) => {
      print(`failed: ${s.route?.reason}`);
      return {};
    })
    .addEdge(START, 'router')
    .addConditionalEdges('router', agentRouteEdge, {
      task_extraction: 'extract',
      classifier: 'classify',
      orchestrator: 'plan',
      current_weather: 'current_weather',
      done: END,
      error: 'fail',
    })
    .addEdge('extract', 'router')
    .addEdge('classify', 'router')
    .addEdge('plan', 'router')
    .addEdge('current_weather', 'router')
    .addEdge('fail', END)
    .compile();
  const final = await graph.invoke({});
  print(`route: ${final.route?.next} (${final.route?.reason})`);
}

if (import.meta.filename === process.argv[1]) await main();
