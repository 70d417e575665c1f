import { type Command, InvalidArgumentError } from 'commander';
import { CapabilityRegistry } from '../../capabilities/registry.js';
import {
  type CapabilityDecision,
  type CapabilitySelection,
  CapabilitySelector,
} from '../../capabilities/selection.js';
import { failCheck } from '../exit-codes.js';
import { displayName, readConfigFile, readTextArgument, STDIN } from '../io.js';
import { addLlmOptions, type LlmFlags, withLlmProvider } from '../llm-option.js';
import { addOutputOptions, type OutputFlags, wantsJson, writeJson } from '../output.js';

/**
 * `triage capabilities "<task>" --registry FILE [--json]`: which capabilities the task needs, with
 * where each decision came from (always-active, local, llm, bypass, failed) and why. With
 * `--llm FILE` uncertain capabilities are asked of that provider; without it the local
 * pre-matcher decides alone and the output says so. Exit code 1 when a classification failed.
 */
export function registerCapabilities(program: Command): void {
  addOutputOptions(addLlmOptions(program.command('capabilities'), 'for uncertain capabilities'))
    .description('select the capabilities a task needs from a registry file (YAML or JSON)')
    .argument('[task]', 'the task (- or none: standard input); /caps:off or /caps:on toggle bypass')
    .requiredOption(
      '-r, --registry <file>',
      'the capability registry (YAML or JSON; - for standard input, with the task as argument)',
    )
    .option('--bypass', 'select every capability without classification')
    .option('--no-prematch', 'ask the LLM about every capability (no local pre-matcher)')
    .option('--concurrency <n>', 'LLM calls in flight at once', parseInteger, 5)
    .option('--timeout <ms>', 'time limit of each LLM call', parseInteger, 5_000)
    .option('--seed <n>', 'seed of the examples order in LLM prompts', parseInteger, 0)
    .action(async (task: string | undefined, options: CapabilitiesOptions) => {
      const text = await readTextArgument(task);
      const registry =
        options.registry === STDIN
          ? CapabilityRegistry.fromObject(readConfigFile(STDIN), displayName(STDIN))
          : CapabilityRegistry.fromFile(options.registry);
      await withLlmProvider(options, async (provider) => {
        const selector = new CapabilitySelector({
          registry,
          seed: options.seed,
          concurrency: options.concurrency,
          timeoutMs: options.timeout,
          ...(provider ? { provider } : {}),
          ...(options.prematch ? {} : { prematcher: false as const }),
          ...(options.bypass ? { bypass: true } : {}),
        });
        const selection = await selector.select(text);
        const note = noteFor(selection);
        if (wantsJson(options)) {
          const { task: _task, ...rest } = selection;
          writeJson({ ...rest, ...(note ? { note } : {}) }, options);
        } else {
          process.stdout.write(`${formatSelection(selection, note)}\n`);
        }
        if (selection.failures.length > 0) failCheck();
      });
    });
}

interface CapabilitiesOptions extends LlmFlags, OutputFlags {
  readonly registry: string;
  readonly bypass?: boolean;
  readonly prematch: boolean;
  readonly concurrency: number;
  readonly timeout: number;
  readonly seed: number;
}

function parseInteger(value: string): number {
  const number = Number(value);
  if (!Number.isInteger(number)) throw new InvalidArgumentError(`not an integer: ${value}`);
  return number;
}

/** What a reader should know about how the selection was made. */
function noteFor(selection: CapabilitySelection): string | undefined {
  if (selection.bypass) return undefined;
  if (selection.failures.length > 0) {
    return `${selection.failures.length} capabilities could not be classified (not selected); exit code 1`;
  }
  if (!selection.llm) {
    return selection.prematcher
      ? 'no LLM configured: the local pre-matcher decided alone (uncertain capabilities took its best guess)'
      : 'no LLM configured and no pre-matcher: only always-active capabilities are selected';
  }
  return undefined;
}

/** The selection as a table: one line per capability. */
export function formatSelection(selection: CapabilitySelection, note?: string): string {
  const width = Math.max(10, ...selection.decisions.map((d) => d.name.length));
  const lines = [`selected: ${selection.selected.join(', ') || '(none)'}`];
  if (selection.bypass) lines.push(`bypass: on (${selection.bypassFrom})`);
  for (const decision of selection.decisions) lines.push(formatDecision(decision, width));
  if (note) lines.push('', note);
  return lines.join('\n');
}

function formatDecision(decision: CapabilityDecision, width: number): string {
  const mark = decision.selected ? 'yes' : 'no ';
  return `  ${mark}  ${decision.name.padEnd(width)}  ${decision.decidedBy.padEnd(13)}  ${decision.confidence.toFixed(2)}  ${decision.reason}`;
}
