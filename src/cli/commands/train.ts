import { writeFileSync } from 'node:fs';
import type { Command } from 'commander';
import type { TierOptionsInput } from '../../tier/options.js';
import {
  type OutcomeFigures,
  type TierFigures,
  type TrainResult,
  trainTierWeights,
} from '../../tier/train.js';
import { InputError, readConfigFile } from '../io.js';
import { count, fraction, integer, nonNegative } from '../numbers.js';
import { wantsJson, writeJson } from '../output.js';
import { readRoutingRows } from '../routing-rows.js';

interface TrainFlags {
  readonly out: string;
  readonly seed: number;
  readonly holdout: number;
  readonly words: number;
  readonly minWordRows: number;
  readonly l2: number;
  readonly epochs: number;
  readonly groupBy?: string;
  readonly config?: string;
  readonly json?: boolean;
  readonly pretty?: boolean;
}

/** Registers `triage train FILE --out weights.json`. */
export function registerTrain(program: Command): void {
  program
    .command('train')
    .description(
      'fit the tier router to labelled prompts: JSONL of {"prompt" | "messages" | "input", ' +
        '"expected": tier(s)} or outcomes {"weak_correct", "strong_correct"}; writes weights ' +
        '(dimension weights, boundaries, a learned term over words and text statistics) for ' +
        '--weights and the tier option `weights`, and prints figures on held-out rows',
    )
    .argument('<file>', 'the labelled file (JSONL, JSON or CSV; - for standard input)')
    .requiredOption('--out <file>', 'where to write the weights (JSON)')
    .option('--seed <n>', 'seed of the held-out split', count, 1)
    .option('--holdout <x>', 'share of rows held out of the fit to measure it', fraction, 0.2)
    .option('--words <n>', 'most words in the learned term (0: none)', count, 2_000)
    .option('--min-word-rows <n>', 'rows a word must be found in to be learned', integer, 20)
    .option('--l2 <x>', 'L2 penalty of the word weights', nonNegative, 0.03)
    .option('--epochs <n>', 'passes of gradient descent', integer, 300)
    .option('--group-by <field>', 'report held-out APGR per value of this field (e.g. subject)')
    .option('--config <file>', 'the tier router options the weights are for (JSON or YAML)')
    .option('--json', 'print one JSON object on one line (the figures; the weights go to --out)')
    .option('--pretty', 'print indented JSON (implies --json)')
    .action(async (file: string, flags: TrainFlags) => {
      const rows = await readRoutingRows(file, 'label', flags.groupBy);
      const options =
        flags.config === undefined
          ? {}
          : ((readConfigFile(flags.config) ?? {}) as TierOptionsInput);
      let result: TrainResult;
      try {
        result = trainTierWeights(rows, {
          seed: flags.seed,
          holdout: flags.holdout,
          maxWords: flags.words,
          minWordRows: flags.minWordRows,
          l2: flags.l2,
          epochs: flags.epochs,
          options,
        });
      } catch (error) {
        if (error instanceof RangeError) throw new InputError(`${file}: ${error.message}`);
        throw error;
      }
      try {
        writeFileSync(flags.out, `${JSON.stringify(result.weights, null, 2)}\n`);
      } catch (error) {
        throw new InputError(
          `cannot write ${flags.out}: ${(error as NodeJS.ErrnoException).code ?? error}`,
        );
      }
      const { weights: _weights, ...figures } = result;
      if (wantsJson(flags)) writeJson({ file, out: flags.out, ...figures }, flags);
      else process.stdout.write(formatTraining(result, flags.out));
    });
}

const num = (value: number) => (Number.isFinite(value) ? value.toFixed(3) : '-');
const pct = (value: number) => `${(value * 100).toFixed(1)}%`;

function formatTraining(result: TrainResult, out: string): string {
  const features = result.weights.learned?.features;
  const lines = [
    `fitted to ${result.fittedTo}: ${result.rows} rows, ${result.trainRows} fitted and ${result.heldOutRows} held out (seed ${result.seed}), in ${(result.ms / 1000).toFixed(1)} s`,
    `learned term: ${result.words} words` +
      (features
        ? `; ln(1 + tokens) × ${features.logTokens}, ln(1 + numbers) × ${features.logNumbers}, question marks × ${features.questionMarks}`
        : ''),
    '',
  ];
  const parts: [string, OutcomeFigures | TierFigures | undefined][] = [
    ['fitted rows', result.train],
    ['held out', result.heldOut],
  ];
  if (result.fittedTo === 'outcomes') {
    lines.push('APGR                 trained  untrained  length');
    for (const [name, figures] of parts) {
      if (!figures) continue;
      const f = figures as OutcomeFigures;
      lines.push(
        `${`${name} (${f.rows})`.padEnd(20)} ${num(f.trained).padStart(7)}  ${num(f.untrained).padStart(9)}  ${num(f.length).padStart(6)}`,
      );
    }
    if (result.groups) {
      const names = Object.entries(result.groups).map(([group, f]) => `${group} (${f.rows})`);
      const width = Math.max(20, ...names.map((name) => name.length));
      lines.push('', `${'held out, by group'.padEnd(width)} trained  untrained  length`);
      Object.values(result.groups).forEach((f, i) => {
        lines.push(
          `${names[i]!.padEnd(width)} ${num(f.trained).padStart(7)}  ${num(f.untrained).padStart(9)}  ${num(f.length).padStart(6)}`,
        );
      });
    }
  } else {
    lines.push('without an LLM check       accuracy  decided locally  correct of those');
    for (const [name, figures] of parts) {
      if (!figures) continue;
      const f = figures as TierFigures;
      for (const [which, m] of [
        ['trained', f.trained],
        ['untrained', f.untrained],
      ] as const) {
        lines.push(
          `${`${name} (${f.rows}), ${which}`.padEnd(26)} ${pct(m.accuracy).padStart(8)}  ${pct(m.local).padStart(15)}  ${pct(m.localAccuracy).padStart(16)}`,
        );
      }
    }
  }
  lines.push('', `wrote ${out}`);
  return `${lines.join('\n')}\n`;
}
