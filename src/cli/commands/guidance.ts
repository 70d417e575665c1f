import type { Command } from 'commander';
import { describeError } from '../../core/errors.js';
import type { ClassifierFailure } from '../../core/run.js';
import {
  GuidanceEngine,
  type GuidanceEngineOptions,
  type LoadedGuidanceConfig,
  loadGuidanceConfig,
  parseTrajectoryEvent,
  TrajectoryEventError,
} from '../../guidance/index.js';
import { readJsonl } from '../io.js';

interface GuidanceCommandOptions {
  readonly config?: string;
  readonly json?: boolean;
}

/** One guidance as reported: where it fired and what it says. */
interface Fired {
  readonly line: number;
  readonly turn: number;
  readonly provider: string;
  readonly classifier: string;
  readonly confidence: number;
  readonly reason: string;
  readonly message: string;
  readonly metadata?: Readonly<Record<string, unknown>>;
}

/** Registers `triage guidance FILE.jsonl [--config FILE] [--json]`. */
export function registerGuidance(program: Command): void {
  program
    .command('guidance')
    .description(
      'replay an agent trajectory (JSONL, one event per line) and show, turn by turn, which guidance fires',
    )
    .argument('<file>', 'JSONL file of trajectory events (format: docs/guidance.md)')
    .option('--config <file>', 'guidance configuration, YAML or JSON (default: built-in providers)')
    .option('--json', 'print one JSON object instead of text')
    .action((file: string, options: GuidanceCommandOptions) => runGuidance(file, options));
}

/** Replays `file` through a guidance engine and prints what fired. */
export async function runGuidance(file: string, options: GuidanceCommandOptions): Promise<void> {
  const config: LoadedGuidanceConfig = options.config ? loadGuidanceConfig(options.config) : {};
  try {
    await replay(file, config, options);
  } finally {
    await config.llmProvider?.close();
  }
}

async function replay(
  file: string,
  config: GuidanceEngineOptions,
  options: GuidanceCommandOptions,
): Promise<void> {
  let line = 0;
  const failures: { line: number; provider: string; error: string }[] = [];
  const onError = (failure: ClassifierFailure) => {
    const entry = { line, provider: failure.name, error: describeError(failure.error) };
    failures.push(entry);
    if (!options.json) {
      process.stderr.write(
        `triage: warning: ${file}:${line}: ${entry.provider} failed (skipped): ${entry.error}\n`,
      );
    }
  };
  const engine = new GuidanceEngine({ ...config, onError });
  const fired: Fired[] = [];
  let events = 0;
  let shownTurn = Number.NaN;
  for await (const row of readJsonl(file, 'replaying')) {
    line = row.line;
    const where = `${file}:${row.line}`;
    const event = parseTrajectoryEvent(row.value, where);
    let guidance: Awaited<ReturnType<GuidanceEngine['onEventAsync']>>;
    try {
      guidance = await engine.onEventAsync(event);
    } catch (error) {
      if (error instanceof TrajectoryEventError)
        throw new TrajectoryEventError(`${where}: ${error.message}`);
      throw error;
    }
    events++;
    for (const g of guidance) {
      const entry: Fired = {
        line: row.line,
        turn: g.turn,
        provider: g.provider,
        classifier: g.classifier,
        confidence: g.confidence,
        reason: g.reason,
        message: g.message,
        ...(g.metadata === undefined ? {} : { metadata: g.metadata }),
      };
      fired.push(entry);
      if (!options.json) {
        if (entry.turn !== shownTurn) {
          shownTurn = entry.turn;
          process.stdout.write(`turn ${entry.turn}\n`);
        }
        process.stdout.write(
          `  ${entry.provider.padEnd(26)} ${entry.confidence.toFixed(2)}  ${oneLine(entry.reason)}  (line ${entry.line})\n` +
            `    » ${oneLine(entry.message)}\n`,
        );
      }
    }
  }
  const counts: Record<string, number> = {};
  for (const f of fired) counts[f.provider] = (counts[f.provider] ?? 0) + 1;
  const { trajectory, context } = engine;
  if (options.json) {
    const report = {
      events,
      turns: trajectory.turnCount,
      toolCalls: context.toolCallCount,
      guidance: fired,
      fired: counts,
      failures,
    };
    process.stdout.write(`${JSON.stringify(report, null, 2)}\n`);
    return;
  }
  const summary = Object.entries(counts)
    .map(([provider, count]) => `${provider} ${count}`)
    .join(', ');
  process.stdout.write(
    `${events} events, ${trajectory.turnCount} turns, ${context.toolCallCount} tool calls: ` +
      `${fired.length === 0 ? 'no guidance fired' : `${fired.length} guidance (${summary})`}` +
      `${failures.length > 0 ? `; ${failures.length} classifier failures` : ''}\n`,
  );
}

/** Control characters (newlines included) of tool names and reasons shown as spaces. */
function oneLine(text: string): string {
  return text.replace(/[\u0000-\u001f\u007f]+/g, ' ');
}
