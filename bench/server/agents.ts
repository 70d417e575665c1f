import { Registry } from 'prom-client';
import { Pool } from 'undici';
import { AgentMetrics } from '../../src/server/agents/agent-metrics.js';
import { AgentStage } from '../../src/server/agents/agent-stage.js';
import { createTriageServer } from '../../src/server/app.js';
import { contextConfigOf, parseServerConfig } from '../../src/server/config.js';
import type { ChatRequestBody } from '../../src/server/decide.js';
import { startFakeLlm } from '../../src/testing/fake-llm-server.js';
import { createTriage } from '../../src/triage.js';
import { agentTraffic } from '../agents/traffic.js';

/**
 * `npm run bench:agents [-- --rounds N] [--json] [--aa]` (also run by `npm run bench:server`): what the
 * agent stage costs and saves on the agent-traffic fixture (bench/agents: 24 conversations, 40
 * tools per request), with tool selection, guidance and trimming all on.
 *
 * 1. The stage alone, in process: the time it adds to each request (the decisions, the rewritten
 *    body and its serialisation), replaying every conversation in order, per request.
 * 2. End to end over loopback: the same requests through a tier-only server and an all-features
 *    server in front of the fake upstream, taking turns, one at a time; the difference of the
 *    medians is what the features add (noisier: it includes the machine's jitter).
 * 3. The share of prompt tokens removed (estimated: a quarter of the JSON characters), by tool
 *    selection and by trimming.
 */

const args = process.argv.slice(2);
const rounds = Number(args[args.indexOf('--rounds') + 1]) || 20;
const json = args.includes('--json');

const AGENTS = {
  tools: { enabled: true },
  guidance: { enabled: true },
  context: { enabled: true },
};
/** The context router's general mode given a window for agent traffic (the current turn). */
const CONTEXT = { modes: { general_contextual: { policy: { historyTurnWindow: 1 } } } };

const traffic = agentTraffic();
const requests = traffic.flatMap((conversation) => conversation.requests) as ChatRequestBody[];

function percentile(sorted: readonly number[], q: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!;
}
const sortedOf = (values: number[]) => [...values].sort((a, b) => a - b);
const us = (ms: number) => Math.round(ms * 1000);

/** Part 1: the stage in process. */
function stageCost() {
  const config = parseServerConfig({ agents: AGENTS, context: CONTEXT });
  const triage = createTriage({ context: contextConfigOf(config) ?? false, injection: false });
  const stage = new AgentStage(config.agents, {
    llm: undefined,
    triage,
    metrics: new AgentMetrics(new Registry()),
  });
  const cancel = { signal: new AbortController().signal };
  const bytes = requests.map((request) => Buffer.byteLength(JSON.stringify(request)));
  const times: number[] = [];
  let before = 0;
  let removedTools = 0;
  let removedTrim = 0;
  let toolsKept = 0;
  let toolsTotal = 0;
  let nudges = 0;
  for (let round = 0; round < rounds; round++) {
    for (let i = 0; i < requests.length; i++) {
      const started = performance.now();
      const outcome = stage.apply(requests[i]!, {}, cancel, bytes[i]!);
      if (outcome instanceof Promise) throw new Error('the stage waited for an LLM: none is set');
      if (outcome?.changed) JSON.stringify(outcome.body);
      const ms = performance.now() - started;
      if (round === 0) continue; // the first round compiles the selector and warms up
      times.push(ms);
      if (round !== 1) continue;
      before += bytes[i]! / 4;
      removedTools += outcome?.report.tools?.tokensRemoved ?? 0;
      removedTrim += outcome?.report.trim?.tokensRemoved ?? 0;
      toolsKept += outcome?.report.tools?.kept ?? 0;
      toolsTotal += outcome?.report.tools?.total ?? 0;
      if (outcome?.report.guidance) nudges++;
    }
  }
  const sorted = sortedOf(times);
  return {
    samples: sorted.length,
    p50Us: us(percentile(sorted, 0.5)),
    p95Us: us(percentile(sorted, 0.95)),
    p99Us: us(percentile(sorted, 0.99)),
    promptTokens: Math.round(before),
    removedByTools: removedTools,
    removedByTrim: removedTrim,
    shareRemoved: (removedTools + removedTrim) / before,
    toolsKeptPerRequest: toolsKept / requests.length,
    toolsPerRequest: toolsTotal / requests.length,
    nudgesPerPass: nudges,
  };
}

/** Part 2: end to end, tier-only against all features. */
async function endToEnd() {
  const fake = await startFakeLlm();
  const base = {
    providers: { fake: { baseUrl: fake.openAiBaseUrl } },
    tiers: {
      SIMPLE: ['fake/small'],
      MEDIUM: ['fake/mid'],
      COMPLEX: ['fake/big'],
      REASONING: ['fake/think'],
    },
    server: { log: { level: 'silent' } },
    context: CONTEXT,
  };
  const servers = [
    createTriageServer({ config: parseServerConfig(base), processMetrics: false }),
    createTriageServer({
      // `--aa`: both servers tier-only, to see the noise floor of the difference.
      config: parseServerConfig({ ...base, ...(args.includes('--aa') ? {} : { agents: AGENTS }) }),
      processMetrics: false,
    }),
  ];
  const urls = await Promise.all(servers.map((server) => server.listen({ port: 0 })));
  const pools = urls.map((url) => new Pool(url, { connections: 1 }));
  const bodies = requests.map((request) => JSON.stringify(request));
  const times: number[][] = [[], []];
  const e2eRounds = Math.max(3, Math.floor(rounds / 4));
  for (let round = 0; round < e2eRounds; round++) {
    for (const body of bodies) {
      // Alternate which server goes first, so that neither always follows the other.
      const order = round % 2 === 0 ? [0, 1] : [1, 0];
      for (const which of order) {
        const started = performance.now();
        const answer = await pools[which]!.request({
          path: '/v1/chat/completions',
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body,
        });
        await answer.body.text();
        if (answer.statusCode !== 200) throw new Error(`status ${answer.statusCode}`);
        if (round > 0) times[which]!.push(performance.now() - started);
      }
    }
  }
  await Promise.all(pools.map((pool) => pool.close()));
  await Promise.all(servers.map((server) => server.close()));
  await fake.close();
  const [tierOnly, allOn] = times.map((t) => percentile(sortedOf(t), 0.5));
  return {
    samples: times[0]!.length,
    tierOnlyP50Us: us(tierOnly!),
    allFeaturesP50Us: us(allOn!),
    addedP50Us: us(allOn! - tierOnly!),
  };
}

const stage = stageCost();
const e2e = await endToEnd();
if (json) {
  console.log(JSON.stringify({ stage, e2e }, null, 2));
} else {
  console.log(
    `agent traffic: ${traffic.length} conversations, ${requests.length} requests, ` +
      `${stage.toolsPerRequest.toFixed(0)} tools each`,
  );
  console.log(
    `stage alone (tools + guidance + trim, in process): p50 ${stage.p50Us} µs, ` +
      `p95 ${stage.p95Us} µs, p99 ${stage.p99Us} µs over ${stage.samples} requests`,
  );
  console.log(
    `end to end over loopback: tier-only p50 ${e2e.tierOnlyP50Us} µs, all features p50 ` +
      `${e2e.allFeaturesP50Us} µs: added ${e2e.addedP50Us} µs (${e2e.samples} requests each)`,
  );
  console.log(
    `prompt tokens removed: ${(stage.shareRemoved * 100).toFixed(1)}% of ${stage.promptTokens} ` +
      `(tools ${stage.removedByTools}, trim ${stage.removedByTrim}); tools kept ` +
      `${stage.toolsKeptPerRequest.toFixed(1)} of ${stage.toolsPerRequest.toFixed(0)} per request; ` +
      `${stage.nudgesPerPass} nudges per pass`,
  );
}
