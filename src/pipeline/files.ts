import { readFileSync } from 'node:fs';
import { ConfigError } from '../core/errors.js';
import { parseYaml } from '../core/yaml.js';

/**
 * Reading the pipeline's files (manifests, prompts, catalogs, configurations): a file that cannot
 * be read, is empty or does not parse is a {@link ConfigError} naming `source`, never a raw
 * filesystem or parser error.
 */

/** The text of `path`; `nonEmpty` also rejects a file of whitespace only. */
export function readConfigText(path: string, source: string, nonEmpty = false): string {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code ?? String(error);
    throw new ConfigError(source, [{ path: '', message: `cannot be read (${code})` }]);
  }
  if (nonEmpty && text.trim().length === 0) {
    throw new ConfigError(source, [{ path: '', message: 'is empty' }]);
  }
  return text;
}

/** The parsed content of `path`: YAML for `.yaml`/`.yml`, JSON otherwise. */
export function readConfigData(path: string, source: string): unknown {
  const text = readConfigText(path, source, true);
  try {
    return /\.ya?ml$/i.test(path) ? parseYaml(text) : JSON.parse(text);
  } catch (error) {
    // YAML errors go on to show the line with a caret below it: keep the first line.
    const [reason] = (error as Error).message.split('\n');
    throw new ConfigError(source, [{ path: '', message: `cannot be parsed (${reason})` }]);
  }
}
