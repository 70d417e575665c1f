import { readFileSync } from 'node:fs';
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

/** The name that stands for standard input wherever a file (or a text argument) is expected. */
export const STDIN = '-';

/** How a file is named in messages: standard input has no path. */
export function displayName(path: string): string {
  return path === STDIN ? 'standard input' : path;
}

/**
 * Why `bytes` are not text a command can work on, or `undefined` when they are: nothing but
 * white space, a NUL byte or invalid UTF-8 (a binary file), or mostly control characters. A
 * classifier given a binary file would answer something; a gate must refuse instead.
 */
export function notText(bytes: Uint8Array): string | undefined {
  if (bytes.includes(0)) return 'binary (it holds NUL bytes), not text';
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    return 'binary (not valid UTF-8), not text';
  }
  return notTextString(text);
}

/** {@link notText} for a string already decoded (a command-line argument). */
export function notTextString(text: string): string | undefined {
  if (text.trim() === '') return 'empty';
  // Tab, line feed, vertical tab, form feed and carriage return are layout, not binary.
  const controls = text.match(/[\u0000-\u0008\u000e-\u001f\u007f\ufffd]/g)?.length ?? 0;
  if (controls > 0 && controls / text.length > 0.1) {
    return 'binary (mostly control characters), not text';
  }
  return undefined;
}

/** Reads all of standard input as bytes (refusing a terminal: nobody is typing a file). */
async function readStdinBytes(): Promise<Buffer> {
  if (process.stdin.isTTY) {
    throw new InputError('standard input is a terminal: pipe the input or name a file');
  }
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

function readFileBytes(path: string): Buffer {
  try {
    return readFileSync(path);
  } catch (error) {
    throw new InputError(`cannot read ${path}: ${(error as NodeJS.ErrnoException).code ?? error}`);
  }
}

/**
 * The text of a file, or of standard input for `-`. Empty and binary content is an
 * {@link InputError} naming the file: no command has anything sensible to say about either.
 */
export async function readInputFile(path: string): Promise<string> {
  const bytes = path === STDIN ? await readStdinBytes() : readFileBytes(path);
  const problem = notText(bytes);
  if (problem !== undefined) throw new InputError(`${displayName(path)} is ${problem}`);
  return new TextDecoder().decode(bytes);
}

/**
 * The text a command works on: the positional argument when given, otherwise (or for `-`) all
 * of standard input, so `echo "…" | triage tier` works. Empty or binary text is an
 * {@link InputError}; one final newline of piped input is dropped.
 */
export async function readTextArgument(argument: string | undefined): Promise<string> {
  if (argument !== undefined && argument !== STDIN) {
    const problem = notTextString(argument);
    if (problem !== undefined) throw new InputError(`the text argument is ${problem}`);
    return argument;
  }
  if (argument === undefined && process.stdin.isTTY) {
    throw new InputError('no input: pass the text as an argument or pipe it on standard input');
  }
  return (await readInputFile(STDIN)).replace(/\r?\n$/, '');
}

/**
 * The texts a command works on: the one of {@link readTextArgument}, or with `eachLine` each
 * non-blank line of it (one result per line: `cat prompts.txt | triage tier --lines --json`).
 */
export async function readTexts(
  argument: string | undefined,
  eachLine: boolean | undefined,
): Promise<string[]> {
  const text = await readTextArgument(argument);
  if (!eachLine) return [text];
  const lines = text.split(/\r?\n/).filter((line) => notTextString(line) === undefined);
  if (lines.length === 0) throw new InputError('no line of the input is text');
  return lines;
}

/** One parsed line of a JSONL file. */
export interface JsonlRow {
  /** 1-based line number. */
  readonly line: number;
  readonly value: unknown;
}

/**
 * Reads a JSONL file (or standard input for `-`) line by line, blank lines skipped, showing a
 * progress bar on standard error while its rows are worked on, when that takes long and standard
 * error is a terminal. An empty or binary file, and a line that is not valid JSON, are an
 * {@link InputError} naming the file and line.
 */
export async function* readJsonl(path: string, label = 'reading'): AsyncGenerator<JsonlRow> {
  const text = await readInputFile(path);
  yield* jsonLines(text, displayName(path), label);
}

/** The JSON values of the lines of `text` (see {@link readJsonl}); `name` is the file's. */
export function* jsonLines(text: string, name: string, label = 'reading'): Generator<JsonlRow> {
  const lines = text.split(/\r?\n/);
  const progress = new Progress(label, lines.length);
  try {
    for (let index = 0; index < lines.length; index++) {
      progress.update(index);
      const line = lines[index]!;
      if (line.trim() === '') continue;
      let value: unknown;
      try {
        value = JSON.parse(line);
      } catch (error) {
        throw new InputError(`${name}:${index + 1}: not valid JSON (${(error as Error).message})`);
      }
      yield { line: index + 1, value };
    }
  } finally {
    progress.done();
  }
}

/**
 * The value of a configuration file, JSON or YAML (YAML is a superset of JSON), or TOML for a
 * `.toml` file (the format of some origin projects' configurations); `-` reads it from standard
 * input. An unreadable, empty, binary or unparsable file is an {@link InputError} naming the
 * file, on one line; with `allowEmpty`, an empty file is `undefined` (all defaults).
 */
export function readConfigFile(path: string, options: { allowEmpty?: boolean } = {}): unknown {
  return parseConfigBytes(readConfigBytes(path), path, options);
}

/** The bytes of a configuration file (`-`: standard input); an {@link InputError} if unreadable. */
export function readConfigBytes(path: string): Buffer {
  try {
    return readFileSync(path === STDIN ? 0 : path);
  } catch (error) {
    throw new InputError(
      `cannot read ${displayName(path)}: ${(error as NodeJS.ErrnoException).code ?? error}`,
    );
  }
}

/**
 * The value of a configuration file's `bytes`, read from `path` (whose extension picks TOML), as
 * {@link readConfigFile} gives it: for bytes read once and parsed again elsewhere (the workers of
 * `triage serve --workers` parse the bytes their primary validated).
 */
export function parseConfigBytes(
  bytes: Uint8Array,
  path: string,
  options: { allowEmpty?: boolean } = {},
): unknown {
  const toml = /\.toml$/i.test(path);
  const problem = notText(bytes);
  if (problem === 'empty' && options.allowEmpty) return undefined;
  if (problem !== undefined) throw new InputError(`${displayName(path)} is ${problem}`);
  const text = new TextDecoder().decode(bytes);
  try {
    return toml ? parseToml(text) : parseYaml(text);
  } catch (error) {
    // The parser's message goes on to show the line with a caret below it: keep its first line.
    const [reason] = (error as Error).message.split('\n');
    throw new InputError(
      `${displayName(path)} is not valid ${toml ? 'TOML' : 'JSON or YAML'}: ${reason}`,
    );
  }
}

/**
 * One provider entry of an LLM configuration file (one provider, a list, or `{providers: [...]}`):
 * the only one, or the one whose `id` is given. Otherwise an {@link InputError} saying which.
 */
export function pickProviderConfig(config: unknown, file: string, id: string | undefined): unknown {
  const list = providerConfigs(config);
  if (id === undefined) {
    if (list.length === 1) return list[0];
    throw new InputError(`${file} lists ${list.length} providers: choose one with --provider`);
  }
  const found = list.find((entry) => (entry as { id?: unknown } | null)?.id === id);
  if (found === undefined) throw new InputError(`${file} has no provider with id ${id}`);
  return found;
}

/** Every provider entry of an LLM configuration file, in the three shapes it may have. */
export function providerConfigs(config: unknown): unknown[] {
  return Array.isArray(config) ? config : isProviders(config) ? config.providers : [config];
}

function isProviders(value: unknown): value is { providers: unknown[] } {
  return (
    typeof value === 'object' &&
    value !== null &&
    Array.isArray((value as { providers?: unknown }).providers)
  );
}
