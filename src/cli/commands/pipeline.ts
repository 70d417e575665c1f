import type { Command } from 'commander';
import { TriageError } from '../../core/errors.js';
import { loadPipelineConfig, pipelineFromConfig } from '../../pipeline/config.js';
import type { PipelineResult } from '../../pipeline/envelope.js';
import { displayName, InputError, readInputFile, readTextArgument } from '../io.js';
import { addOutputOptions, type OutputFlags, wantsJson, writeJson } from '../output.js';

/** The environment variable naming the configuration file when `--config` is not given. */
export const PIPELINE_CONFIG_ENV = 'TRIAGE_PIPELINE_CONFIG';

interface PipelineCommandOptions extends OutputFlags {
  readonly messages?: string;
  readonly config?: string;
}

/** Registers `triage pipeline`. */
export function registerPipeline(program: Command): void {
  const command = program
    .command('pipeline')
    .description(
      'run the classifier pipeline (stock and custom LLM classifiers, merged, a model picked from ' +
        'the catalog) on a message or a conversation, and print the result and its audit',
    )
    .argument('[message]', 'the user message (- or none: standard input)')
    .option(
      '--messages <file>',
      'a JSON conversation: [{role, content}, …] or {messages: […]} (- for standard input); a final assistant message is inspected',
    )
    .option(
      '--config <file>',
      `the pipeline configuration, JSON or YAML (default: $${PIPELINE_CONFIG_ENV})`,
    );
  addOutputOptions(command).action(
    async (message: string | undefined, options: PipelineCommandOptions) => {
      const configPath = options.config ?? process.env[PIPELINE_CONFIG_ENV];
      if (!configPath) {
        throw new TriageError(
          'pipeline_unconfigured',
          'no model is configured: pass --config FILE (or set TRIAGE_PIPELINE_CONFIG) naming a file ' +
            'with runner.provider, e.g. {"runner": {"provider": {"id": "local", "kind": "ollama", ' +
            '"model": "qwen3:1.7b"}}}; see docs/pipeline.md',
        );
      }
      // The input first: a bad one is reported without building anything.
      const messages = options.messages
        ? await readMessages(options.messages)
        : [{ role: 'user', content: await readTextArgument(message) }];
      const { pipeline, provider } = pipelineFromConfig(loadPipelineConfig(configPath));
      try {
        const last = messages[messages.length - 1] as { role?: unknown } | undefined;
        const result =
          last?.role === 'assistant'
            ? await pipeline.inspect(messages)
            : await pipeline.classify(messages);
        if (wantsJson(options)) writeJson(result, options);
        else process.stdout.write(formatResult(result));
      } finally {
        await provider.close();
      }
    },
  );
}

async function readMessages(file: string): Promise<unknown[]> {
  const text = await readInputFile(file);
  const path = displayName(file);
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw new InputError(`${path}: not valid JSON (${(error as Error).message})`);
  }
  const messages =
    value !== null && typeof value === 'object' && !Array.isArray(value)
      ? (value as { messages?: unknown }).messages
      : value;
  if (!Array.isArray(messages)) {
    throw new InputError(`${path}: expected an array of messages or {"messages": [...]}`);
  }
  return messages;
}

/** The result for a terminal: the decision first, then one line per classifier. */
export function formatResult(result: PipelineResult): string {
  const { audit } = result;
  const { meta } = audit;
  const lines: string[] = [];
  const row = (label: string, value: string) => lines.push(`${label.padEnd(12)}${value}`);
  const merged = (field: keyof typeof meta.reserved_fields) => {
    const merge = meta.reserved_fields[field];
    return merge?.winner ? ` (${merge.winner}, ${merge.certainty})` : '';
  };
  const recommendation = audit.model_recommendation;
  if (recommendation.model !== null) {
    const { resolution } = recommendation;
    const dropped = resolution.constraints_dropped.map((d) => `${d.axis} ${d.reason}`).join(', ');
    row(
      'model',
      `${recommendation.model}  (pass ${resolution.pass}, ${resolution.candidates} candidate(s)` +
        `${dropped ? `; dropped: ${dropped}` : ''})`,
    );
  } else row('model', '(no catalog configured)');
  row('tier', `${audit.routing.model_tier ?? '-'}${merged('model_tier')}`);
  row('specialty', `${audit.routing.model_specialization ?? '-'}${merged('model_specialization')}`);
  row('tools', `${audit.tools ? audit.tools.join(', ') || '(none)' : '-'}${merged('tools')}`);
  row(
    'injection',
    audit.prompt_injection
      ? `${audit.prompt_injection.risk_level} (${audit.prompt_injection.classifier}, ${audit.prompt_injection.certainty})`
      : '-',
  );
  if (audit.final_reply) row('final reply', JSON.stringify(audit.final_reply.text));
  if (audit.ack_reply) row('ack reply', JSON.stringify(audit.ack_reply.text));
  row(
    'certainty',
    `min ${meta.certainty.min.toFixed(2)}  avg ${meta.certainty.avg.toFixed(2)}  (threshold ${meta.certainty_threshold})`,
  );
  row(
    'target',
    `${meta.target.role}, ${meta.target.chars} chars${meta.target.truncated ? ' (cut)' : ''}, hash ${meta.target.hash}; ` +
      `history ${meta.history.messages} message(s)${meta.history.omitted ? `, ${meta.history.omitted} omitted` : ''}`,
  );
  row('run', `${meta.duration_ms.toFixed(0)} ms`);
  lines.push('', 'classifiers:');
  const width = Math.max(...audit.classifier_outputs.map((o) => o.classifier.length), 10);
  for (const { classifier, output } of audit.classifier_outputs) {
    const status = meta.classifiers[classifier]?.status;
    const source =
      status?.source === 'fallback' ? `fallback:${status.reason}` : (status?.source ?? '?');
    const payload = JSON.stringify(result.classifier_outputs[classifier] ?? {});
    lines.push(
      `  ${classifier.padEnd(width)}  ${source.padEnd(16)} ${output.certainty.padEnd(12)} ` +
        `${String(Math.round(status?.ms ?? 0)).padStart(6)} ms  ${payload}  ${output.reason}`,
    );
    if (status?.source === 'fallback') lines.push(`  ${''.padEnd(width)}  ${status.error}`);
  }
  if (meta.skipped.length > 0) lines.push(`  not applicable: ${meta.skipped.join(', ')}`);
  return `${lines.join('\n')}\n`;
}
