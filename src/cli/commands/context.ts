import type { Command } from 'commander';
import { contextRouterConfig } from '../../context/config.js';
import { type ContextDecision, ContextRouter } from '../../context/router.js';
import type { ContextPolicy, ContextRouterConfig } from '../../context/schema.js';
import { addEvalInputOptions, type EvalInputFlags } from '../eval-input.js';
import {
  addConfigsOption,
  addThresholdOptions,
  configNames,
  runClassificationEval,
  type ThresholdFlags,
} from '../eval-runner.js';
import { readConfigFile, readTexts } from '../io.js';
import { addLlmOptions, type LlmFlags, withLlmProvider } from '../llm-option.js';
import {
  addLinesOption,
  addOutputOptions,
  type OutputFlags,
  SourceCounts,
  wantsJson,
  writeJson,
} from '../output.js';

/**
 * `triage context "<question>"`: how much context a question needs (the original design), and
 * `triage eval context FILE.jsonl`: the router's accuracy on labelled questions.
 */

interface ContextOptions extends LlmFlags, OutputFlags {
  readonly config?: string;
  readonly lines?: boolean;
}

interface ContextEvalOptions extends LlmFlags, OutputFlags, EvalInputFlags, ThresholdFlags {
  readonly config?: string[];
}

/** Adds the options both commands share. */
function routerOptions(command: Command): Command {
  return addOutputOptions(addLlmOptions(command));
}

/** Builds the router the options describe, runs `work` with it, and closes the provider. */
async function withRouter(
  options: ContextOptions,
  work: (router: ContextRouter) => Promise<void>,
): Promise<void> {
  const config = options.config === undefined ? undefined : loadConfig(options.config);
  await withLlmProvider(options, (llm) => work(new ContextRouter({ config, llm })));
}

/** Registers `triage context`. */
export function registerContext(program: Command): void {
  const command = program
    .command('context')
    .description(
      'decide how much context a question needs: mode, confidence, margin, scores, signals, ' +
        'source and policy (reads standard input when no question is given)',
    )
    .argument('[question]', 'the question (- or none: standard input)')
    .option('--config <file>', 'a context router configuration (JSON or YAML)');
  addLinesOption(routerOptions(command)).action(
    async (question: string | undefined, options: ContextOptions) => {
      const texts = await readTexts(question, options.lines);
      await withRouter(options, async (router) => {
        for (const [i, text] of texts.entries()) {
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
            ...(decision.llmConfidence === undefined
              ? {}
              : { llmConfidence: decision.llmConfidence }),
            llmMs: decision.llmMs,
            policy: decision.policy,
          };
          if (wantsJson(options)) writeJson(report, options);
          else process.stdout.write(`${i > 0 ? '\n' : ''}${formatReport(report, router.config)}\n`);
        }
      });
    },
  );
}

/** Registers `triage eval context`. */
export function registerContextEval(evalCommand: Command): void {
  const command = evalCommand
    .command('context')
    .description(
      'accuracy of the context router on rows of {"input": question, "expected": mode} ' +
        '(JSONL, JSON or CSV)',
    )
    .argument('<file>', 'the labelled file (- for standard input)');
  addConfigsOption(command, 'a context router configuration');
  addThresholdOptions(addEvalInputOptions(routerOptions(command))).action(
    async (file: string, options: ContextEvalOptions) => {
      await withLlmProvider(options, async (llm) => {
        const routers = configNames(options.config).map((path) => {
          const config = path === undefined ? undefined : loadConfig(path);
          return { name: path ?? 'default', router: new ContextRouter({ config, llm }) };
        });
        const modes = routers[0]!.router.modes;
        const candidates = routers.map(({ name, router }) => candidateFor(name, router));
        await runClassificationEval({
          file,
          input: options,
          output: options,
          thresholds: options,
          labels: modes,
          show: (row: LabelledQuestion) => row.question,
          parse: (value) => {
            const row = parseLabelled(value, modes);
            return { input: row, expected: row.expected };
          },
          candidates,
        });
      });
    },
  );
}

/** One router under evaluation, with the share and accuracy of its local decisions. */
function candidateFor(name: string, router: ContextRouter) {
  const local = { decided: 0, correct: 0 };
  const sources = new SourceCounts();
  return {
    name,
    classify: async (row: LabelledQuestion) => {
      const decision: ContextDecision = await router.decide(row.question);
      sources.add(decision);
      if (decision.local?.confident) {
        local.decided++;
        if (row.expected.includes(decision.local.mode)) local.correct++;
      }
      return decision.mode;
    },
    figures: () => {
      const stats = router.stats;
      return {
        sources: sources.toJSON(),
        local_decided: local.decided,
        local_share: stats.decisions === 0 ? 0 : local.decided / stats.decisions,
        local_accuracy: local.decided === 0 ? 0 : local.correct / local.decided,
        llm_calls: stats.llmCalls,
        llm_overrode: stats.llmOverrode,
        llm_timeouts: stats.llmTimeouts,
        fallbacks: stats.fallbacks,
        llm_ms: Math.round(stats.llmMs),
      };
    },
  };
}

interface LabelledQuestion {
  readonly question: string;
  readonly expected: readonly string[];
}

function parseLabelled(value: unknown, modes: readonly string[]): LabelledQuestion {
  const row = value as { input?: unknown; expected?: unknown };
  if (typeof row !== 'object' || row === null) throw new Error('a row must be a JSON object');
  if (typeof row.input !== 'string') {
    throw new Error('"input" must be a string (--text-field names another field)');
  }
  const expected = typeof row.expected === 'string' ? [row.expected] : row.expected;
  if (
    !Array.isArray(expected) ||
    expected.length === 0 ||
    !expected.every((mode) => typeof mode === 'string' && modes.includes(mode))
  ) {
    throw new Error(
      `"expected" must be one of (or a list of): ${modes.join(', ')} (--label-field names another field)`,
    );
  }
  return { question: row.input, expected: expected as string[] };
}

/** Reads and validates a context router configuration file. */
function loadConfig(path: string): ContextRouterConfig {
  return contextRouterConfig(readConfigFile(path) ?? {}, path);
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
