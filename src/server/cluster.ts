import cluster, { type Worker } from 'node:cluster';
import type { Logger } from 'pino';
import { AggregatorRegistry, type Registry } from 'prom-client';

/**
 * Several server processes behind one port (`triage serve --workers N`), with Node's cluster
 * module: the primary forks the workers, replaces one that dies, answers their requests for the
 * metrics of all of them (prom-client's `AggregatorRegistry`: counters and histograms summed),
 * and shuts them all down gracefully. Each worker runs the whole server; the primary serves no
 * request.
 *
 * The primary holds the configuration: a worker asks it for the file's content when it starts,
 * and the primary sends every worker a new one it accepted (a reload), so that all workers, a
 * replacement too, run on the content the primary validated, whatever the file holds meanwhile.
 */

/**
 * The configuration the workers run on, as the primary read it: the file (`undefined`: none, the
 * defaults) and its bytes in base64 (what the primary validated), parsed again by each worker.
 */
export interface WorkerConfigSource {
  readonly file?: string;
  readonly content?: string;
}

/** A worker tells the primary it listens. */
interface ListeningMessage {
  readonly type: 'triage:listening';
  readonly url: string;
  readonly address: string;
}

/** A worker asks for the metrics of all workers; the primary answers with the same `id`. */
interface MetricsMessage {
  readonly type: 'triage:metrics';
  readonly id: number;
  readonly text?: string;
  readonly error?: string;
}

/** The primary tells a worker to shut down gracefully. */
interface ShutdownMessage {
  readonly type: 'triage:shutdown';
}

/**
 * A worker switched the tier classifier's model (`null`: back to the configured one); the primary
 * passes it on to every other worker, and to a worker that replaces one.
 */
interface ClassifierMessage {
  readonly type: 'triage:classifier';
  readonly model: string | null;
}

/** A starting worker asks the primary for the configuration to run on. */
interface ConfigRequestMessage {
  readonly type: 'triage:config-request';
}

/** The configuration to run on: the answer to a starting worker, or a reload. */
interface ConfigMessage {
  readonly type: 'triage:config';
  readonly source: WorkerConfigSource;
}

type ClusterMessage =
  | ListeningMessage
  | MetricsMessage
  | ShutdownMessage
  | ClassifierMessage
  | ConfigRequestMessage
  | ConfigMessage;

/** A worker that dies sooner than this after it started is replaced after a pause. */
const SHORT_LIFE_MS = 5_000;
/** The pause before replacing a worker that died young, so that a crash does not loop hot. */
const REPLACE_PAUSE_MS = 1_000;
/** How long a worker waits for the primary's metrics before it answers with an error. */
const METRICS_TIMEOUT_MS = 10_000;

/** What {@link superviseWorkers} needs. */
export interface SupervisorOptions {
  /** How many workers to run. */
  readonly workers: number;
  /** Where the primary logs workers starting, dying and being replaced. */
  readonly logger: Logger;
  /** Called once, when every worker first listens: the URL and address they listen on. */
  readonly onListening?: (url: string, address: string) => void;
  /** The configuration the workers start on (see {@link Supervisor.reconfigure}). */
  readonly config: WorkerConfigSource;
}

/** The primary's handle on its workers. */
export interface Supervisor {
  /** Resolves with the exit code once every worker has exited after a shutdown. */
  readonly done: Promise<number>;
  /** Asks every worker to shut down gracefully (their own grace period applies). */
  shutDown(): void;
  /** Ends every worker at once. */
  kill(): void;
  /**
   * Sends every worker a new configuration (validated by the caller) to reload with; workers
   * started later start on it.
   */
  reconfigure(source: WorkerConfigSource): void;
}

/**
 * Forks `workers` workers (the same program, started again by the cluster module) and keeps that
 * many running: a worker that dies after it listened is replaced (logged as an error); one that
 * dies before it ever listened (a port in use, a bad configuration) ends them all, with its
 * exit code.
 */
export function superviseWorkers(options: SupervisorOptions): Supervisor {
  const { logger, workers } = options;
  const aggregator = new AggregatorRegistry();
  const startedAt = new Map<Worker, number>();
  const listened = new Set<Worker>();
  const pendingForks = new Set<NodeJS.Timeout>();
  let reported = false;
  let stopping = false;
  /** The last switch of the classifier model, for workers started after it. */
  let classifier: ClassifierMessage | undefined;
  /** The configuration, numbered by reload; which number each worker was sent last. */
  let config: ConfigMessage = { type: 'triage:config', source: options.config };
  let configVersion = 0;
  const configSent = new Map<Worker, number>();
  const sendConfig = (worker: Worker) => {
    configSent.set(worker, configVersion);
    send(worker, config);
  };
  let exitCode = 0;
  let resolveDone: (code: number) => void = () => undefined;
  const done = new Promise<number>((resolve) => {
    resolveDone = resolve;
  });
  const live = () => Object.values(cluster.workers ?? {}).filter((w) => w !== undefined);

  const fork = () => {
    const worker = cluster.fork();
    startedAt.set(worker, performance.now());
    worker.on('message', (message: ClusterMessage) => onMessage(worker, message));
  };

  const onMessage = (worker: Worker, message: ClusterMessage) => {
    if (message?.type === 'triage:listening') {
      listened.add(worker);
      logger.info({ worker: worker.id, pid: worker.process.pid }, 'worker listening');
      if (classifier !== undefined) send(worker, classifier);
      // A reload while it started (after it was answered, before it listened) reaches it now.
      if (configSent.get(worker) !== configVersion) sendConfig(worker);
      if (!reported && listened.size >= workers) {
        reported = true;
        options.onListening?.(message.url, message.address);
      }
    } else if (message?.type === 'triage:config-request') {
      sendConfig(worker);
    } else if (message?.type === 'triage:classifier') {
      classifier = { type: 'triage:classifier', model: message.model };
      for (const other of live()) if (other !== worker) send(other, classifier);
    } else if (message?.type === 'triage:metrics') {
      aggregator.clusterMetrics().then(
        (text) => send(worker, { type: 'triage:metrics', id: message.id, text }),
        (error: Error) =>
          send(worker, { type: 'triage:metrics', id: message.id, error: error.message }),
      );
    }
  };

  const stop = () => {
    if (stopping) return;
    stopping = true;
    for (const timer of pendingForks) clearTimeout(timer);
    pendingForks.clear();
    for (const worker of live()) send(worker, { type: 'triage:shutdown' });
    if (live().length === 0) resolveDone(exitCode);
  };

  cluster.on('exit', (worker, code, signal) => {
    const lived = performance.now() - (startedAt.get(worker) ?? 0);
    startedAt.delete(worker);
    configSent.delete(worker);
    const wasListening = listened.delete(worker);
    const about = { worker: worker.id, pid: worker.process.pid, code, signal };
    if (stopping) {
      logger.info(about, 'worker stopped');
      if (live().length === 0) resolveDone(exitCode);
      return;
    }
    if (!wasListening) {
      logger.error(about, 'worker failed to start: stopping');
      exitCode = typeof code === 'number' && code !== 0 ? code : 1;
      stop();
      return;
    }
    logger.error(about, 'worker died: starting another');
    const timer = setTimeout(
      () => {
        pendingForks.delete(timer);
        if (!stopping) fork();
      },
      lived < SHORT_LIFE_MS ? REPLACE_PAUSE_MS : 0,
    );
    pendingForks.add(timer);
  });

  for (let i = 0; i < workers; i++) fork();
  return {
    done,
    shutDown: stop,
    kill() {
      stopping = true;
      for (const worker of live()) worker.process.kill('SIGKILL');
    },
    reconfigure(source) {
      config = { type: 'triage:config', source };
      configVersion++;
      // Workers still starting get it once they listen (they may have been answered already).
      for (const worker of listened) sendConfig(worker);
    },
  };
}

function send(worker: Worker, message: ClusterMessage): void {
  if (worker.isConnected()) worker.send(message);
}

/** The worker side of the cluster: reporting, shutting down, and the metrics of all workers. */
export class ClusterWorker {
  readonly #pending = new Map<
    number,
    { resolve: (text: string) => void; reject: (error: Error) => void; timer: NodeJS.Timeout }
  >();
  #next = 0;

  /** `registry`: this worker's metrics, which the primary collects from every worker. */
  constructor(registry: Registry) {
    // Constructing one installs prom-client's answer to the primary's collection requests.
    new AggregatorRegistry();
    AggregatorRegistry.setRegistries([registry]);
    process.on('message', (message: ClusterMessage) => {
      if (message?.type !== 'triage:metrics') return;
      const pending = this.#pending.get(message.id);
      if (!pending) return;
      this.#pending.delete(message.id);
      clearTimeout(pending.timer);
      if (message.text !== undefined) pending.resolve(message.text);
      else pending.reject(new Error(`metrics of the workers unavailable: ${message.error}`));
    });
  }

  /** Tells the primary this worker listens. */
  listening(url: string, address: string): void {
    process.send?.({ type: 'triage:listening', url, address } satisfies ListeningMessage);
  }

  /** Tells the other workers, through the primary, that the classifier model was switched. */
  classifierSwitched(model: string | null): void {
    process.send?.({ type: 'triage:classifier', model } satisfies ClassifierMessage);
  }

  /**
   * Calls `apply` with every configuration the primary sends after the one this worker started
   * on (reloads). Call it before {@link listening}: the primary sends reloads from then on.
   */
  onReload(apply: (source: WorkerConfigSource) => void): void {
    process.on('message', (message: ClusterMessage) => {
      if (message?.type === 'triage:config') apply(message.source);
    });
  }

  /** Calls `apply` with every switch of the classifier model another worker made. */
  onClassifierSwitch(apply: (model: string | null) => void): void {
    process.on('message', (message: ClusterMessage) => {
      if (message?.type === 'triage:classifier') apply(message.model);
    });
  }

  /** Resolves when the primary asks this worker to stop, or goes away. */
  untilShutdown(): Promise<void> {
    return new Promise((resolve) => {
      process.on('message', (message: ClusterMessage) => {
        if (message?.type === 'triage:shutdown') resolve();
      });
      process.once('disconnect', () => resolve());
    });
  }

  /** The metrics of every worker, summed, in Prometheus' text format. */
  metrics(): Promise<string> {
    return new Promise((resolve, reject) => {
      const id = this.#next++;
      const timer = setTimeout(() => {
        this.#pending.delete(id);
        reject(new Error('metrics of the workers unavailable: the primary did not answer'));
      }, METRICS_TIMEOUT_MS);
      this.#pending.set(id, { resolve, reject, timer });
      process.send?.({ type: 'triage:metrics', id } satisfies MetricsMessage);
    });
  }
}

/** A starting worker's configuration, asked of the primary (which answers at once). */
export function configFromPrimary(): Promise<WorkerConfigSource> {
  return new Promise((resolve, reject) => {
    const onMessage = (message: ClusterMessage) => {
      if (message?.type !== 'triage:config') return;
      done();
      resolve(message.source);
    };
    const onDisconnect = () => {
      done();
      reject(new Error('the primary went away before it sent the configuration'));
    };
    const done = () => {
      process.off('message', onMessage);
      process.off('disconnect', onDisconnect);
    };
    process.on('message', onMessage);
    process.once('disconnect', onDisconnect);
    process.send?.({ type: 'triage:config-request' } satisfies ConfigRequestMessage);
  });
}
