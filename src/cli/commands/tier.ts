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
import { runClassificationEval } from '../eval-runner.js';
import { InputError, readTextArgument } from '../io.js';
import { addLlmOptions, type LlmFlags, withLlmProvider } from '../llm-option.js';
import {
  addTierConfigOptions,
  type TierConfigFlags,
  tierOptionsFromFlags,
} from '../tier-config.js';

/** The options both commands share. */
interface TierFlags extends LlmFlags, TierConfigFlags {
  readonly json?: boolean;
}

function routerOptions(command: Command): Command {
  return addTierConfigOptions(
    addLlmOptions(command, 'to turn on the LLM check of ambiguous prompts').option(
      '--json',
      'print one JSON object',
    ),
  );
}

/** Builds the router the flags describe, runs `work` with it, and closes the provider. */
async function withRouter(flags: TierFlags, work: (router: TierRouter) => Promise<void>) {
  const options = tierOptionsFromFlags(flags);
  await withLlmProvider(flags, (classifier) =>
    work(createTierRouter(options, classifier ? { classifier } : {})),
  );
}

/** Registers `triage tier "<prompt>"`. */
export function registerTier(program: Command): void {
  routerOptions(
    program
      .command('tier')
      .description(
        'choose the model tier (SIMPLE, MEDIUM, COMPLEX, REASONING) for a prompt, or for an ' +
          'OpenAI chat request given as JSON with --request; reads standard input without a prompt',
      )
      .argument('[prompt]', 'the prompt (default: standard input)')
      .option('--request', 'the input is an OpenAI chat-completions request (JSON), not a prompt'),
  ).action(async (prompt: string | undefined, flags: TierFlags & { request?: boolean }) => {
    const text = await readTextArgument(prompt);
    const input = flags.request ? parseRequest(text, 'the request') : text;
    await withRouter(flags, async (router) => {
      const decision = await router.decide(input);
      if (flags.json) {
        const dimensions = decision.forced ? undefined : router.scorer.lastDimensionScores();
        process.stdout.write(
          `${JSON.stringify({ ...plainDecision(decision), ...(dimensions ? { dimensions } : {}) })}\n`,
        );
      } else {
        process.stdout.write(formatDecision(decision));
      }
    });
  });
}

/** Registers `triage eval tier FILE.jsonl`. */
export function registerTierEval(evalCommand: Command): void {
  routerOptions(
    evalCommand
      .command('tier')
      .description(
        'evaluate the tier router on a JSONL file of {"input": "<prompt>" | {"messages": [...]}, ' +
          '"expected": "SIMPLE" | ["MEDIUM", "COMPLEX"]}; the LLM check is off unless --llm is given',
      )
      .argument('<file>', 'the labelled JSONL file'),
  ).action(async (file: string, flags: TierFlags) => {
    await withRouter(flags, (router) =>
      runClassificationEval(
        {
          file,
          parse: parseTierRow,
          classify: async (input) => (await router.decide(input)).tier,
          show: showInput,
          labels: TIERS,
          json: flags.json === true,
        },
        () => ({ stats: router.stats }),
      ),
    );
  });
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
  if (value === null || typeof value !== 'object')
    throw new Error('each line must be a JSON object');
  const row = value as { input?: unknown; expected?: unknown };
  const input = row.input;
  if (typeof input !== 'string') {
    if (
      input === null ||
      typeof input !== 'object' ||
      !Array.isArray((input as TierRequest).messages)
    ) {
      throw new Error('"input" must be a prompt string or an object with a "messages" array');
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
    `source      ${decision.source}${decision.fallbackCause ? ` (${decision.fallbackCause})` : ''}${decision.llmMs > 0 ? ` (${Math.round(decision.llmMs)} ms)` : ''}`,
    `signals     ${decision.signals.join('\n            ') || '-'}`,
    `fallback    ${decision.fallbackChain.join(' → ')}`,
  ];
  if (decision.extraction.length > 0) lines.push(`extracted   ${decision.extraction.join(', ')}`);
  return `${lines.join('\n')}\n`;
}
