import { existsSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { parseServerConfig, type ServerConfig } from '../../server/config.js';
import { parseConfigBytes, readConfigBytes } from '../io.js';
import { withWeightsFile } from '../tier-config.js';

/** File names looked for in the working directory when no configuration is named. */
export const DEFAULT_CONFIG_FILES = ['triage.yaml', 'triage.yml', 'triage.json'] as const;

/**
 * Where `triage serve` reads its configuration: the named file, else `$TRIAGE_CONFIG`, else the
 * first of {@link DEFAULT_CONFIG_FILES} in `cwd`; `undefined` when there is none (the server then
 * starts with the local classifiers only).
 */
export function findConfigFile(
  named: string | undefined,
  env: Readonly<Record<string, string | undefined>> = process.env,
  cwd = process.cwd(),
): string | undefined {
  if (named) return resolve(cwd, named);
  if (env.TRIAGE_CONFIG) return resolve(cwd, env.TRIAGE_CONFIG);
  return DEFAULT_CONFIG_FILES.map((name) => resolve(cwd, name)).find((path) => existsSync(path));
}

/**
 * The validated configuration of `path` (JSON or YAML; an empty file is all defaults), or the
 * defaults when there is no file. Errors name the file and, for a bad field, its path. `bytes`:
 * the file's content read already (the file is read otherwise).
 */
export function loadServerConfig(
  path: string | undefined,
  env: Readonly<Record<string, string | undefined>> = process.env,
  bytes?: Uint8Array,
): ServerConfig {
  if (path === undefined) return parseServerConfig({}, { env });
  const value = parseConfigBytes(bytes ?? readConfigBytes(path), path, { allowEmpty: true }) ?? {};
  // `tier.weights` may name a weights file, relative to the configuration file.
  const tier = (value as { tier?: unknown } | null)?.tier;
  const config =
    tier === undefined
      ? value
      : { ...(value as object), tier: withWeightsFile(tier, dirname(path)) };
  return parseServerConfig(config, { source: `server config ${path}`, env });
}
