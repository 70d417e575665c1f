import { createReadStream, readFileSync, statSync } from 'node:fs';
import { createInterface } from 'node:readline';
import { InputError as CoreInputError } from '../core/errors.js';
import { parseToml } from '../core/toml.js';
import { parseYaml } from '../core/yaml.js';
import { Progress } from './progress.js';

/** A command-line input could not be read or parsed. The message names the file and line. */
export class InputError extends CoreInputError {
  constructor(message: string) {
    super('input_invalid', message);
  }
}

/**
 * The text a command works on: the positional argument when given, otherwise all of standard
 * input (so `echo "…" | triage tier` works). Fails clearly when neither is there.
 */
export async function readTextArgument(argument: string | undefined): Promise<string> {
  if (argument !== undefined) return argument;
  if (process.stdin.isTTY) {
    throw new InputError('no input: pass the text as an argument or pipe it on standard input');
  }
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  // TextDecoder replaces invalid UTF-8 with U+FFFD instead of failing.
  return new TextDecoder().decode(Buffer.concat(chunks)).replace(/\r?\n$/, '');
}

/** One parsed line of a JSONL file. */
export interface JsonlRow {
  /** 1-based line number. */
  readonly line: number;
  readonly value: unknown;
}

/**
 * Reads a JSONL file line by line (blank lines skipped), showing a progress bar on standard error
 * for large files when it is a terminal. A line that is not valid JSON is an {@link InputError}
 * naming the file and line.
 */
export async function* readJsonl(path: string, label = 'reading'): AsyncGenerator<JsonlRow> {
  let size: number;
  try {
    size = statSync(path).size;
  } catch (error) {
    throw new InputError(`cannot read ${path}: ${(error as NodeJS.ErrnoException).code ?? error}`);
  }
  const stream = createReadStream(path, { encoding: 'utf8' });
  const lines = createInterface({ input: stream, crlfDelay: Number.POSITIVE_INFINITY });
  const progress = new Progress(label, size);
  let line = 0;
  let bytes = 0;
  try {
    for await (const text of lines) {
      line++;
      bytes += Buffer.byteLength(text) + 1;
      progress.update(bytes);
      if (text.trim() === '') continue;
      let value: unknown;
      try {
        value = JSON.parse(text);
      } catch (error) {
        throw new InputError(`${path}:${line}: not valid JSON (${(error as Error).message})`);
      }
      yield { line, value };
    }
  } finally {
    progress.done();
    lines.close();
    stream.destroy();
  }
}

/**
 * The value of a configuration file, JSON or YAML (YAML is a superset of JSON), or TOML for a
 * `.toml` file (the format of some origin projects' configurations). An unreadable or unparsable
 * file is an {@link InputError} naming the file, on one line.
 */
export function readConfigFile(path: string): unknown {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    throw new InputError(`cannot read ${path}: ${(error as NodeJS.ErrnoException).code ?? error}`);
  }
  const toml = /\.toml$/i.test(path);
  try {
    return toml ? parseToml(text) : parseYaml(text);
  } catch (error) {
    // The parser's message goes on to show the line with a caret below it: keep its first line.
    const [reason] = (error as Error).message.split('\n');
    throw new InputError(`${path} is not valid ${toml ? 'TOML' : 'JSON or YAML'}: ${reason}`);
  }
}

/**
 * One provider entry of an LLM configuration file (one provider, a list, or `{providers: [...]}`):
 * the only one, or the one whose `id` is given. Otherwise an {@link InputError} saying which.
 */
export function pickProviderConfig(config: unknown, file: string, id: string | undefined): unknown {
  const list = Array.isArray(config) ? config : isProviders(config) ? config.providers : [config];
  if (id === undefined) {
    if (list.length === 1) return list[0];
    throw new InputError(`${file} lists ${list.length} providers: choose one with --provider`);
  }
  const found = list.find((entry) => (entry as { id?: unknown } | null)?.id === id);
  if (found === undefined) throw new InputError(`${file} has no provider with id ${id}`);
  return found;
}

function isProviders(value: unknown): value is { providers: unknown[] } {
  return (
    typeof value === 'object' &&
    value !== null &&
    Array.isArray((value as { providers?: unknown }).providers)
  );
}
