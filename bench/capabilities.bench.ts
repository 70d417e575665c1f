import { fileURLToPath } from 'node:url';
import {
  CapabilityRegistry,
  CapabilitySelector,
  capabilitiesFromIntents,
  initialAgentState,
  Prematcher,
  readIntentDataset,
  routeAgent,
} from '../src/capabilities/index.js';
import { missingData, sharedData } from '../test/data.js';
import type { BenchCase } from './harness.js';

// The local pre-matcher runs once per task, before any LLM call: its cost over a small registry
// (the test assistant's 3 classifiable capabilities) and over CLINC150's 150 intents (5 examples
// each; skipped when the data folder, `TRIAGE_DATA_DIR`, lacks them), and the router's cost per decision.
const assistant = CapabilityRegistry.fromFile(
  fileURLToPath(new URL('../src/capabilities/testdata/assistant.yaml', import.meta.url)),
);
const small = new Prematcher(assistant.all().filter((c) => !c.alwaysActive));
const selector = new CapabilitySelector({ registry: assistant });
const question = "What's the weather like in Paris today?";

const state = initialAgentState({
  currentTask: question,
  activeCapabilities: ['respond', 'current_weather'],
  executionPlan: { steps: [{ capability: 'current_weather' }, { capability: 'respond' }] },
  currentStepIndex: 1,
  plansCreated: 1,
});
const failing = {
  ...state,
  hasError: true,
  error: { step: 'current_weather', severity: 'RETRIABLE' as const, message: 'timeout' },
};

export const benches: BenchCase[] = [
  {
    name: 'capabilities.prematch.small',
    description: '3 capabilities, 40-char task',
    fn: () => small.match(question),
  },
  {
    name: 'capabilities.select.local',
    description: 'whole selection, no LLM, 4 capabilities',
    fn: () => selector.select(question),
  },
  { name: 'capabilities.route', description: 'next plan step', fn: () => routeAgent(state) },
  {
    name: 'capabilities.route.retry',
    description: 'retriable error',
    fn: () => routeAgent(failing),
  },
];

const clinc = sharedData('intent/clinc150_data_full.json');
if (clinc) {
  const data = readIntentDataset(clinc);
  const large = new Prematcher(new CapabilityRegistry(capabilitiesFromIntents(data.train!)).all());
  const tasks = data.test!.filter((_, i) => i % 45 === 0).map(([text]) => text);
  const long = tasks.join(' ').repeat(40).slice(0, 4_000);
  let next = 0;
  benches.push(
    {
      name: 'capabilities.prematch.clinc150',
      description: '150 capabilities, CLINC150 test utterances',
      fn: () => large.match(tasks[next++ % tasks.length]!),
    },
    {
      name: 'capabilities.prematch.long',
      description: '150 capabilities, 4,000-char task',
      fn: () => large.match(long),
    },
  );
} else {
  process.stderr.write(
    `capabilities: CLINC150 cases skipped (${missingData('intent/clinc150_data_full.json')})\n`,
  );
}
