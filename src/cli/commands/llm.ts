import type { Command } from 'commander';
import { describeError, TriageError } from '../../core/errors.js';
import { type ConfiguredProvider, createProvider } from '../../llm/config.js';
import type { CompletionRequest } from '../../llm/types.js';
import { pickProviderConfig, readConfigFile } from '../io.js';

/** The answer `triage llm check` asks for in structured form: small and strict-mode compatible. */
const CHECK_SCHEMA = {
  type: 'object',
  properties: { ok: { type: 'boolean' } },
  required: ['ok'],
  additionalProperties: false,
} as const;

/** One step of a check, as printed. */
interface CheckStep {
  readonly step: 'text' | 'structured';
  readonly ok: boolean;
  readonly ms: number;
  readonly model?: string;
  readonly inputTokens?: number;
  readonly outputTokens?: number;
  readonly answer?: string;
  readonly error?: string;
}

/** Registers `triage llm check`. */
export function registerLlm(program: Command): void {
  const llm = program
    .command('llm')
    .description('work with the LLM providers triage asks when its local classifiers are unsure');
  llm
    .command('check')
    .description(
      'check a provider configuration (JSON or YAML: one provider, a list, or {providers: [...]}) ' +
        'by asking for a short text answer and a structured (JSON Schema) answer',
    )
    .argument('<file>', 'the configuration file')
    .option('--provider <id>', 'the provider to check, when the file lists several')
    .option('--json', 'print one JSON object')
    .action(async (file: string, options: { provider?: string; json?: boolean }) => {
      const provider = createProvider(
        pickProviderConfig(readConfigFile(file), file, options.provider),
        {
          source: file,
        },
      );
      try {
        const steps = [
          await step(provider, 'text', {
            messages: [{ role: 'user', content: 'Reply with the single word OK.' }],
            maxTokens: 10,
          }),
          await step(provider, 'structured', {
            messages: [{ role: 'user', content: 'Reply with the JSON object {"ok": true}.' }],
            maxTokens: 30,
            schema: CHECK_SCHEMA,
            schemaName: 'check',
          }),
        ];
        print(provider, steps, options.json === true);
        if (steps.some((s) => !s.ok)) process.exitCode = 1;
      } finally {
        await provider.close();
      }
    });
}

async function step(
  provider: ConfiguredProvider,
  name: CheckStep['step'],
  request: CompletionRequest,
): Promise<CheckStep> {
  const started = performance.now();
  try {
    const response = await provider.complete({ ...request, temperature: 0 });
    return {
      step: name,
      ok: true,
      ms: Math.round(performance.now() - started),
      model: response.model,
      ...(response.usage ?? {}),
      answer: name === 'structured' ? JSON.stringify(response.json) : response.text.slice(0, 60),
    };
  } catch (error) {
    return {
      step: name,
      ok: false,
      ms: Math.round(performance.now() - started),
      error:
        error instanceof TriageError ? `${error.code}: ${error.message}` : describeError(error),
    };
  }
}

function print(provider: ConfiguredProvider, steps: readonly CheckStep[], json: boolean): void {
  const { id, kind, model, baseUrl } = provider.config;
  if (json) {
    process.stdout.write(`${JSON.stringify({ provider: id, kind, model, steps })}\n`);
    return;
  }
  const lines = [`provider ${id} (${kind}, ${model}${baseUrl ? ` at ${baseUrl}` : ''})`];
  for (const s of steps) {
    const head = `  ${s.step.padEnd(11)}${s.ok ? 'ok    ' : 'FAILED'} ${String(s.ms).padStart(6)} ms`;
    const tokens =
      s.inputTokens === undefined ? '' : `  tokens ${s.inputTokens}→${s.outputTokens ?? '?'}`;
    lines.push(
      s.ok ? `${head}  model ${s.model}${tokens}  ${s.answer}` : `${head}  ${s.error ?? ''}`,
    );
  }
  process.stdout.write(`${lines.join('\n')}\n`);
}
