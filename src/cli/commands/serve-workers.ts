import cluster from 'node:cluster';
import type { AddressInfo } from 'node:net';
import { createTriageServer, restartOnlyChanges, type TriageServer } from '../../server/app.js';
import {
  ClusterWorker,
  configFromPrimary,
  superviseWorkers,
  type WorkerConfigSource,
} from '../../server/cluster.js';
import type { ServerConfig } from '../../server/config.js';
import { createLogger } from '../../server/logging.js';
import { watchConfig } from '../../server/reload.js';
import { readConfigBytes } from '../io.js';
import { loadServerConfig } from './serve-config.js';
import { type ListenOptions, listen, listeningBanner, onStopSignals } from './serve-run.js';

/**
 * `triage serve --workers N` with N > 1: this process becomes the cluster's primary, which serves
 * no request itself; the cluster module starts the same command again for each worker, which
 * runs {@link serveAsWorker}.
 *
 * The primary owns the configuration: it read the file (`bytes`, validated into `config`), hands
 * those bytes to every worker, and reloads them all on SIGHUP or a change of the file, once it
 * has validated the new file itself (a bad one is logged once, by the primary, and the workers
 * keep theirs).
 */
export async function serveWithWorkers(
  config: ServerConfig,
  file: string | undefined,
  bytes: Uint8Array | undefined,
  workers: number,
): Promise<void> {
  const logs = createLogger({ ...config.server.log });
  const { logger } = logs;
  logger.info({ workers, config: file ?? null }, 'starting workers');
  const supervisor = superviseWorkers({
    workers,
    logger,
    config: sourceOf(file, bytes),
    onListening(url, address) {
      process.stderr.write(listeningBanner(config, file, url, address, workers));
    },
  });
  let running = config;
  const stopWatching =
    file === undefined
      ? undefined
      : watchConfig<{ config: ServerConfig; bytes: Uint8Array }>({
          file,
          logger,
          load() {
            const read = readConfigBytes(file);
            return { config: loadServerConfig(file, process.env, read), bytes: read };
          },
          server: {
            reload(next) {
              const restartNeeded = restartOnlyChanges(running, next.config);
              running = next.config;
              supervisor.reconfigure(sourceOf(file, next.bytes));
              return restartNeeded;
            },
          },
        });
  onStopSignals(
    (signal) => {
      logger.info({ signal }, 'shutting down');
      stopWatching?.();
      supervisor.shutDown();
    },
    () => supervisor.kill(),
  );
  const code = await supervisor.done;
  stopWatching?.();
  logger.info({ code }, 'all workers stopped');
  await logs.close();
  process.exitCode = code;
}

function sourceOf(file: string | undefined, bytes: Uint8Array | undefined): WorkerConfigSource {
  return file === undefined || bytes === undefined
    ? {}
    : { file, content: Buffer.from(bytes).toString('base64') };
}

/** The configuration of a source from the primary (the defaults without a file). */
function configOf(source: WorkerConfigSource): ServerConfig {
  const bytes = source.content === undefined ? undefined : Buffer.from(source.content, 'base64');
  return loadServerConfig(source.file, process.env, bytes);
}

/**
 * Reloads this worker's server with a configuration the primary accepted. The primary logged the
 * reload and any field that waits for a restart; a failure here (the primary's file read again
 * differently, e.g. a weights file it names changed meanwhile) keeps the running configuration.
 */
function reloadWorker(server: TriageServer, source: WorkerConfigSource): void {
  const worker = cluster.worker?.id;
  try {
    server.reload(configOf(source));
    server.logger.info({ worker }, 'worker reloaded the configuration');
  } catch (error) {
    server.logger.error(
      { worker },
      `configuration not reloaded by this worker, its running one stays: ${(error as Error).message}`,
    );
  }
}

/**
 * A worker of `triage serve --workers N`: the whole server, on the configuration its primary
 * sends, listening on the port the workers share. It stops when the primary says so (the primary
 * handles the signals: a Ctrl-C or a hangup reaches every process of the group, and the workers
 * leave the decision to it) or goes away.
 */
export async function serveAsWorker(options: ListenOptions): Promise<void> {
  // Signals are the primary's to act on; without a handler they would end this process at once.
  const ignore = () => undefined;
  const signals = ['SIGINT', 'SIGTERM', 'SIGHUP'] as const;
  for (const signal of signals) process.on(signal, ignore);
  let worker: ClusterWorker | undefined;
  let server: TriageServer;
  let url: string;
  try {
    const config = configOf(await configFromPrimary());
    server = createTriageServer({
      config,
      metricsText: () => (worker as ClusterWorker).metrics(),
    });
    url = await listen(server, options);
  } catch (error) {
    // The CLI prints the error and sets the exit code; the channel to the primary would keep
    // the process alive (a plain disconnect from this side would make it exit with 0).
    cluster.worker?.disconnect();
    throw error;
  }
  const member = new ClusterWorker(server.metrics.registry);
  worker = member;
  // A switch of the classifier model, made on any worker, is made on all of them.
  server.classifier.onSwitch = (model) => member.classifierSwitched(model);
  member.onClassifierSwitch((model) => server.classifier.apply(model));
  member.onReload((source) => reloadWorker(server, source));
  const { address } = server.app.server.address() as AddressInfo;
  worker.listening(url, address);
  await worker.untilShutdown();
  server.logger.info({ worker: cluster.worker?.id }, 'shutting down');
  await server.close();
  for (const signal of signals) process.off(signal, ignore);
  if (process.connected) process.disconnect();
}
