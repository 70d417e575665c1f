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
import { failCheck } from '../exit-codes.js';
import { displayName, InputError, readJsonl } from '../io.js';
import { addOutputOptions, type OutputFlags, wantsJson, writeJson } from '../output.js';

interface GuidanceCommandOptions extends OutputFlags {
  readonly config?: string;
  /** `any`, or provider ids: exit code 1 when one of them fires. */
  readonly failOn?: readonly string[];
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

/** Registers `triage guidance FILE.jsonl [--config FILE] [--fail-on any|IDS] [--json]`. */
export function registerGuidance(program: Command): void {
  const command = program
    .command('guidance')
    .description(
      'replay an agent trajectory (JSONL, one event per line) and show, turn by turn, which guidance fires',
    )
    .argument(
      '<file>',
      'JSONL file of trajectory events (format: docs/guidance.md; - for standard input)',
    )
    .option('--config <file>', 'guidance configuration, YAML or JSON (default: built-in providers)')
    .option(
      '--fail-on <providers>',
      'exit with status 1 when guidance fires: any, or comma-separated provider ids (e.g. doom_loop)',
      (value: string) =>
        value
          .split(',')
          .map((id) => id.trim())
          .filter((id) => id !== ''),
    );
  addOutputOptions(command).action((file: string, options: GuidanceCommandOptions) =>
    runGuidance(file, options),
  );
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
    if (!json) {
      process.stderr.write(
        `triage: warning: ${name}:${line}: ${entry.provider} failed (skipped): ${entry.error}\n`,
      );
    }
  };
  const engine = new GuidanceEngine({ ...config, onError });
  const failOn = failOnSet(options.failOn, engine.providerIds);
  const json = wantsJson(options);
  const name = displayName(file);
  const fired: Fired[] = [];
  let events = 0;
  let shownTurn = Number.NaN;
  for await (const row of readJsonl(file, 'replaying')) {
    line = row.line;
    const where = `${name}:${row.line}`;
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
      if (!json) {
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
  if (fired.some((f) => failOn === 'any' || failOn?.has(f.provider))) failCheck();
  if (json) {
    const report = {
      events,
      turns: trajectory.turnCount,
      toolCalls: context.toolCallCount,
      guidance: fired,
      fired: counts,
      failures,
    };
    writeJson(report, options);
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

/** What `--fail-on` names: `any`, or provider ids the engine has (another is a usage error). */
function failOnSet(
  failOn: readonly string[] | undefined,
  providerIds: readonly string[],
): 'any' | ReadonlySet<string> | undefined {
  if (failOn === undefined) return undefined;
  if (failOn.includes('any')) return 'any';
  const unknown = failOn.filter((id) => !providerIds.includes(id));
  if (unknown.length > 0 || failOn.length === 0) {
    throw new InputError(
      `--fail-on: no provider ${unknown.join(', ') || '(none named)'}; the providers are any, ${providerIds.join(', ')}`,
    );
  }
  return new Set(failOn);
}

/** Control characters (newlines included) of tool names and reasons shown as spaces. */
function oneLine(text: string): string {
  return text.replace(/[\u0000-\u001f\u007f]+/g, ' ');
}
