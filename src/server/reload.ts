import { type FSWatcher, watch } from 'node:fs';
import { basename, dirname } from 'node:path';
import type { Logger } from 'pino';
import { TriageError } from '../core/errors.js';
import type { ServerConfig } from './config.js';

/**
 * Reloads a running server's configuration file on SIGHUP and when the file changes: the new file
 * is read and validated in full first; a bad one is refused with the same field-named errors as at
 * start (logged), and the running configuration stays. Requests in flight finish on the
 * configuration they started with.
 *
 * With `--workers`, the cluster's primary watches the file and validates it (so a bad file is
 * logged once), and sends the workers what it accepted; each worker reloads its own server.
 */

/** Changes to the file within this many milliseconds are read once (editors write in steps). */
const SETTLE_MS = 200;

/** What a reload applies a new configuration to: a server, or the primary of its workers. */
export interface Reloadable<Config> {
  /** Takes `next` (validated); returns the fields that wait for a restart. */
  reload(next: Config): readonly string[];
}

/**
 * What {@link watchConfig} needs. `Config`: what `load` gives and `server` takes (a
 * configuration, or a configuration with the bytes it was read from).
 */
export interface ConfigWatchOptions<Config = ServerConfig> {
  readonly server: Reloadable<Config>;
  /** The file to watch. */
  readonly file: string;
  /** Reads and validates the file (throws a `ConfigError` naming every bad field). */
  readonly load: () => Config;
  readonly logger: Logger;
  /** Listen for SIGHUP too. Default true. */
  readonly signal?: boolean;
}

/** The outcome of one reload. */
export type ReloadOutcome =
  | { readonly reloaded: true; readonly restartNeeded: readonly string[] }
  | { readonly reloaded: false; readonly error: string };

/** Reads the file and reloads the server with it, or keeps the running configuration. */
export function reloadFrom<Config>(
  options: ConfigWatchOptions<Config>,
  why: string,
): ReloadOutcome {
  const { server, file, load, logger } = options;
  let next: Config;
  try {
    next = load();
  } catch (error) {
    const message =
      error instanceof TriageError ? error.message : `could not read ${file}: ${String(error)}`;
    logger.error({ file, why }, `configuration not reloaded, the running one stays: ${message}`);
    return { reloaded: false, error: message };
  }
  const restartNeeded = server.reload(next);
  logger.info({ file, why }, 'configuration reloaded');
  if (restartNeeded.length > 0) {
    logger.warn(
      { fields: restartNeeded },
      'these fields of the server section take effect at the next restart',
    );
  }
  return { reloaded: true, restartNeeded };
}

/** Starts watching; returns a function that stops. */
export function watchConfig<Config>(options: ConfigWatchOptions<Config>): () => void {
  let timer: NodeJS.Timeout | undefined;
  const later = (why: string) => {
    clearTimeout(timer);
    timer = setTimeout(() => reloadFrom(options, why), SETTLE_MS);
  };
  const onSignal = () => later('SIGHUP');
  let watcher: FSWatcher | undefined;
  try {
    // The directory, not the file: editors save by writing a new file and renaming it over.
    const name = basename(options.file);
    watcher = watch(dirname(options.file), { persistent: false }, (_event, changed) => {
      if (changed === null || changed === name) later('file changed');
    });
    watcher.on('error', (err) =>
      options.logger.warn({ err, file: options.file }, 'watching the configuration file stopped'),
    );
  } catch (err) {
    options.logger.warn(
      { err, file: options.file },
      'cannot watch the configuration file: reload with SIGHUP',
    );
  }
  if (options.signal !== false) process.on('SIGHUP', onSignal);
  return () => {
    clearTimeout(timer);
    watcher?.close();
    process.off('SIGHUP', onSignal);
  };
}
