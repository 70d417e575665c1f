import { type Command, Option } from 'commander';
import {
  INJECTION_PRESETS,
  INJECTION_SOURCES,
  InjectionDetector,
  type InjectionPreset,
  type InjectionResult,
  type InjectionSource,
  RISK_LEVELS,
  type RiskLevel,
} from '../../injection/index.js';
import { runBinaryEval } from '../eval-runner.js';
import { readTextArgument } from '../io.js';

/**
 * `triage inject "<text>"`: the local prompt-injection verdict of one text (standard input when
 * no text is given), and `triage eval injection FILE.jsonl`: precision, recall, F1 and
 * false-positive rate over labelled rows `{"input": "…", "expected": true | false}` (true =
 * injection; an optional `"source"` per row overrides `--source`).
 */

interface DetectorFlags {
  readonly preset: InjectionPreset;
  readonly source: InjectionSource;
  readonly json?: boolean;
}

const presetOption = () =>
  new Option('--preset <name>', 'strict, balanced or lenient thresholds')
    .choices(Object.keys(INJECTION_PRESETS))
    .default('balanced');
const sourceOption = () =>
  new Option('--source <source>', 'where the text comes from (instructions count most in data)')
    .choices([...INJECTION_SOURCES])
    .default('user');

/** Registers `triage inject`. */
export function registerInject(program: Command): void {
  program
    .command('inject')
    .description('prompt-injection risk of a text (normal, suspicious, high_risk, unknown)')
    .argument('[text]', 'the text; standard input when omitted')
    .addOption(presetOption())
    .addOption(sourceOption())
    .option('--json', 'print one JSON object')
    .action(async (argument: string | undefined, flags: DetectorFlags) => {
      const text = await readTextArgument(argument);
      const result = new InjectionDetector({ preset: flags.preset }).detect(text, {
        source: flags.source,
      });
      process.stdout.write(flags.json ? `${JSON.stringify(result)}\n` : formatResult(result, text));
    });
}

/** The text report of one verdict: level, confidence, score, then one line per signal. */
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
  evalCommand
    .command('injection')
    .description(
      'precision, recall, F1 and false-positive rate of the injection detector on a JSONL file of {"input", "expected": true|false}',
    )
    .argument('<file>', 'JSONL file, one {"input": "…", "expected": true | false} per line')
    .addOption(presetOption())
    .addOption(sourceOption())
    .addOption(
      new Option('--flag-at <level>', 'the lowest level that counts as an injection')
        .choices(['suspicious', 'high_risk'])
        .default('suspicious'),
    )
    .option('--json', 'print one JSON object')
    .action(async (file: string, flags: EvalFlags) => {
      const detector = new InjectionDetector({ preset: flags.preset });
      const flagged = new Set<RiskLevel>(
        flags.flagAt === 'high_risk' ? ['high_risk'] : ['suspicious', 'high_risk'],
      );
      const levels = Object.fromEntries(RISK_LEVELS.map((level) => [level, 0])) as Record<
        RiskLevel,
        number
      >;
      await runBinaryEval<EvalInput>(
        {
          file,
          parse: (value) => parseRow(value, flags.source),
          classify: (input) => {
            const level = detector.detect(input.text, { source: input.source }).riskLevel;
            levels[level]++;
            return flagged.has(level);
          },
          show: (input) => input.text,
          json: flags.json === true,
        },
        () => ({ preset: flags.preset, flag_at: flags.flagAt, risk_levels: levels }),
      );
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
