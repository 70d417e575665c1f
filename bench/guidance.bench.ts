import {
  DoomLoopClassifier,
  ErrorStreakClassifier,
  GuidanceEngine,
  HighToolCountClassifier,
  LargeOutputClassifier,
  ProgressStallClassifier,
  SensitiveContentClassifier,
  SequentialWhenParallelClassifier,
  SingleToolRepeatedClassifier,
  TrajectoryBuilder,
  type TrajectoryEvent,
} from '../src/guidance/index.js';
import { agentSession } from './guidance.fixture.js';
import type { BenchCase } from './harness.js';

// Every case starts from a session of 1,000 calls and keeps appending events of the same session
// in a cycle: the trajectory only grows, so any cost that depended on its length would show.
const session = agentSession(4_000);
const warm = (apply: (event: TrajectoryEvent) => unknown) => {
  let at = 0;
  let calls = 0;
  while (calls < 1_000) {
    const event = session[at++]!;
    apply(event);
    if (event.type === 'tool_result' || event.type === 'tool_invoked') calls++;
  }
  return () => {
    const event = session[at]!;
    at = at + 1 === session.length ? 0 : at + 1;
    return event;
  };
};

// The default set, as classifiers: all eight evaluated on every event (no first-match shortcut).
const builder = new TrajectoryBuilder();
const classifiers = [
  new SensitiveContentClassifier(),
  new DoomLoopClassifier(),
  new ErrorStreakClassifier(),
  new ProgressStallClassifier(),
  new LargeOutputClassifier(),
  new HighToolCountClassifier(),
  new SingleToolRepeatedClassifier(),
  new SequentialWhenParallelClassifier(),
];
const nextForSet = warm((event) => builder.onEvent(event));
const context = builder.context;

const engine = new GuidanceEngine();
const nextForEngine = warm((event) => engine.onEvent(event));

const appendOnly = new TrajectoryBuilder();
const nextForAppend = warm((event) => appendOnly.onEvent(event));

export const benches: BenchCase[] = [
  {
    name: 'guidance.per_event',
    description: 'append 1 event to a 1,000-call trajectory + all 8 default classifiers',
    fn: () => {
      builder.onEvent(nextForSet());
      let sum = 0;
      for (let i = 0; i < classifiers.length; i++)
        sum += classifiers[i]!.classify(context).confidence;
      return sum;
    },
  },
  {
    name: 'guidance.engine_event',
    description: 'GuidanceEngine.onEvent, default providers (limits, first match, messages)',
    fn: () => engine.onEvent(nextForEngine()),
  },
  {
    name: 'guidance.append',
    description: 'TrajectoryBuilder.onEvent alone (fingerprints, counters, rings)',
    fn: () => appendOnly.onEvent(nextForAppend()),
  },
];
