import type { ConformanceCase } from '../../test/conformance.js';
import type { Classifier } from '../core/classifier.js';
import { allOf, anyOf, not, threshold } from '../core/composites.js';
import { TrajectoryBuilder } from './builder.js';
import { DoomLoopClassifier } from './classifiers/doom-loop.js';
import { ErrorStreakClassifier } from './classifiers/error-streak.js';
import { HighToolCountClassifier } from './classifiers/high-tool-count.js';
import { LargeOutputClassifier } from './classifiers/large-output.js';
import { ProgressStallClassifier } from './classifiers/progress-stall.js';
import { SensitiveContentClassifier } from './classifiers/sensitive-content.js';
import { SequentialWhenParallelClassifier } from './classifiers/sequential-when-parallel.js';
import { SingleToolRepeatedClassifier } from './classifiers/single-tool-repeated.js';
import type { GuidanceContext, TrajectoryEvent } from './types.js';

/**
 * The text of a conformance case put everywhere an agent's trajectory carries text: as a tool
 * name, as param keys and values, as result messages of successes and failures (so error
 * normalisation sees it), and as the params of a pending call (so sensitive-content scanning
 * sees it). Low thresholds make the classifiers reach their firing paths on these short stories.
 */
function contextOf(text: string): GuidanceContext {
  const tool = text.slice(0, 64) || 'empty';
  const key = text.slice(0, 32) || 'key';
  const events: TrajectoryEvent[] = [
    {
      type: 'tool_invoked',
      tool: 'search',
      params: { query: text },
      result: { success: true, message: text },
    },
    {
      type: 'tool_invoked',
      tool,
      params: { [key]: text, n: 1 },
      result: { success: false, message: text },
    },
    {
      type: 'tool_invoked',
      tool: 'grep',
      params: { pattern: text },
      result: { success: false, message: text },
    },
    {
      type: 'tool_invoked',
      tool,
      params: { [key]: text, n: 2 },
      result: { success: false, message: text },
    },
    {
      type: 'tool_invoked',
      tool: 'grep',
      params: { pattern: text },
      result: { success: false, message: text },
    },
    {
      type: 'tool_call',
      callId: 'pending',
      tool: 'write_file',
      params: { [key]: text, content: text },
    },
  ];
  const builder = new TrajectoryBuilder();
  for (const event of events) builder.onEvent(event);
  return builder.context;
}

const classifiers: Classifier<GuidanceContext>[] = [
  new DoomLoopClassifier({ minRepetitions: 2 }),
  new ErrorStreakClassifier({ threshold: 2 }),
  new ProgressStallClassifier({ stallThreshold: 2 }),
  new HighToolCountClassifier({ threshold: 6 }),
  new SingleToolRepeatedClassifier({ threshold: 2 }),
  new SequentialWhenParallelClassifier({ independentTools: ['grep', 'search'], threshold: 2 }),
  new LargeOutputClassifier({ sizeThreshold: 40 }),
  new SensitiveContentClassifier(),
];
const [doomLoop, errorStreak, stall, , , , largeOutput, sensitive] = classifiers;

export const conformance: ConformanceCase[] = [
  ...classifiers,
  allOf(doomLoop!, errorStreak!),
  anyOf(sensitive!, largeOutput!),
  not(stall!),
  threshold(errorStreak!, 0.9),
].map((classifier) => ({
  name: `guidance: ${classifier.name}`,
  classify: (text: string) => {
    const { relevant, confidence, reason, metadata } = classifier.classify(contextOf(text));
    return { relevant, confidence, ...(reason === undefined ? {} : { reason }), value: metadata };
  },
}));
