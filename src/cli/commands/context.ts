import { readFileSync } from 'node:fs';
import type { Command } from 'commander';
import { parse as parseYaml } from 'yaml';
import { contextRouterConfig } from '../../context/config.js';
import { type ContextDecision, ContextRouter } from '../../context/router.js';
import type { ContextPolicy, ContextRouterConfig } from '../../context/schema.js';
import { runClassificationEval } from '../eval-runner.js';
import { InputError, readTextArgument } from '../io.js';

/**
 * `triage context "<question>"`: how much context a question needs (document 004), and
 * `triage eval context FILE.jsonl`: the router's accuracy on labelled questions.
 */

interface ContextOptions {
  readonly json?: boolean;
  readonly config?: string;
}

/** Registers `triage context`. */
export function registerContext(program: Command): void {
  program
    .command('context')
    .description(
      'decide how much context a question needs: mode, confidence, margin, scores, signals, ' +
        'source and policy (reads standard input when no question is given)',
    )
    .argument('[question]', 'the question (default: standard input)')
    .option('--json', 'print one JSON object')
    .option('--config <file>', 'a context router configuration (JSON or YAML)')
    .action(async (question: string | undefined, options: ContextOptions) => {
      const text = await readTextArgument(question);
      const router = new ContextRouter({ config: loadConfig(options.config) });
      const decision = await router.decide(text);
      const explained = router.explain(text);
      const report = {
        mode: decision.mode,
        confidence: decision.confidence,
        margin: explained.margin,
        source: decision.source,
        reason: decision.reason,
        scores: explained.scores,
        signals: explained.evidence,
        features: explained.features,
        local: {
          mode: explained.mode,
          confidence: explained.confidence,
          confident: explained.confident,
        },
        ...(decision.llmConfidence === undefined ? {} : { llmConfidence: decision.llmConfidence }),
        llmMs: decision.llmMs,
        policy: decision.policy,
      };
      if (options.json) {
        process.stdout.write(`${JSON.stringify(report)}\n`);
        return;
      }
      process.stdout.write(`${formatReport(report, router.config)}\n`);
    });
}

/** Registers `triage eval context`. */
export function registerContextEval(evalCommand: Command): void {
  evalCommand
    .command('context')
    .description(
      'accuracy of the context router on a JSONL file of {"input": question, "expected": mode}',
    )
    .argument('<file>', 'the labelled JSONL file')
    .option('--json', 'print one JSON object')
    .option('--config <file>', 'a context router configuration (JSON or YAML)')
    .action(async (file: string, options: ContextOptions) => {
      const router = new ContextRouter({ config: loadConfig(options.config) });
      const modes = router.modes;
      const local = { decided: 0, correct: 0 };
      await runClassificationEval(
        {
          file,
          json: Boolean(options.json),
          labels: modes,
          show: (row: LabelledQuestion) => row.question,
          parse: (value) => {
            const row = parseLabelled(value, modes);
            return { input: row, expected: row.expected };
          },
          classify: async (row) => {
            const decision: ContextDecision = await router.decide(row.question);
            if (decision.local?.confident) {
              local.decided++;
              if (row.expected.includes(decision.local.mode)) local.correct++;
            }
            return decision.mode;
          },
        },
        () => {
          const stats = router.stats;
          return {
            local_decided: local.decided,
            local_share: stats.decisions === 0 ? 0 : local.decided / stats.decisions,
            local_accuracy: local.decided === 0 ? 0 : local.correct / local.decided,
            llm_calls: stats.llmCalls,
            fallbacks: stats.fallbacks,
          };
        },
      );
    });
}

interface LabelledQuestion {
  readonly question: string;
  readonly expected: readonly string[];
}

function parseLabelled(value: unknown, modes: readonly string[]): LabelledQuestion {
  const row = value as { input?: unknown; expected?: unknown };
  if (typeof row !== 'object' || row === null) throw new Error('a row must be a JSON object');
  if (typeof row.input !== 'string') throw new Error('"input" must be a string');
  const expected = typeof row.expected === 'string' ? [row.expected] : row.expected;
  if (
    !Array.isArray(expected) ||
    expected.length === 0 ||
    !expected.every((mode) => typeof mode === 'string' && modes.includes(mode))
  ) {
    throw new Error(`"expected" must be one of (or a list of): ${modes.join(', ')}`);
  }
  return { question: row.input, expected: expected as string[] };
}

/** Reads and validates a configuration file (JSON or YAML). */
function loadConfig(path: string | undefined): ContextRouterConfig | undefined {
  if (path === undefined) return undefined;
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    throw new InputError(`cannot read ${path}: ${(error as NodeJS.ErrnoException).code ?? error}`);
  }
  let value: unknown;
  try {
    value = parseYaml(text);
  } catch (error) {
    // The parser's message shows the line with a caret below it: keep the first line.
    const [reason] = (error as Error).message.split('\n');
    throw new InputError(`${path}: not valid JSON or YAML (${reason})`);
  }
  return contextRouterConfig(value ?? {}, path);
}

interface Report {
  readonly mode: string;
  readonly confidence: number;
  readonly margin: number;
  readonly source: string;
  readonly reason: string;
  readonly scores: Readonly<Record<string, number>>;
  readonly signals: Readonly<Record<string, readonly string[]>>;
  readonly local: { readonly mode: string; readonly confidence: number };
  readonly policy: ContextPolicy;
}

function formatReport(report: Report, config: ContextRouterConfig): string {
  const { policy } = report;
  const signals = Object.entries(report.signals)
    .map(([name, phrases]) => `${name} (${phrases.join(', ')})`)
    .join(' · ');
  const history = !policy.useHistory
    ? 'no'
    : policy.historyTurnWindow === 0
      ? 'full'
      : `last ${policy.historyTurnWindow} turns`;
  const lines = [
    ['mode', report.mode],
    ['confidence', report.confidence.toFixed(2)],
    [
      'margin',
      `${report.margin.toFixed(2)} (local ${report.local.mode} at ${report.local.confidence.toFixed(2)}; ` +
        `thresholds ${config.localConfidenceThreshold} / ${config.localMarginThreshold})`,
    ],
    ['source', `${report.source}: ${report.reason}`],
    [
      'scores',
      Object.entries(report.scores)
        .map(([mode, score]) => `${mode} ${score.toFixed(2)}`)
        .join(' · '),
    ],
    ['signals', signals || '(none)'],
    [
      'policy',
      `image ${yes(policy.useImage)} · history ${history} · memory ${yes(policy.useMemoryContext)}` +
        ` · notes ${yes(policy.useNotesContext)} · max sentences ${policy.maxSentences ?? 'none'}`,
    ],
    ['instruction', policy.turnInstruction ?? '(none)'],
  ];
  return lines.map(([label, value]) => `${label!.padEnd(12)}${value}`).join('\n');
}

function yes(value: boolean): string {
  return value ? 'yes' : 'no';
}
