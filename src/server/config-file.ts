import { existsSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { parse as parseYaml } from 'yaml';
import { ConfigError } from '../core/errors.js';
import { parseServerConfig, type ServerConfig } from './config.js';

/** File names looked for in the working directory when no configuration is named. */
export const DEFAULT_CONFIG_FILES = ['triage.yaml', 'triage.yml', 'triage.json'] as const;

/**
 * Reads and validates a configuration file: JSON when the name ends in `.json`, YAML otherwise.
 * An empty file is an empty configuration (all defaults). Throws a {@link ConfigError} that names
 * the file, and the line for syntax errors.
 */
export function loadServerConfigFile(
  path: string,
  env: Readonly<Record<string, string | undefined>> = process.env,
): ServerConfig {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    const reason =
      (error as NodeJS.ErrnoException).code === 'ENOENT' ? 'no such file' : 'unreadable';
    throw new ConfigError(path, [{ path: '', message: `cannot be read (${reason})` }]);
  }
  let value: unknown;
  try {
    value = path.endsWith('.json') ? JSON.parse(text) : parseYaml(text);
  } catch (error) {
    throw new ConfigError(path, [{ path: '', message: `is not valid ${syntaxOf(path, error)}` }]);
  }
  return parseServerConfig(value ?? {}, { source: `server config ${path}`, env });
}

/**
 * Where the configuration comes from: the named file, else `$TRIAGE_CONFIG`, else the first of
 * {@link DEFAULT_CONFIG_FILES} in `cwd`; `undefined` when there is none (the server then starts
 * with the local classifiers only).
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

function syntaxOf(path: string, error: unknown): string {
  const kind = path.endsWith('.json') ? 'JSON' : 'YAML';
  // yaml's errors carry a line position; JSON.parse's message may quote the text, so only its
  // position is kept (a configuration holds no prompt, but keep the rule simple everywhere).
  const linePos = (error as { linePos?: [{ line: number; col: number }] }).linePos?.[0];
  if (linePos) return `${kind} (line ${linePos.line}, column ${linePos.col})`;
  const position = /position (\d+)/.exec(String((error as Error).message))?.[1];
  return position ? `${kind} (at character ${position})` : kind;
}
