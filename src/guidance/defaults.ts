import { DoomLoopClassifier } from './classifiers/doom-loop.js';
import { ErrorStreakClassifier } from './classifiers/error-streak.js';
import { HighToolCountClassifier } from './classifiers/high-tool-count.js';
import { LargeOutputClassifier } from './classifiers/large-output.js';
import { ProgressStallClassifier } from './classifiers/progress-stall.js';
import { SensitiveContentClassifier } from './classifiers/sensitive-content.js';
import { SequentialWhenParallelClassifier } from './classifiers/sequential-when-parallel.js';
import { SingleToolRepeatedClassifier } from './classifiers/single-tool-repeated.js';
import type { GuidanceProvider } from './engine.js';

/** The default guidance texts, by classifier name. Placeholders: see `compileTemplate`. */
export const DEFAULT_GUIDANCE: Readonly<Record<string, string>> = Object.freeze({
  sensitive_content:
    'The next tool call handles credentials or secrets ({reason}). Do not print, log or commit ' +
    'secret values; refer to them through environment variables or a secret store, and ask the ' +
    'user before sending them anywhere.',
  doom_loop:
    'You are repeating the same actions without getting anywhere ({reason}). Stop and reconsider: ' +
    're-read the last output or error, say what you expected and what happened instead, and try ' +
    'a different approach.',
  error_streak:
    'Your last tool calls failed ({reason}). Before retrying, read the error messages, check your ' +
    'assumptions (paths, arguments, permissions, state), and change something instead of ' +
    'repeating the same call.',
  progress_stall:
    'Recent tool calls have not produced anything new ({reason}). Summarise what you know, decide ' +
    'what information is missing and choose a step that obtains it, or ask the user.',
  large_output:
    'The last tool output was very large ({reason}). Keep only what you need from it, and prefer ' +
    'narrower calls (search, line ranges, filters) next time.',
  high_tool_count:
    'You have made many tool calls ({reason}). Check that you are still on track: finish up, or ' +
    'tell the user what is blocking you.',
  single_tool_repeated:
    'You called {tool} {run} times in a row. If each call does the same thing, step back: could ' +
    'one broader call, or another tool, do it?',
  sequential_when_parallel:
    'Your last turns each made a single call to an independent tool ({reason}). Make independent ' +
    'calls together in one response so that they run in parallel.',
});

/**
 * The default providers, in priority order: safety first (a pending call touching secrets), then
 * failure patterns (doom loop, error streak, stall), then efficiency hints, which are rate-limited
 * so they stay hints. Every call returns new classifier instances.
 */
export function defaultGuidanceProviders(): GuidanceProvider[] {
  const text = DEFAULT_GUIDANCE;
  return [
    { classifier: new SensitiveContentClassifier(), guidance: text.sensitive_content! },
    { classifier: new DoomLoopClassifier(), guidance: text.doom_loop!, cooldownTurns: 3 },
    { classifier: new ErrorStreakClassifier(), guidance: text.error_streak!, cooldownTurns: 2 },
    { classifier: new ProgressStallClassifier(), guidance: text.progress_stall!, cooldownTurns: 5 },
    // The last output stays the last until the next result: a cooldown keeps it to one mention.
    { classifier: new LargeOutputClassifier(), guidance: text.large_output!, cooldownTurns: 1 },
    {
      classifier: new HighToolCountClassifier(),
      guidance: text.high_tool_count!,
      cooldownTurns: 10,
      maxFiresPerSession: 3,
    },
    {
      classifier: new SingleToolRepeatedClassifier(),
      guidance: text.single_tool_repeated!,
      cooldownTurns: 5,
    },
    {
      classifier: new SequentialWhenParallelClassifier(),
      guidance: text.sequential_when_parallel!,
      cooldownTurns: 10,
    },
  ];
}
