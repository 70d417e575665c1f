import type { Command } from 'commander';
import { requestHtmlReport } from '../../console/report/cli-report.js';
import { registerCapabilitiesEval } from './capabilities-eval.js';
import { registerContextEval } from './context.js';
import type { RegisterCommand } from './index.js';
import { registerInjectionEval } from './inject.js';
import { registerRoutingEval } from './routing-eval.js';
import { registerTierEval } from './tier.js';

/**
 * The kinds of `triage eval <kind> FILE.jsonl`. Each subsystem that can be evaluated adds the
 * registration of its kind here (see `../eval-runner.ts` for the shared runner).
 */
export const EVAL_KINDS: readonly RegisterCommand[] = [
  registerContextEval,
  registerCapabilitiesEval,
  registerInjectionEval,
  registerTierEval,
  registerRoutingEval,
];

/** Registers `triage eval` and its kinds. */
export function registerEval(program: Command): void {
  const command = program
    .command('eval')
    .description(
      'measure a classifier on a labelled file: JSONL, JSON or CSV (accuracy, confusion, errors)',
    );
  for (const register of EVAL_KINDS) register(command);
  for (const kind of command.commands) {
    kind.option('--html <file>', 'also write the report as one self-contained HTML file');
  }
  command.hook('preAction', (_eval, kind) => {
    requestHtmlReport(kind.opts<{ html?: string }>().html, kind.name());
  });
}
