import type { Prematcher } from './prematcher.js';

/**
 * Measures the local pre-matcher on labelled tasks: how often it decides locally, how often those
 * local decisions are right, how many LLM calls it saves, and how well its similarity ranks the
 * right capability first. Used by `triage eval capabilities` and the CLINC150 test.
 */

/** A task and the capabilities it needs (empty: none of them, e.g. an out-of-scope request). */
export interface LabelledTask {
  readonly text: string;
  readonly expected: readonly string[];
}

/** The figures of {@link evaluatePrematcher}. Shares are in [0, 1]. */
export interface PrematcherEvaluation {
  readonly tasks: number;
  readonly capabilities: number;
  /** Capability decisions in all (tasks × capabilities). */
  readonly decisions: number;
  /** Share of decisions made locally (yes or no), without the LLM. */
  readonly localShare: number;
  /** Share of local decisions that were right. */
  readonly localPrecision: number;
  /** Share of local "yes" decisions that were right (1 when there were none). */
  readonly localYesPrecision: number;
  /** Share of local "no" decisions that were right. */
  readonly localNoPrecision: number;
  readonly localYes: number;
  readonly localNo: number;
  /** Share of needed capabilities that were ruled out locally (each one is a miss the LLM never sees). */
  readonly neededRuledOut: number;
  /** LLM calls per task: one per uncertain capability. */
  readonly llmCallsPerTask: number;
  /** LLM calls per task saved versus one call per capability. */
  readonly llmCallsSavedPerTask: number;
  /** Tasks whose first expected capability ranks first (tasks with one; see `PrematchMatch.rank`). */
  readonly top1Accuracy: number;
  /**
   * Tasks whose selection would be exactly right if the LLM answered every uncertain capability
   * correctly: the ceiling the pre-matcher leaves to the LLM.
   */
  readonly exactWithPerfectLlm: number;
  /** Tasks whose selection is exactly right from the local verdicts alone (no LLM configured). */
  readonly exactWithoutLlm: number;
  /** Mean microseconds per task of the pre-matcher (indicative; use the benchmark for figures). */
  readonly microsecondsPerTask: number;
}

/** Runs the pre-matcher over `tasks` and tallies the figures. */
export function evaluatePrematcher(
  prematcher: Prematcher,
  tasks: readonly LabelledTask[],
): PrematcherEvaluation {
  let yes = 0;
  let yesRight = 0;
  let no = 0;
  let noRight = 0;
  let needed = 0;
  let neededRuledOut = 0;
  let ranked = 0;
  let top1 = 0;
  let exactPerfect = 0;
  let exactAlone = 0;
  let elapsed = 0;
  for (const task of tasks) {
    const started = performance.now();
    const { matches } = prematcher.match(task.text);
    elapsed += performance.now() - started;
    const expected = new Set(task.expected);
    needed += expected.size;
    let perfect = true;
    let alone = true;
    let best = -1;
    matches.forEach((match, i) => {
      const wanted = expected.has(match.name);
      if (match.decision === 'yes') {
        yes++;
        if (wanted) yesRight++;
        else perfect = false;
      } else if (match.decision === 'no') {
        no++;
        if (!wanted) noRight++;
        else {
          neededRuledOut++;
          perfect = false;
        }
      }
      if (match.value !== wanted) alone = false;
      // No similarity at all is no prediction (not a win for whichever capability comes first).
      if (match.score > 0 && (best < 0 || match.rank > matches[best]!.rank)) best = i;
    });
    if (perfect) exactPerfect++;
    if (alone) exactAlone++;
    const first = task.expected[0];
    if (first !== undefined) {
      ranked++;
      if (best >= 0 && matches[best]!.name === first) top1++;
    }
  }
  const count = prematcher.names.length;
  const decisions = tasks.length * count;
  const local = yes + no;
  const ratio = (a: number, b: number, empty = 0) => (b > 0 ? a / b : empty);
  return {
    tasks: tasks.length,
    capabilities: count,
    decisions,
    localShare: ratio(local, decisions),
    localPrecision: ratio(yesRight + noRight, local, 1),
    localYesPrecision: ratio(yesRight, yes, 1),
    localNoPrecision: ratio(noRight, no, 1),
    localYes: yes,
    localNo: no,
    neededRuledOut: ratio(neededRuledOut, needed),
    llmCallsPerTask: ratio(decisions - local, tasks.length),
    llmCallsSavedPerTask: ratio(local, tasks.length),
    top1Accuracy: ratio(top1, ranked),
    exactWithPerfectLlm: ratio(exactPerfect, tasks.length),
    exactWithoutLlm: ratio(exactAlone, tasks.length),
    microsecondsPerTask: ratio(elapsed * 1000, tasks.length),
  };
}
