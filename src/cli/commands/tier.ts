import type { Command } from 'commander';
import { plainDecision } from '../../tier/decision.js';
import {
  createTierRouter,
  isTier,
  TIERS,
  type TierDecision,
  type TierRequest,
  type TierRouter,
} from '../../tier/index.js';
import { addEvalInputOptions, type EvalInputFlags } from '../eval-input.js';
import {
  addThresholdOptions,
  configNames,
  runClassificationEval,
  type ThresholdFlags,
} from '../eval-runner.js';
import { InputError, readTexts } from '../io.js';
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
import {
  addTierConfigOptions,
  type TierConfigFlags,
  tierOptionsFromFlags,
} from '../tier-config.js';

/** The options both commands share. */
interface TierFlags extends LlmFlags, TierConfigFlags, OutputFlags {}

function routerOptions(command: Command, compare = false): Command {
  return addTierConfigOptions(
    addOutputOptions(addLlmOptions(command, 'to turn on the LLM check of ambiguous prompts')),
    compare,
  );
}

/** Builds the router the flags describe, runs `work` with it, and closes the provider. */
async function withRouter(flags: TierFlags, work: (router: TierRouter) => Promise<void>) {
  const options = tierOptionsFromFlags(flags);
  await withLlmProvider(flags, (classifier) =>
    work(createTierRouter(options, classifier ? { classifier } : {})),
  );
}

interface TierEvalFlags
  extends LlmFlags,
    Omit<TierConfigFlags, 'config'>,
    OutputFlags,
    EvalInputFlags,
    ThresholdFlags {
  readonly config?: string[];
}

/** Registers `triage tier "<prompt>"`. */
export function registerTier(program: Command): void {
  const command = routerOptions(
    program
      .command('tier')
      .description(
        'choose the model tier (SIMPLE, MEDIUM, COMPLEX, REASONING) for a prompt, or for an ' +
          'OpenAI chat request given as JSON with --request; reads standard input without a prompt',
      )
      .argument('[prompt]', 'the prompt (default: standard input)')
      .option('--request', 'the input is an OpenAI chat-completions request (JSON), not a prompt'),
  );
  addLinesOption(command).action(
    async (
      prompt: string | undefined,
      flags: TierFlags & { request?: boolean; lines?: boolean },
    ) => {
      const texts = await readTexts(prompt, flags.lines);
      const inputs = texts.map((text, i) =>
        flags.request
          ? parseRequest(text, texts.length > 1 ? `the request of line ${i + 1}` : 'the request')
          : text,
      );
      await withRouter(flags, async (router) => {
        for (const [i, input] of inputs.entries()) {
          const decision = await router.decide(input);
          if (wantsJson(flags)) {
            const dimensions = decision.forced ? undefined : router.scorer.lastDimensionScores();
            writeJson({ ...plainDecision(decision), ...(dimensions ? { dimensions } : {}) }, flags);
          } else {
            process.stdout.write(`${i > 0 ? '\n' : ''}${formatDecision(decision)}`);
          }
        }
      });
    },
  );
}

/** Registers `triage eval tier FILE`. */
export function registerTierEval(evalCommand: Command): void {
  const command = routerOptions(
    evalCommand
      .command('tier')
      .description(
        'evaluate the tier router on rows of {"input": "<prompt>" | {"messages": [...]}, ' +
          '"expected": "SIMPLE" | ["MEDIUM", "COMPLEX"]} (JSONL, JSON or CSV); the LLM check is ' +
          'off unless --llm is given',
      )
      .argument('<file>', 'the labelled file (- for standard input)'),
    true,
  );
  addThresholdOptions(addEvalInputOptions(command)).action(
    async (file: string, flags: TierEvalFlags) => {
      await withLlmProvider(flags, (classifier) => {
        const candidates = configNames(flags.config).map((config) => {
          const options = tierOptionsFromFlags({ ...flags, config });
          const router = createTierRouter(options, classifier ? { classifier } : {});
          const sources = new SourceCounts();
          return {
            name: config ?? 'default',
            classify: async (input: TierRequest | string) => {
              const decision = await router.decide(input);
              sources.add(decision);
              return decision.tier;
            },
            figures: () => ({ sources: sources.toJSON(), stats: router.stats }),
          };
        });
        return runClassificationEval({
          file,
          input: flags,
          parse: parseTierRow,
          show: showInput,
          labels: TIERS,
          candidates,
          output: flags,
          thresholds: flags,
        });
      });
    },
  );
}

function parseRequest(text: string, where: string): TierRequest {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw new InputError(`${where} is not valid JSON (${(error as Error).message})`);
  }
  if (
    value === null ||
    typeof value !== 'object' ||
    !Array.isArray((value as TierRequest).messages)
  ) {
    throw new InputError(`${where} must be an object with a "messages" array`);
  }
  return value as TierRequest;
}

/** One row of a tier evaluation file. */
export function parseTierRow(value: unknown): {
  input: TierRequest | string;
  expected: string | string[];
} {
  if (value === null || typeof value !== 'object') throw new Error('each row must be an object');
  const row = value as { input?: unknown; expected?: unknown };
  const input = row.input;
  if (typeof input !== 'string') {
    if (
      input === null ||
      typeof input !== 'object' ||
      !Array.isArray((input as TierRequest).messages)
    ) {
      throw new Error(
        '"input" must be a prompt string or an object with a "messages" array ' +
          '(--text-field names another field)',
      );
    }
  }
  const expected = row.expected;
  const list = Array.isArray(expected) ? expected : [expected];
  if (list.length === 0 || !list.every(isTier)) {
    throw new Error(`"expected" must be one of ${TIERS.join(', ')}, or a non-empty list of them`);
  }
  return {
    input: input as TierRequest | string,
    expected: Array.isArray(expected) ? list : (expected as string),
  };
}

/** The text of an evaluation input, for the list of misclassified rows. */
function showInput(input: TierRequest | string): string {
  if (typeof input === 'string') return input;
  const last = [...input.messages].reverse().find((message) => message.role === 'user');
  const content = last?.content;
  const text =
    typeof content === 'string'
      ? content
      : Array.isArray(content)
        ? content
            .map((part) => (typeof part.text === 'string' ? part.text : `[${part.type}]`))
            .join(' ')
        : '';
  return `[${input.messages.length} messages] ${text}`;
}

/** The human-readable report of one decision. */
export function formatDecision(decision: TierDecision): string {
  const lines = [
    `tier        ${decision.tier}`,
    `confidence  ${decision.confidence.toFixed(2)}`,
    `score       ${decision.score === null ? '-' : decision.score.toFixed(3)}`,
    `source      ${describeSource(decision)}`,
    `signals     ${decision.signals.join('\n            ') || '-'}`,
    `fallback    ${decision.fallbackChain.join(' → ')}`,
  ];
  if (decision.extraction.length > 0) lines.push(`extracted   ${decision.extraction.join(', ')}`);
  return `${lines.join('\n')}\n`;
}
