import { extname } from 'node:path';
import { type Command, Option } from 'commander';
import { displayName, InputError, jsonLines, readInputFile } from './io.js';
import { count, integer } from './numbers.js';

/**
 * The rows of a labelled evaluation file, whatever its layout: JSON Lines, a JSON array, or CSV
 * with a header line; its fields renamed to what the evaluation reads (`input`, `expected`);
 * then cut to a first `--limit` rows or a seeded `--sample`.
 */

/** The layouts read. */
export const RECORD_FORMATS = ['jsonl', 'json', 'csv'] as const;
export type RecordFormat = (typeof RECORD_FORMATS)[number];

/** The flags of {@link addEvalInputOptions}. */
export interface EvalInputFlags {
  readonly format?: RecordFormat;
  readonly textField?: string;
  readonly labelField?: string;
  readonly label?: string;
  readonly limit?: number;
  readonly sample?: number;
  readonly seed?: number;
}

/** One record of the file, with where it is (`file:line` or `file[index]`) for messages. */
export interface EvalRecord {
  readonly where: string;
  /** The 1-based line (JSONL, CSV) or position in the array (JSON). */
  readonly line: number;
  readonly value: unknown;
}

/** Adds the options that say how to read the file and which rows to take. */
export function addEvalInputOptions(command: Command): Command {
  return command
    .addOption(
      new Option(
        '--format <format>',
        'layout of the file (default: by extension; .json is an array, .csv has a header line)',
      ).choices([...RECORD_FORMATS]),
    )
    .option('--text-field <name>', 'the field holding the text (default: input)')
    .option('--label-field <name>', 'the field holding the label (default: expected)')
    .option('--label <value>', 'give every row this label (a data set of one class)')
    .option('--limit <n>', 'evaluate the first n rows only', integer)
    .option('--sample <n>', 'evaluate n rows drawn at random (see --seed)', integer)
    .option('--seed <n>', 'seed of --sample', count, 1);
}

/** The layout of `path`: `format` when given, else its extension, else what its text starts with. */
export function recordFormat(path: string, text: string, format?: RecordFormat): RecordFormat {
  if (format !== undefined) return format;
  const extension = extname(path).toLowerCase();
  if (extension === '.jsonl' || extension === '.ndjson') return 'jsonl';
  if (extension === '.json') return 'json';
  if (extension === '.csv') return 'csv';
  const start = text.trimStart();
  if (start.startsWith('[')) return 'json';
  if (start.startsWith('{')) return 'jsonl';
  throw new InputError(
    `cannot tell the layout of ${displayName(path)}: name it with --format ${RECORD_FORMATS.join('|')}`,
  );
}

/**
 * Parses `text` as records of `format`. A JSON file must hold an array; a CSV file a header line
 * (its values are strings). Bad syntax is an {@link InputError} naming the file and line.
 */
export async function parseRecords(
  text: string,
  name: string,
  format: RecordFormat,
): Promise<EvalRecord[]> {
  if (format === 'jsonl') {
    return [...jsonLines(text, name)].map(({ line, value }) => ({
      where: `${name}:${line}`,
      line,
      value,
    }));
  }
  if (format === 'json') {
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch (error) {
      throw new InputError(`${name}: not valid JSON (${(error as Error).message})`);
    }
    if (!Array.isArray(value)) {
      throw new InputError(`${name}: a JSON file must hold an array of rows`);
    }
    return value.map((row, index) => ({ where: `${name}[${index}]`, line: index + 1, value: row }));
  }
  // Loaded on first use: most commands never read CSV.
  const { parse: parseCsv } = await import('csv-parse/sync');
  try {
    const rows = parseCsv(text, {
      columns: true,
      bom: true,
      skip_empty_lines: true,
      info: true,
    }) as { record: Record<string, string>; info: { lines: number } }[];
    return rows.map(({ record, info }) => ({
      where: `${name}:${info.lines}`,
      line: info.lines,
      value: record,
    }));
  } catch (error) {
    throw new InputError(`${name}: not valid CSV (${(error as Error).message})`);
  }
}

/**
 * The rows of an evaluation file (`-`: standard input) as the flags ask: fields renamed, cut to
 * `--limit` or `--sample`. An empty file, or one without rows, is an {@link InputError}.
 */
export async function readEvalRecords(
  path: string,
  flags: EvalInputFlags = {},
): Promise<EvalRecord[]> {
  const text = await readInputFile(path);
  const name = displayName(path);
  const records = await parseRecords(text, name, recordFormat(path, text, flags.format));
  if (records.length === 0) throw new InputError(`${name} has no rows`);
  // Loaded only to sample: importing it loads nothing of the capability subsystem but this file.
  const random =
    flags.sample === undefined
      ? undefined
      : (await import('../capabilities/random.js')).seededRandom(flags.seed ?? 1);
  const chosen = choose(records, flags, random);
  return chosen.map((record) => ({ ...record, value: mapFields(record.value, flags) }));
}

/** The rows `--sample` (drawn with `random`) and `--limit` keep, in the file's order. */
export function choose<T>(
  records: readonly T[],
  flags: EvalInputFlags,
  random: () => number = Math.random,
): T[] {
  let kept = [...records];
  if (flags.sample !== undefined && flags.sample < kept.length) {
    const indices = kept.map((_, index) => index);
    // A partial Fisher–Yates shuffle: the first `sample` places are a uniform draw.
    for (let i = 0; i < flags.sample; i++) {
      const j = i + Math.floor(random() * (indices.length - i));
      [indices[i], indices[j]] = [indices[j]!, indices[i]!];
    }
    kept = indices
      .slice(0, flags.sample)
      .sort((a, b) => a - b)
      .map((index) => kept[index]!);
  }
  return flags.limit === undefined ? kept : kept.slice(0, flags.limit);
}

/** A row with its text under `input` and its label under `expected`, as the flags map them. */
function mapFields(value: unknown, flags: EvalInputFlags): unknown {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return value;
  const row = value as Record<string, unknown>;
  const mapped: Record<string, unknown> = { ...row };
  if (flags.textField !== undefined) mapped.input = row[flags.textField];
  if (flags.labelField !== undefined) mapped.expected = row[flags.labelField];
  if (flags.label !== undefined) mapped.expected = labelValue(flags.label);
  return mapped;
}

/** `--label false` is the boolean, `--label SIMPLE` the string. */
function labelValue(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}
