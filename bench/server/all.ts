import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

/**
 * `npm run bench:server [-- <options of latency.ts>]`: the server's latency, state, translation
 * and throughput phases (bench/server/latency.ts, given every option), then the agent stage
 * (bench/server/agents.ts, given `--json` only: its `--rounds` means something else). An option
 * that picks one phase (`--throughput-only`, `--state-only`, `--translation-only`) leaves the
 * agent stage out.
 */

const args = process.argv.slice(2);
const ONE_PHASE = ['--throughput-only', '--state-only', '--translation-only'];

function run(file: string, options: readonly string[]): void {
  const script = fileURLToPath(new URL(file, import.meta.url));
  const { status } = spawnSync(process.execPath, ['--import', 'tsx', script, ...options], {
    stdio: 'inherit',
  });
  if (status !== 0) process.exit(status ?? 1);
}

run('./latency.ts', args);
if (!args.some((arg) => ONE_PHASE.includes(arg))) {
  run('./agents.ts', args.includes('--json') ? ['--json'] : []);
}
