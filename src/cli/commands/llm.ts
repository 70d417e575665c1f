import type { Command } from 'commander';
import { describeError, TriageError } from '../../core/errors.js';
import { type ConfiguredProvider, createProvider } from '../../llm/config.js';
import type { CompletionRequest } from '../../llm/types.js';
import { failCheck } from '../exit-codes.js';
import { displayName, pickProviderConfig, providerConfigs, readConfigFile } from '../io.js';
import { addOutputOptions, type OutputFlags, wantsJson, writeJson } from '../output.js';

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

/** The check of one provider: both steps. */
export interface ProviderCheck {
  readonly provider: string;
  readonly kind: string;
  readonly model: string;
  readonly baseUrl?: string;
  readonly ok: boolean;
  readonly steps: readonly CheckStep[];
}

interface CheckFlags extends OutputFlags {
  readonly provider?: string;
}

/** Registers `triage llm check`. */
export function registerLlm(program: Command): void {
  const llm = program
    .command('llm')
    .description('work with the LLM providers triage asks when its local classifiers are unsure');
  const check = llm
    .command('check')
    .description(
      'check every provider of a configuration (JSON or YAML: one provider, a list, or ' +
        '{providers: [...]}), in parallel, by asking each for a short text answer and a ' +
        'structured (JSON Schema) answer; exit status 1 when one fails',
    )
    .argument('<file>', 'the configuration file (- for standard input)')
    .option('--provider <id>', 'check only this provider of the file');
  addOutputOptions(check).action(async (file: string, flags: CheckFlags) => {
    const config = readConfigFile(file);
    const entries =
      flags.provider === undefined
        ? providerConfigs(config)
        : [pickProviderConfig(config, displayName(file), flags.provider)];
    // Every configuration is validated before any request: a bad one is bad input (exit 2).
    const providers = entries.map((entry) => createProvider(entry, { source: displayName(file) }));
    try {
      const checks = await Promise.all(providers.map(checkProvider));
      if (wantsJson(flags)) for (const c of checks) writeJson(c, flags);
      else process.stdout.write(formatChecks(checks));
      if (checks.some((c) => !c.ok)) failCheck();
    } finally {
      await Promise.all(providers.map((provider) => provider.close()));
    }
  });
}

/** Asks one provider for a text answer, then a structured one. */
export async function checkProvider(provider: ConfiguredProvider): Promise<ProviderCheck> {
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
  const { id, kind, model, baseUrl } = provider.config;
  return {
    provider: id,
    kind,
    model,
    ...(baseUrl ? { baseUrl } : {}),
    ok: steps.every((s) => s.ok),
    steps,
  };
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

/**
 * The checks as a table: provider, kind, model, the latency and result of each step, then the
 * error of each failed step on a line of its own.
 */
export function formatChecks(checks: readonly ProviderCheck[]): string {
  const header = ['provider', 'kind', 'model', 'text', 'structured', 'result'];
  const cell = (s: CheckStep | undefined) => (s ? `${s.ok ? 'ok' : 'FAILED'} ${s.ms} ms` : '-');
  const rows = checks.map((c) => [
    c.provider,
    c.kind,
    c.model,
    cell(c.steps[0]),
    cell(c.steps[1]),
    c.ok ? 'ok' : 'FAILED',
  ]);
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((row) => row[i]!.length)));
  const line = (row: readonly string[]) =>
    row
      .map((value, i) => value.padEnd(widths[i]!))
      .join('  ')
      .trimEnd();
  const lines = [line(header), ...rows.map(line)];
  for (const c of checks) {
    for (const s of c.steps) {
      if (!s.ok) lines.push(`${c.provider} ${s.step}: ${s.error ?? 'failed'}`);
    }
  }
  const failed = checks.filter((c) => !c.ok).length;
  lines.push(
    '',
    failed === 0
      ? `${checks.length} of ${checks.length} providers answered both checks`
      : `${failed} of ${checks.length} providers failed`,
  );
  return `${lines.join('\n')}\n`;
}
