import { type Command, Option } from 'commander';
import {
  INJECTION_PRESETS,
  INJECTION_SOURCES,
  type InjectionConfigInput,
  InjectionDetector,
  InjectionGuard,
  type InjectionPreset,
  type InjectionResult,
  type InjectionSource,
  injectionConfig,
  RISK_LEVELS,
  type RiskLevel,
} from '../../injection/index.js';
import { runBinaryEval } from '../eval-runner.js';
import { readConfigFile, readTextArgument } from '../io.js';
import { addLlmOptions, type LlmFlags, withLlmProvider } from '../llm-option.js';

/**
 * `triage inject "<text>"`: the prompt-injection verdict of one text (standard input when no
 * text is given), and `triage eval injection FILE.jsonl`: precision, recall, F1 and false-positive
 * rate over labelled rows `{"input": "…", "expected": true | false}` (true = injection; an
 * optional `"source"` per row overrides `--source`). Local only, unless `--llm` names a provider
 * configuration: the LLM is then asked when the local detector is unsure.
 */

interface DetectorFlags extends LlmFlags {
  readonly preset?: InjectionPreset;
  readonly source: InjectionSource;
  readonly config?: string;
  readonly json?: boolean;
}

/** Adds the options both commands share. */
function detectorOptions(command: Command): Command {
  return addLlmOptions(command)
    .addOption(
      new Option(
        '--preset <name>',
        'strict, balanced or lenient thresholds (default: balanced)',
      ).choices(Object.keys(INJECTION_PRESETS)),
    )
    .addOption(
      new Option('--source <source>', 'where the text comes from (instructions count most in data)')
        .choices([...INJECTION_SOURCES])
        .default('user'),
    )
    .option('--config <file>', 'a detector configuration (JSON or YAML): thresholds, patterns')
    .option('--json', 'print one JSON object');
}

/** Builds the guard the flags describe, runs `work` with it, and closes the provider. */
async function withGuard(
  flags: DetectorFlags,
  work: (guard: InjectionGuard) => Promise<void>,
): Promise<void> {
  const fromFile =
    flags.config === undefined
      ? {}
      : injectionConfig(readConfigFile(flags.config) as InjectionConfigInput, flags.config);
  const detector = new InjectionDetector({
    ...fromFile,
    ...(flags.preset === undefined
      ? {}
      : { preset: flags.preset, suspiciousAt: undefined, highRiskAt: undefined }),
  });
  await withLlmProvider(flags, (llm) =>
    work(new InjectionGuard({ detector, ...(llm ? { llm } : {}) })),
  );
}

/** Registers `triage inject`. */
export function registerInject(program: Command): void {
  const command = program
    .command('inject')
    .description('prompt-injection risk of a text (normal, suspicious, high_risk, unknown)')
    .argument('[text]', 'the text; standard input when omitted');
  detectorOptions(command).action(async (argument: string | undefined, flags: DetectorFlags) => {
    const text = await readTextArgument(argument);
    await withGuard(flags, async (guard) => {
      const decision = await guard.check(text, { source: flags.source });
      if (flags.json) {
        // The local result, with the decision's level and confidence and where they came from.
        const { local, source: decidedBy, ...decided } = decision;
        const report = { ...local, ...decided, decidedBy, localRiskLevel: local.riskLevel };
        process.stdout.write(`${JSON.stringify(report)}\n`);
        return;
      }
      const via =
        decision.source === 'local'
          ? ''
          : `decided by ${decision.source}: ${decision.riskLevel}  (${decision.reason})\n`;
      process.stdout.write(via + formatResult(decision.local, text));
    });
  });
}

/** The text report of one local verdict: level, confidence, score, then one line per signal. */
export function formatResult(result: InjectionResult, text: string): string {
  const lines = [
    `${result.riskLevel}  confidence ${result.confidence.toFixed(2)}  score ${result.score.toFixed(2)}` +
      `${result.truncated ? '  (truncated: only the beginning was scanned)' : ''}`,
  ];
  for (const signal of result.signals) {
    const excerpt = text.slice(signal.start, signal.end).replace(/\s+/g, ' ').slice(0, 60);
    lines.push(
      `  ${signal.weight.toFixed(2)}  ${signal.kind.padEnd(22)}${signal.label}` +
        `  [${signal.start}, ${signal.end})${excerpt ? ` "${excerpt}"` : ''}`,
    );
  }
  return `${lines.join('\n')}\n`;
}

interface EvalFlags extends DetectorFlags {
  readonly flagAt: 'suspicious' | 'high_risk';
}

interface EvalInput {
  readonly text: string;
  readonly source: InjectionSource;
}

/** Registers `triage eval injection`. */
export function registerInjectionEval(evalCommand: Command): void {
  const command = evalCommand
    .command('injection')
    .description(
      'precision, recall, F1 and false-positive rate of the injection detector on a JSONL file of {"input", "expected": true|false}',
    )
    .argument('<file>', 'JSONL file, one {"input": "…", "expected": true | false} per line')
    .addOption(
      new Option('--flag-at <level>', 'the lowest level that counts as an injection')
        .choices(['suspicious', 'high_risk'])
        .default('suspicious'),
    );
  detectorOptions(command).action(async (file: string, flags: EvalFlags) => {
    const flagged = new Set<RiskLevel>(
      flags.flagAt === 'high_risk' ? ['high_risk'] : ['suspicious', 'high_risk'],
    );
    const levels = Object.fromEntries(RISK_LEVELS.map((level) => [level, 0])) as Record<
      RiskLevel,
      number
    >;
    await withGuard(flags, async (guard) => {
      await runBinaryEval<EvalInput>(
        {
          file,
          parse: (value) => parseRow(value, flags.source),
          classify: async (input) => {
            const level = (await guard.check(input.text, { source: input.source })).riskLevel;
            levels[level]++;
            return flagged.has(level);
          },
          show: (input) => input.text,
          json: flags.json === true,
        },
        () => {
          const stats = guard.stats;
          return {
            preset: guard.detector.config.preset,
            flag_at: flags.flagAt,
            risk_levels: levels,
            local_share: stats.decisions === 0 ? 0 : stats.local / stats.decisions,
            llm_calls: stats.llmCalls,
            llm_overrode: stats.llmOverrode,
            llm_timeouts: stats.llmTimeouts,
            fallbacks: stats.fallbacks,
            llm_ms: Math.round(stats.llmMs),
          };
        },
      );
    });
  });
}

function parseRow(value: unknown, defaultSource: InjectionSource) {
  const row = value as { input?: unknown; expected?: unknown; source?: unknown } | null;
  if (typeof row !== 'object' || row === null) throw new Error('a row must be a JSON object');
  if (typeof row.input !== 'string') throw new Error('"input" must be a string');
  if (typeof row.expected !== 'boolean') throw new Error('"expected" must be true or false');
  if (row.source !== undefined && !(INJECTION_SOURCES as readonly unknown[]).includes(row.source)) {
    throw new Error(`"source" must be one of ${INJECTION_SOURCES.join(', ')}`);
  }
  const source = (row.source as InjectionSource | undefined) ?? defaultSource;
  return { input: { text: row.input, source }, expected: row.expected };
}
