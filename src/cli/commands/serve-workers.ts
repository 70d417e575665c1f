import cluster from 'node:cluster';
import type { AddressInfo } from 'node:net';
import { createTriageServer } from '../../server/app.js';
import { ClusterWorker, superviseWorkers } from '../../server/cluster.js';
import type { ServerConfig } from '../../server/config.js';
import { createLogger } from '../../server/logging.js';
import { type ListenOptions, listen, listeningBanner, onStopSignals } from './serve-run.js';

/**
 * `triage serve --workers N` with N > 1: this process becomes the cluster's primary, which serves
 * no request itself; the cluster module starts the same command again for each worker, which
 * runs {@link serveAsWorker}.
 */
export async function serveWithWorkers(
  config: ServerConfig,
  file: string | undefined,
  workers: number,
): Promise<void> {
  const logs = createLogger({ ...config.server.log });
  const { logger } = logs;
  logger.info({ workers, config: file ?? null }, 'starting workers');
  const supervisor = superviseWorkers({
    workers,
    logger,
    onListening(url, address) {
      process.stderr.write(listeningBanner(config, file, url, address, workers));
    },
  });
  onStopSignals(
    (signal) => {
      logger.info({ signal }, 'shutting down');
      supervisor.shutDown();
    },
    () => supervisor.kill(),
  );
  const code = await supervisor.done;
  logger.info({ code }, 'all workers stopped');
  await logs.close();
  process.exitCode = code;
}

/**
 * A worker of `triage serve --workers N`: the whole server, listening on the port the workers
 * share. It stops when the primary says so (the primary handles the signals: a Ctrl-C reaches
 * every process of the group, and the workers leave the decision to it) or goes away.
 */
export async function serveAsWorker(config: ServerConfig, options: ListenOptions): Promise<void> {
  let worker: ClusterWorker | undefined;
  const server = createTriageServer({
    config,
    metricsText: () => (worker as ClusterWorker).metrics(),
  });
  // Signals are the primary's to act on; without a handler they would end this process at once.
  const ignore = () => undefined;
  process.on('SIGINT', ignore);
  process.on('SIGTERM', ignore);
  let url: string;
  try {
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
  const { address } = server.app.server.address() as AddressInfo;
  worker.listening(url, address);
  await worker.untilShutdown();
  server.logger.info({ worker: cluster.worker?.id }, 'shutting down');
  await server.close();
  process.off('SIGINT', ignore);
  process.off('SIGTERM', ignore);
  if (process.connected) process.disconnect();
}
