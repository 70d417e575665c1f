import type { AddressInfo } from 'node:net';
import { TriageError } from '../../core/errors.js';
import { createTriageServer, DEFAULT_CLOSE_GRACE_MS, type TriageServer } from '../../server/app.js';
import { clientKeys, type ServerConfig } from '../../server/config.js';
import { exposureWarning } from '../../server/exposure.js';
import { watchConfig } from '../../server/reload.js';
import { TIERS } from '../../tier/tiers.js';
import { loadServerConfig } from './serve-config.js';

/** Where `triage serve` listens: the command line's choices over the configuration's. */
export interface ListenOptions {
  readonly port?: number;
  readonly host?: string;
}

/** Runs the server in this process until SIGINT or SIGTERM (`--workers 1`, the default). */
export async function serveHere(
  config: ServerConfig,
  file: string | undefined,
  options: ListenOptions,
): Promise<void> {
  const server = createTriageServer({ config });
  const url = await listen(server, options);
  const models = TIERS.map((tier) => config.tiers[tier]?.length ?? 0);
  server.logger.info(
    {
      url,
      config: file ?? null,
      models: Object.fromEntries(TIERS.map((t, i) => [t, models[i]])),
    },
    'triage listening',
  );
  const { address } = server.app.server.address() as AddressInfo;
  process.stderr.write(listeningBanner(config, file, url, address));
  const stopWatching =
    file === undefined
      ? undefined
      : watchConfig({ server, file, load: () => loadServerConfig(file), logger: server.logger });
  await untilSignalled(server);
  stopWatching?.();
}

/**
 * The lines `triage serve` prints on standard error once it listens: where, with which file, and
 * what the operator should know (no upstream yet; exposed without client keys).
 */
export function listeningBanner(
  config: ServerConfig,
  file: string | undefined,
  url: string,
  address: string,
  workers = 1,
): string {
  const upstreams = TIERS.reduce((sum, tier) => sum + (config.tiers[tier]?.length ?? 0), 0);
  const exposed = exposureWarning(address, clientKeys(config).length > 0);
  return (
    `triage listening on ${url} (config: ${file ?? 'none'}` +
    `${workers > 1 ? `, ${workers} workers` : ''})\n` +
    (exposed === undefined ? '' : `warning: ${exposed}\n`) +
    (upstreams === 0
      ? 'No upstream model is configured: POST /v1/route shows decisions; chat completions ' +
        'answer 503 until you add tiers (see docs/server.md).\n'
      : '')
  );
}

/** Listens where asked; a failure (port in use, …) becomes a one-line error. */
export async function listen(server: TriageServer, options: ListenOptions): Promise<string> {
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
    onStopSignals(
      (signal) => {
        server.logger.info({ signal }, 'shutting down');
        server.close().then(resolve, reject);
      },
      () => process.exit(1),
    );
  });
}

/**
 * Calls `first` on the first SIGINT or SIGTERM, and `second` on the next one (an operator who
 * does not want to wait for the grace period).
 */
export function onStopSignals(first: (signal: NodeJS.Signals) => void, second: () => void): void {
  const stop = (signal: NodeJS.Signals) => {
    process.off('SIGINT', stop);
    process.off('SIGTERM', stop);
    process.once('SIGINT', second);
    process.once('SIGTERM', second);
    first(signal);
  };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
}
