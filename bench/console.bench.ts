import { TrafficRecorder } from '../src/server/console-recorder.js';
import { chatTraffic } from '../src/server/console-traffic.js';
import type { ProxyResult } from '../src/server/proxy.js';
import type { Routing } from '../src/server/routing.js';
import type { BenchCase } from './harness.js';

// What the web console adds to each proxied chat request when no page is open: the record built
// from what the chat endpoint already has, written to the ring (docs/console.md).
const routing = {
  decision: {
    tier: 'MEDIUM',
    chain: ['MEDIUM', 'COMPLEX'],
    forced: false,
    confidence: 0.9,
    signals: [],
    source: 'local',
    llmChecked: false,
    llmOverrode: false,
    llmMs: 0,
  },
  targets: [],
  decideMs: 0.02,
} as unknown as Routing;
const result = {
  outcome: { kind: 'answered' },
  answeredBy: { tier: 'MEDIUM', model: { id: 'openai/gpt-4o-mini' } },
  failures: [],
  status: 200,
} as unknown as ProxyResult;
const recorder = new TrafficRecorder();

export const benches: BenchCase[] = [
  {
    name: 'console.record',
    description:
      'the console recorder on a proxied request (no page open): one record, one ring slot',
    fn: () => recorder.record(chatTraffic(routing, result, 200, 0, undefined, undefined)),
  },
];
