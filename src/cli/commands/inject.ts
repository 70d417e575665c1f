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
import { addEvalInputOptions, type EvalInputFlags } from '../eval-input.js';
import {
  addConfigsOption,
  addThresholdOptions,
  configNames,
  runBinaryEval,
  type ThresholdFlags,
} from '../eval-runner.js';
import { failCheck } from '../exit-codes.js';
import { readConfigFile, readTexts } from '../io.js';
import { addLlmOptions, type LlmFlags, withLlmProvider } from '../llm-option.js';
import {
  addLinesOption,
  addOutputOptions,
  describeSource,
  type OutputFlags,
  SourceCounts,
  wantsJson,
  writeJson,
} from '../output.js';

/**
 * `triage inject "<text>"`: the prompt-injection verdict of one text (standard input when no
 * text is given; `--fail-on LEVEL` makes the exit status 1 when the level reached is at or above
 * LEVEL), and `triage eval injection FILE.jsonl`: precision, recall, F1 and false-positive rate
 * over labelled rows `{"input": "…", "expected": true | false}` (true = injection; an optional
 * `"source"` per row overrides `--source`, an optional `"system"` is the system prompt the text
 * is sent against, and an optional `"category"` groups rows in the report). Local only, unless
 * `--llm` names a provider configuration: the LLM is then asked when the local detector is unsure.
 */

interface DetectorFlags extends LlmFlags, OutputFlags {
  readonly preset?: InjectionPreset;
  readonly source: InjectionSource;
  readonly config?: string;
}

interface InjectFlags extends DetectorFlags {
  readonly failOn?: FailLevel;
  readonly lines?: boolean;
}

/** The levels `--fail-on` takes. */
const FAIL_LEVELS = ['suspicious', 'high_risk'] as const;
type FailLevel = (typeof FAIL_LEVELS)[number];

/**
 * Whether `level` is at or above `failOn` in the order of `RISK_LEVELS` (normal, suspicious,
 * high risk, unknown): a text whose risk could not be established fails either gate, so that a
 * gate never lets through what it did not scan.
 */
function fails(level: RiskLevel, failOn: FailLevel): boolean {
  return RISK_LEVELS.indexOf(level) >= RISK_LEVELS.indexOf(failOn);
}

/** Adds the options both commands share. */
function detectorOptions(command: Command): Command {
  return addOutputOptions(addLlmOptions(command))
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
    );
}

const CONFIG_HELP = 'a detector configuration (JSON or YAML): thresholds, patterns';

/** The detector a configuration file (if any) and `--preset` describe. */
function detectorFor(config: string | undefined, preset: InjectionPreset | undefined) {
  const fromFile =
    config === undefined
      ? {}
      : injectionConfig(readConfigFile(config) as InjectionConfigInput, config);
  return new InjectionDetector({
    ...fromFile,
    ...(preset === undefined ? {} : { preset, suspiciousAt: undefined, highRiskAt: undefined }),
  });
}

/** Builds the guard the flags describe, runs `work` with it, and closes the provider. */
async function withGuard(
  flags: DetectorFlags,
  work: (guard: InjectionGuard) => Promise<void>,
): Promise<void> {
  const detector = detectorFor(flags.config, flags.preset);
  await withLlmProvider(flags, (llm) =>
    work(new InjectionGuard({ detector, ...(llm ? { llm } : {}) })),
  );
}

/** Registers `triage inject`. */
export function registerInject(program: Command): void {
  const command = program
    .command('inject')
    .description('prompt-injection risk of a text (normal, suspicious, high_risk, unknown)')
    .argument('[text]', 'the text (- or none: standard input)')
    .option('--config <file>', CONFIG_HELP)
    .addOption(
      new Option(
        '--fail-on <level>',
        'exit with status 1 when the level reached is at or above this one (unknown fails both)',
      ).choices([...FAIL_LEVELS]),
    );
  addLinesOption(detectorOptions(command)).action(
    async (argument: string | undefined, flags: InjectFlags) => {
      const texts = await readTexts(argument, flags.lines);
      await withGuard(flags, async (guard) => {
        for (const [i, text] of texts.entries()) {
          const decision = await guard.check(text, { source: flags.source });
          // With --lines, one text at or above the level fails the whole run.
          if (flags.failOn !== undefined && fails(decision.riskLevel, flags.failOn)) failCheck();
          if (wantsJson(flags)) {
            // The local result, with the decision's level and confidence and where they came from.
            const { local, source: decidedBy, ...decided } = decision;
            writeJson({ ...local, ...decided, decidedBy, localRiskLevel: local.riskLevel }, flags);
            continue;
          }
          const via =
            decision.source === 'local'
              ? ''
              : `decided by ${describeSource(decision)}: ${decision.riskLevel}  (${decision.reason})\n`;
          process.stdout.write(`${i > 0 ? '\n' : ''}${via}${formatResult(decision.local, text)}`);
        }
      });
    },
  );
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

interface EvalFlags extends Omit<DetectorFlags, 'config'>, EvalInputFlags, ThresholdFlags {
  readonly flagAt: 'suspicious' | 'high_risk';
  readonly sourceField?: string;
  readonly config?: string[];
}

interface EvalInput {
  readonly text: string;
  readonly source: InjectionSource;
  readonly system?: string;
  readonly category?: string;
}

/** How the rows of one category fared. */
interface CategoryCounts {
  rows: number;
  /** Rows labelled injection, and how many of them were flagged (recall). */
  attacks: number;
  caught: number;
  /** Rows labelled benign, and how many of them were flagged (false alarms). */
  benign: number;
  falseAlarms: number;
}

/** Registers `triage eval injection`. */
export function registerInjectionEval(evalCommand: Command): void {
  const command = evalCommand
    .command('injection')
    .description(
      'precision, recall, F1 and false-positive rate of the injection detector on rows of ' +
        '{"input", "expected": true|false} (JSONL, JSON or CSV)',
    )
    .argument('<file>', 'the labelled file (- for standard input)')
    .addOption(
      new Option('--flag-at <level>', 'the lowest level that counts as an injection')
        .choices(['suspicious', 'high_risk'])
        .default('suspicious'),
    )
    .option(
      '--source-field <name>',
      'the field holding a row’s source, overriding --source (default: source; none: ignore it)',
    );
  addConfigsOption(command, 'a detector configuration');
  addThresholdOptions(addEvalInputOptions(detectorOptions(command)), true).action(
    async (file: string, flags: EvalFlags) => {
      await withLlmProvider(flags, async (llm) => {
        const candidates = configNames(flags.config).map((config) => {
          const guard = new InjectionGuard({
            detector: detectorFor(config, flags.preset),
            ...(llm ? { llm } : {}),
          });
          return candidateFor(config ?? 'default', guard, flags.flagAt);
        });
        await runBinaryEval<EvalInput>({
          file,
          input: flags,
          output: flags,
          thresholds: flags,
          parse: (value) => parseRow(value, flags.source, flags.sourceField),
          show: (input) => input.text,
          candidates,
        });
      });
    },
  );
}

/** One guard under evaluation, counting levels and categories as it goes. */
function candidateFor(name: string, guard: InjectionGuard, flagAt: EvalFlags['flagAt']) {
  const flagged = new Set<RiskLevel>(
    flagAt === 'high_risk' ? ['high_risk'] : ['suspicious', 'high_risk'],
  );
  const levels = Object.fromEntries(RISK_LEVELS.map((level) => [level, 0])) as Record<
    RiskLevel,
    number
  >;
  const categories = new Map<string, CategoryCounts>();
  const sources = new SourceCounts();
  return {
    name,
    classify: async (input: EvalInput, expected: boolean) => {
      const { text, source, system } = input;
      const decision = await guard.check(text, {
        source,
        ...(system === undefined ? {} : { system }),
      });
      sources.add(decision);
      const level = decision.riskLevel;
      levels[level]++;
      const hit = flagged.has(level);
      if (input.category !== undefined) count(categories, input.category, expected, hit);
      return hit;
    },
    figures: () => {
      const stats = guard.stats;
      return {
        preset: guard.detector.config.preset,
        flag_at: flagAt,
        risk_levels: levels,
        sources: sources.toJSON(),
        local_share: stats.decisions === 0 ? 0 : stats.local / stats.decisions,
        llm_calls: stats.llmCalls,
        llm_overrode: stats.llmOverrode,
        llm_timeouts: stats.llmTimeouts,
        fallbacks: stats.fallbacks,
        llm_ms: Math.round(stats.llmMs),
        ...(categories.size === 0 ? {} : { categories: categoryReport(categories) }),
      };
    },
  };
}

function count(
  categories: Map<string, CategoryCounts>,
  category: string,
  expected: boolean,
  hit: boolean,
): void {
  let counts = categories.get(category);
  if (counts === undefined) {
    counts = { rows: 0, attacks: 0, caught: 0, benign: 0, falseAlarms: 0 };
    categories.set(category, counts);
  }
  counts.rows++;
  if (expected) {
    counts.attacks++;
    if (hit) counts.caught++;
  } else {
    counts.benign++;
    if (hit) counts.falseAlarms++;
  }
}

/**
 * Per category, in order of first appearance: its rows, and the recall over its attacks and the
 * false-positive rate over its benign rows (each only when the category has such rows).
 */
function categoryReport(categories: ReadonlyMap<string, CategoryCounts>) {
  const report: Record<string, Record<string, number>> = {};
  for (const [name, c] of categories) {
    report[name] = {
      rows: c.rows,
      ...(c.attacks === 0 ? {} : { attacks: c.attacks, recall: ratio(c.caught, c.attacks) }),
      ...(c.benign === 0 ? {} : { benign: c.benign, fpr: ratio(c.falseAlarms, c.benign) }),
    };
  }
  return report;
}

function ratio(part: number, whole: number): number {
  return Math.round((part / whole) * 1000) / 1000;
}

function parseRow(value: unknown, defaultSource: InjectionSource, sourceField = 'source') {
  const fields = value as Record<string, unknown> | null;
  const row = (
    fields !== null && typeof fields === 'object'
      ? { ...fields, source: sourceField === 'none' ? undefined : fields[sourceField] }
      : fields
  ) as {
    input?: unknown;
    expected?: unknown;
    source?: unknown;
    system?: unknown;
    category?: unknown;
  } | null;
  if (typeof row !== 'object' || row === null) throw new Error('a row must be an object');
  if (typeof row.input !== 'string') {
    throw new Error('"input" must be a string (--text-field names another field)');
  }
  const expected = label(row.expected);
  if (expected === undefined) {
    throw new Error(
      '"expected" must be true or false (or 1/0, yes/no; --label-field names another field, ' +
        '--label gives every row one)',
    );
  }
  if (row.source !== undefined && !(INJECTION_SOURCES as readonly unknown[]).includes(row.source)) {
    throw new Error(
      `"${sourceField}" must be one of ${INJECTION_SOURCES.join(', ')} ` +
        '(--source-field names another field; none ignores it)',
    );
  }
  if (row.system !== undefined && typeof row.system !== 'string') {
    throw new Error('"system" must be a string (the system prompt)');
  }
  if (row.category !== undefined && typeof row.category !== 'string') {
    throw new Error('"category" must be a string');
  }
  const source = (row.source as InjectionSource | undefined) ?? defaultSource;
  const input: EvalInput = {
    text: row.input,
    source,
    ...(row.system === undefined ? {} : { system: row.system }),
    ...(row.category === undefined ? {} : { category: row.category }),
  };
  return { input, expected };
}

/** A binary label as JSON or CSV write it: a boolean, 1/0, or their spellings as text. */
function label(value: unknown): boolean | undefined {
  if (typeof value === 'boolean') return value;
  if (value === 1 || value === 0) return value === 1;
  if (typeof value !== 'string') return undefined;
  const text = value.trim().toLowerCase();
  if (['true', '1', 'yes', 'injection'].includes(text)) return true;
  if (['false', '0', 'no', 'benign'].includes(text)) return false;
  return undefined;
}
