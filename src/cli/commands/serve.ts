import cluster from 'node:cluster';
import { availableParallelism } from 'node:os';
import type { Command } from 'commander';
import { InvalidArgumentError } from 'commander';
import { readConfigBytes } from '../io.js';
import { findConfigFile, loadServerConfig } from './serve-config.js';
import { serveHere } from './serve-run.js';
import { serveAsWorker, serveWithWorkers } from './serve-workers.js';

interface ServeOptions {
  readonly config?: string;
  readonly port?: number;
  readonly host?: string;
  readonly workers?: number;
}

/** `triage serve`: the OpenAI-compatible routing server (docs/server.md). */
export function registerServe(program: Command): void {
  program
    .command('serve')
    .description(
      'start the OpenAI-compatible routing server: each chat request goes to the cheapest model ' +
        'tier that can answer it',
    )
    .option(
      '-c, --config <file>',
      'configuration file, YAML or JSON (default: $TRIAGE_CONFIG, else triage.yaml, triage.yml ' +
        'or triage.json in this directory; none: local classifiers only)',
    )
    .option('-p, --port <port>', 'port to listen on (overrides server.port)', parsePort)
    .option('--host <host>', 'interface to listen on (overrides server.host)')
    .option(
      '-w, --workers <n>',
      'processes serving the port, a number or "auto" (one per core); default 1',
      parseWorkers,
    )
    .addHelpText(
      'after',
      '\nPoint any OpenAI-compatible client at http://<host>:<port>/v1 with model "auto" (or ' +
        '"simple" … "reasoning" to force a tier).\nEndpoints: POST /v1/chat/completions, ' +
        'POST /v1/route, GET /v1/models, GET /health, GET /metrics. See docs/server.md.',
    )
    .action(async (options: ServeOptions) => {
      const listenOptions = { port: options.port, host: options.host };
      // A worker runs on the configuration its primary read (and reloads with the primary).
      if (cluster.isWorker) return serveAsWorker(listenOptions);
      const file = findConfigFile(options.config);
      const bytes = file === undefined ? undefined : readConfigBytes(file);
      const config = loadServerConfig(file, process.env, bytes);
      const workers = options.workers ?? 1;
      if (workers > 1) await serveWithWorkers(config, file, bytes, workers);
      else await serveHere(config, file, listenOptions);
    });
}

function parsePort(value: string): number {
  const port = Number(value);
  if (!Number.isInteger(port) || port < 0 || port > 65_535) {
    throw new InvalidArgumentError('must be an integer from 0 to 65535');
  }
  return port;
}

/** Most workers accepted: more processes than this is a typo, not a deployment. */
const MAX_WORKERS = 256;

function parseWorkers(value: string): number {
  if (value === 'auto') return availableParallelism();
  const workers = Number(value);
  if (!Number.isInteger(workers) || workers < 1 || workers > MAX_WORKERS) {
    throw new InvalidArgumentError(`must be "auto" or an integer from 1 to ${MAX_WORKERS}`);
  }
  return workers;
}
