import { createReadStream, statSync } from 'node:fs';
import { createInterface } from 'node:readline';
import { TriageError } from '../core/errors.js';
import { Progress } from './progress.js';

/** A command-line input could not be read or parsed. The message names the file and line. */
export class InputError extends TriageError {
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
