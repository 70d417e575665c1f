import type { Command } from 'commander';
import {
  pointForQuality,
  pointForShare,
  type RoutingPoint,
  routingCurve,
} from '../../eval/routing.js';
import { createTierRouter } from '../../tier/router.js';
import { routingScores } from '../../tier/routing-score.js';
import { InputError } from '../io.js';
import { fraction } from '../numbers.js';
import { wantsJson, writeJson } from '../output.js';
import { readRoutingRows } from '../routing-rows.js';
import {
  addTierConfigOptions,
  type TierConfigFlags,
  tierOptionsFromFlags,
} from '../tier-config.js';

interface CalibrateFlags extends TierConfigFlags {
  readonly strongShare?: number;
  readonly quality?: number;
  readonly json?: boolean;
  readonly pretty?: boolean;
}

/**
 * Registers `triage calibrate FILE`: the score threshold of a two-way split (`split.threshold`)
 * that sends a given share of that traffic to the strong tier, or that keeps a given share of
 * the strong model's quality at the fewest strong calls.
 */
export function registerCalibrate(program: Command): void {
  addTierConfigOptions(
    program
      .command('calibrate')
      .description(
        'find the score threshold of a two-way split (tier option split.threshold) that sends a ' +
          'share of the prompts of FILE to the strong tier (--strong-share), or that keeps a ' +
          'share of the strong model’s quality with the fewest strong calls (--quality, needs ' +
          'outcomes: "weak_correct", "strong_correct" or "weak_score", "strong_score")',
      )
      .argument(
        '<file>',
        'rows of {"prompt" | "messages" | "input", ...outcomes} (JSONL, JSON or CSV; - for standard input)',
      )
      .option('--strong-share <x>', 'the share of prompts to send to the strong tier', fraction)
      .option('--quality <y>', 'the share of the strong model’s quality to keep', fraction)
      .option('--json', 'print one JSON object, on one line')
      .option('--pretty', 'print indented JSON (implies --json)'),
  ).action(async (file: string, flags: CalibrateFlags) => {
    if ((flags.strongShare === undefined) === (flags.quality === undefined)) {
      throw new InputError('give one of --strong-share and --quality');
    }
    const byQuality = flags.quality !== undefined;
    const rows = await readRoutingRows(file, byQuality ? 'outcome' : 'prompt');
    const router = createTierRouter(tierOptionsFromFlags(flags));
    const scores = routingScores(
      router,
      rows.map((row) => row.input),
    ).router;
    const outcomes = rows.map((row) => row.outcome ?? { weak: 0, strong: 0 });
    const curve = routingCurve(scores, outcomes);
    const point = byQuality
      ? pointForQuality(curve, flags.quality! * curve.strongQuality)
      : pointForShare(curve, flags.strongShare!);
    if (point === undefined) {
      throw new InputError(
        `no threshold reaches ${flags.quality} of the strong model's quality on ${file}`,
      );
    }
    const threshold = usableThreshold(point, scores);
    const withOutcomes = rows.every((row) => row.outcome !== undefined);
    const result = {
      file,
      rows: rows.length,
      threshold,
      strongShare: point.strongShare,
      ...(withOutcomes
        ? {
            quality: point.quality,
            weakQuality: curve.weakQuality,
            strongQuality: curve.strongQuality,
          }
        : {}),
    };
    if (wantsJson(flags)) {
      writeJson(result, flags);
      return;
    }
    const lines = [
      `threshold     ${threshold}`,
      `strong calls  ${(point.strongShare * 100).toFixed(1)}% of the ${rows.length} prompts (score ≥ threshold, or an override)`,
    ];
    if (result.quality !== undefined) {
      lines.push(
        `quality       ${result.quality.toFixed(3)} (weak model ${curve.weakQuality.toFixed(3)}, strong ${curve.strongQuality.toFixed(3)})`,
      );
    }
    lines.push(
      '',
      'In the tier router options (the server configuration’s `tier` section):',
      ...(flags.weights ? [`  weights: ${flags.weights}`] : []),
      '  split:',
      `    threshold: ${threshold}`,
    );
    process.stdout.write(`${lines.join('\n')}\n`);
  });
}

/**
 * A finite threshold for a point of the curve: +∞ (no strong call but overrides) becomes just
 * above the highest score, −∞ (every prompt) just at the lowest.
 */
function usableThreshold(point: RoutingPoint, scores: readonly number[]): number {
  if (Number.isFinite(point.threshold)) return point.threshold;
  const finite = scores.filter(Number.isFinite);
  if (finite.length === 0) return 0;
  return point.threshold > 0 ? Math.max(...finite) + 1e-6 : Math.min(...finite);
}
