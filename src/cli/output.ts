import type { Command } from 'commander';
import { FALLBACK_CAUSE_TEXT, type FallbackCause } from '../core/hybrid.js';

/**
 * One output style for every command: text for people by default (numbers rounded for reading),
 * `--json` for programs (one JSON object per result on one line, so many results are JSON Lines;
 * numbers at full precision), `--pretty` for indented JSON.
 */
export interface OutputFlags {
  readonly json?: boolean;
  readonly pretty?: boolean;
}

/** Adds `--json` and `--pretty` to a command. */
export function addOutputOptions(command: Command): Command {
  return command
    .option('--json', 'print one JSON object per result, each on one line (full precision)')
    .option('--pretty', 'print indented JSON (implies --json)');
}

/** Adds `--lines`: each line of the input is a text of its own, with a result of its own. */
export function addLinesOption(command: Command): Command {
  return command.option(
    '--lines',
    'treat each line of the input as a text of its own: one result per line (JSON Lines with --json)',
  );
}

/** Whether the flags ask for JSON. */
export function wantsJson(flags: OutputFlags): boolean {
  return flags.json === true || flags.pretty === true;
}

/** Writes one result as JSON on standard output: one line, or indented with `--pretty`. */
export function writeJson(value: unknown, flags: OutputFlags): void {
  process.stdout.write(`${JSON.stringify(value, null, flags.pretty ? 2 : undefined)}\n`);
}

/** A number for reading: integers as they are, others with `digits` decimals at most. */
export function readable(value: number, digits = 3): string {
  if (Number.isInteger(value)) return String(value);
  if (!Number.isFinite(value)) return String(value);
  return String(Number(value.toFixed(digits)));
}

/**
 * Figures (counts, shares, nested groups of them) as aligned `name  value` lines for a text
 * report: numbers rounded, a group of plain values on one line (`a 1 · b 2`), a group of groups
 * one line per member, indented.
 */
export function formatFigures(figures: Readonly<Record<string, unknown>>, indent = ''): string[] {
  const entries = Object.entries(figures).filter(([, value]) => value !== undefined);
  const width = Math.max(0, ...entries.map(([name]) => name.length)) + 2;
  const lines: string[] = [];
  for (const [name, value] of entries) {
    if (isGroup(value) && Object.values(value).some(isGroup)) {
      lines.push(`${indent}${name}`, ...formatFigures(value, `${indent}  `));
    } else {
      lines.push(`${indent}${name.padEnd(width)}${formatValue(value)}`);
    }
  }
  return lines;
}

function isGroup(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

function formatValue(value: unknown): string {
  if (typeof value === 'number') return readable(value);
  if (Array.isArray(value)) return value.map(formatValue).join(', ');
  if (isGroup(value)) {
    return (
      Object.entries(value)
        .map(([name, member]) => `${name} ${formatValue(member)}`)
        .join(' · ') || '-'
    );
  }
  return String(value);
}

/** What decided, in words: `local`, `llm (412 ms)`, `fallback: no_llm (no LLM configured)`. */
export function describeSource(decision: {
  readonly source: string;
  readonly fallbackCause?: FallbackCause | null;
  readonly llmMs?: number;
}): string {
  const cause = decision.fallbackCause;
  const why = cause ? `: ${cause} (${FALLBACK_CAUSE_TEXT[cause]})` : '';
  const took =
    decision.llmMs !== undefined && decision.llmMs > 0
      ? ` (LLM ${Math.round(decision.llmMs)} ms)`
      : '';
  return `${decision.source}${why}${took}`;
}

/**
 * Counts decisions by where they came from, a fallback by its cause (`local 95 · fallback:no_llm
 * 5`), so an evaluation report says what decided its rows.
 */
export class SourceCounts {
  readonly #counts: Record<string, number> = {};

  add(decision: { readonly source: string; readonly fallbackCause?: string | null }): void {
    const key = decision.fallbackCause
      ? `${decision.source}:${decision.fallbackCause}`
      : decision.source;
    this.#counts[key] = (this.#counts[key] ?? 0) + 1;
  }

  /** The counts, by source (and cause). */
  toJSON(): Record<string, number> {
    return { ...this.#counts };
  }
}
