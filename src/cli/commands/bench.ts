import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import type { Command } from 'commander';
import { TriageError } from '../../core/errors.js';
import { packageRoot } from '../../core/package-root.js';

/**
 * `triage bench`: the benchmarks are TypeScript files under `bench/` run with tsx, which a source
 * checkout has and an installed package does not (it ships `dist/` only). From a checkout the
 * command runs them (`npm run bench` / `npm run bench:server`); from an installed package it says
 * how to get one, rather than shipping the load generator and its development dependencies.
 */
export function registerBench(program: Command): void {
  program
    .command('bench')
    .description('run the benchmarks (from a source checkout): classifiers, or the routing server')
    .argument('[filters...]', 'only cases whose name starts with one of these (e.g. tier text)')
    .option('--json', 'print one JSON object instead of a table')
    .option(
      '--server',
      'measure the latency the routing server adds over calling an upstream directly',
    )
    .allowUnknownOption()
    .addHelpText(
      'after',
      '\nWith --server, further options go to the load generator: --seconds N, --rounds N, ' +
        '--rates 500,1000, --stream-rate N, --log-level LEVEL.',
    )
    .action(async (_filters: string[], options: { json?: boolean; server?: boolean }, command) => {
      const root = `${packageRoot()}/`;
      const script = benchScript(root, options.server === true);
      // Filters and the load generator's own options, as given.
      const args = [
        '--import',
        'tsx',
        script,
        ...command.args,
        ...(options.json ? ['--json'] : []),
      ];
      process.exitCode = await run(args, root);
    });
}

/**
 * The benchmark script to run from `root`, or a {@link TriageError} saying how to get a checkout
 * when `root` has no `bench/` folder or tsx is not installed.
 */
export function benchScript(root: string, server: boolean): string {
  const script = server ? 'bench/server/latency.ts' : 'bench/run.ts';
  if (!existsSync(`${root}${script}`) || !hasTsx()) {
    throw new TriageError(
      'bench_unavailable',
      'the benchmarks run from a source checkout of triage, not from an installed package: ' +
        'clone the repository, run `npm install`, then `npm run bench` ' +
        '(or `npm run bench:server` for the routing server)',
    );
  }
  return script;
}

function hasTsx(): boolean {
  try {
    import.meta.resolve('tsx');
    return true;
  } catch {
    return false;
  }
}

function run(args: string[], cwd: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, args, { cwd, stdio: 'inherit' });
    child.once('error', reject);
    child.once('exit', (code, signal) => resolve(code ?? (signal ? 1 : 0)));
  });
}
