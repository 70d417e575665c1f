import { type Command, InvalidArgumentError } from 'commander';
import { evaluatePrematcher, type PrematcherEvaluation } from '../../capabilities/evaluate.js';
import {
  capabilitiesFromIntents,
  intentDataset,
  labelledTasks,
} from '../../capabilities/intent-dataset.js';
import { Prematcher, type PrematcherOptions } from '../../capabilities/prematcher.js';
import { CapabilityRegistry } from '../../capabilities/registry.js';
import { writeFiguresHtmlReport } from '../../console/report/cli-report.js';
import { displayName, InputError, readInputFile } from '../io.js';
import { fraction, integer } from '../numbers.js';
import { wantsJson, writeJson } from '../output.js';

/**
 * `triage eval capabilities FILE.json`: measures the local pre-matcher on an intent data set in
 * CLINC150's layout (`{ "train": [[text, intent], …], "test": […], "oos_test": […] }`): each
 * intent becomes a capability with a few of its training utterances as examples, and the
 * utterances of a split are classified.
 */
export function registerCapabilitiesEval(evalCommand: Command): void {
  evalCommand
    .command('capabilities')
    .description('measure the local capability pre-matcher on an intent data set (CLINC150 layout)')
    .argument(
      '<file>',
      'the data set (JSON: {"train": [[text, intent], ...], "test": [...]}; - for standard input)',
    )
    .option('--split <name>', 'the split to classify', 'test')
    .option('--examples <n>', 'training utterances per intent used as examples', integer, 5)
    .option('--seeds <list>', 'seeds of the choice of examples, comma-separated', seeds, [0])
    .option('--every <n>', 'classify every n-th utterance only', integer, 1)
    .option('--with-oos', 'also classify oos_<split> (out-of-scope: expects no capability)')
    .option('--rule-out-below <x>', 'pre-matcher: rule out below this similarity', fraction)
    .option('--yes-above <x>', 'pre-matcher: select at or above this similarity', fraction)
    .option('--margin <x>', 'pre-matcher: lead needed to select', fraction)
    .option('--min-coverage <x>', 'pre-matcher: decide nothing below this coverage', fraction)
    .option('--json', 'print one JSON object, on one line')
    .option('--pretty', 'print indented JSON (implies --json)')
    .action(async (file: string, options: EvalOptions) => {
      const data = await readDataset(file);
      const train = data.train;
      const split = data[options.split];
      if (!train) throw new InputError(`${file}: has no "train" split`);
      if (!split) throw new InputError(`${file}: has no "${options.split}" split`);
      const oos = options.withOos ? (data[`oos_${options.split}`] ?? []) : [];
      const tasks = labelledTasks([...split, ...oos].filter((_, i) => i % options.every === 0));
      const prematcher: PrematcherOptions = {
        ...(options.ruleOutBelow === undefined ? {} : { noBelow: options.ruleOutBelow }),
        ...(options.yesAbove === undefined ? {} : { yesAbove: options.yesAbove }),
        ...(options.margin === undefined ? {} : { margin: options.margin }),
        ...(options.minCoverage === undefined ? {} : { minCoverage: options.minCoverage }),
      };
      const runs = options.seeds.map((seed) => {
        const capabilities = new CapabilityRegistry(
          capabilitiesFromIntents(train, { examplesPerIntent: options.examples, seed }),
        ).all();
        return { seed, ...evaluatePrematcher(new Prematcher(capabilities, prematcher), tasks) };
      });
      const mean = average(runs);
      const header = {
        file,
        split: options.split,
        withOos: options.withOos === true,
        examplesPerIntent: options.examples,
        seeds: options.seeds,
      };
      await writeFiguresHtmlReport(file, { ...header, ...mean });
      if (wantsJson(options)) {
        writeJson({ ...header, ...mean, runs }, options);
        return;
      }
      process.stdout.write(`${formatEvaluation(header, mean)}\n`);
    });
}

/** The data set of `file` (`-`: standard input); an empty, binary or invalid one is bad input. */
async function readDataset(file: string) {
  const text = await readInputFile(file);
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw new InputError(`${displayName(file)}: not valid JSON (${(error as Error).message})`);
  }
  return intentDataset(value, displayName(file));
}

interface EvalOptions {
  readonly split: string;
  readonly examples: number;
  readonly seeds: number[];
  readonly every: number;
  readonly withOos?: boolean;
  readonly ruleOutBelow?: number;
  readonly yesAbove?: number;
  readonly margin?: number;
  readonly minCoverage?: number;
  readonly json?: boolean;
  readonly pretty?: boolean;
}

function seeds(value: string): number[] {
  return value.split(',').map((part) => {
    const number = Number(part.trim());
    if (!Number.isInteger(number)) throw new InvalidArgumentError(`not an integer seed: ${part}`);
    return number;
  });
}

/** The mean of every figure over the runs (one run per seed). */
function average(runs: readonly PrematcherEvaluation[]): PrematcherEvaluation {
  const keys = Object.keys(runs[0]!) as (keyof PrematcherEvaluation)[];
  return Object.fromEntries(
    keys.map((key) => [key, runs.reduce((sum, run) => sum + Number(run[key]), 0) / runs.length]),
  ) as unknown as PrematcherEvaluation;
}

function formatEvaluation(
  header: {
    file: string;
    split: string;
    withOos: boolean;
    examplesPerIntent: number;
    seeds: number[];
  },
  result: PrematcherEvaluation,
): string {
  const pct = (value: number, digits = 1) => `${(value * 100).toFixed(digits)}%`;
  const seedsText =
    header.seeds.length === 1
      ? `seed ${header.seeds[0]}`
      : `mean of seeds ${header.seeds.join(', ')}`;
  return [
    `${header.file}: split ${header.split}${header.withOos ? ' + out-of-scope' : ''}, ${result.tasks} tasks; ` +
      `${result.capabilities} capabilities × ${header.examplesPerIntent} examples; ${seedsText}`,
    `top-1 accuracy (rank)                 ${pct(result.top1Accuracy)}`,
    `decisions made locally                ${pct(result.localShare)} (yes ${result.localYes.toFixed(0)}, no ${result.localNo.toFixed(0)})`,
    `precision of local decisions          ${pct(result.localPrecision, 2)} (yes ${pct(result.localYesPrecision)}, no ${pct(result.localNoPrecision, 2)})`,
    `needed capabilities ruled out         ${pct(result.neededRuledOut)}`,
    `LLM calls per task                    ${result.llmCallsPerTask.toFixed(1)} of ${result.capabilities} (${result.llmCallsSavedPerTask.toFixed(1)} saved)`,
    `exact selection with a perfect LLM    ${pct(result.exactWithPerfectLlm)}`,
    `exact selection without an LLM        ${pct(result.exactWithoutLlm)}`,
    `pre-matcher time                      ${result.microsecondsPerTask.toFixed(0)} µs per task (indicative; see npm run bench)`,
  ].join('\n');
}
