import type { AddressInfo } from 'node:net';
import type { Command } from 'commander';
import { InvalidArgumentError } from 'commander';
import { TriageError } from '../../core/errors.js';
import { createTriageServer, DEFAULT_CLOSE_GRACE_MS, type TriageServer } from '../../server/app.js';
import { clientKeys } from '../../server/config.js';
import { exposureWarning } from '../../server/exposure.js';
import { TIERS } from '../../tier/tiers.js';
import { findConfigFile, loadServerConfig } from './serve-config.js';

interface ServeOptions {
  readonly config?: string;
  readonly port?: number;
  readonly host?: string;
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
    .addHelpText(
      'after',
      '\nPoint any OpenAI-compatible client at http://<host>:<port>/v1 with model "auto" (or ' +
        '"simple" … "reasoning" to force a tier).\nEndpoints: POST /v1/chat/completions, ' +
        'POST /v1/route, GET /v1/models, GET /health, GET /metrics. See docs/server.md.',
    )
    .action(async (options: ServeOptions) => {
      const file = findConfigFile(options.config);
      const config = loadServerConfig(file);
      const server = createTriageServer({ config });
      const url = await listen(server, options);
      const models = TIERS.map((tier) => config.tiers[tier]?.length ?? 0);
      const upstreams = models.reduce((sum, n) => sum + n, 0);
      server.logger.info(
        {
          url,
          config: file ?? null,
          models: Object.fromEntries(TIERS.map((t, i) => [t, models[i]])),
        },
        'triage listening',
      );
      const { address } = server.app.server.address() as AddressInfo;
      const exposed = exposureWarning(address, clientKeys(config).length > 0);
      process.stderr.write(
        `triage listening on ${url} (config: ${file ?? 'none'})\n` +
          (exposed === undefined ? '' : `warning: ${exposed}\n`) +
          (upstreams === 0
            ? 'No upstream model is configured: POST /v1/route shows decisions; chat completions ' +
              'answer 503 until you add tiers (see docs/server.md).\n'
            : ''),
      );
      await untilSignalled(server);
    });
}

function parsePort(value: string): number {
  const port = Number(value);
  if (!Number.isInteger(port) || port < 0 || port > 65_535) {
    throw new InvalidArgumentError('must be an integer from 0 to 65535');
  }
  return port;
}

async function listen(server: TriageServer, options: ServeOptions): Promise<string> {
  const host = options.host ?? server.config.server.host;
  const port = options.port ?? server.config.server.port;
  try {
    return await server.listen({ host, port });
  } catch (error) {
    await server.close({ graceMs: 0 });
    const code = (error as NodeJS.ErrnoException).code ?? (error as Error).message;
    throw new TriageError('listen_failed', `cannot listen on ${host}:${port} (${code})`);
  }
}

/**
 * Resolves once the server has shut down after SIGINT or SIGTERM: requests in flight get
 * {@link DEFAULT_CLOSE_GRACE_MS} to finish. A second signal ends the process at once.
 */
function untilSignalled(server: TriageServer): Promise<void> {
  return new Promise((resolve, reject) => {
    const stop = (signal: NodeJS.Signals) => {
      process.off('SIGINT', stop);
      process.off('SIGTERM', stop);
      process.once(signal, () => process.exit(1));
      server.logger.info({ signal }, 'shutting down');
      server.close().then(resolve, reject);
    };
    process.once('SIGINT', stop);
    process.once('SIGTERM', stop);
  });
}
