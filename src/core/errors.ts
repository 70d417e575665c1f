/**
 * Typed errors shared by every subsystem. Callers test with `instanceof` or by `code`; messages
 * say what was wrong and where, and never contain prompt text or secrets.
 */

/** Base class of every error triage throws on purpose. */
export class TriageError extends Error {
  /** A stable, machine-readable error code (e.g. `config_invalid`, `llm_timeout`). */
  readonly code: string;

  constructor(code: string, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = new.target.name;
    this.code = code;
  }
}

/** One problem found while validating a configuration object or file. */
export interface ConfigIssue {
  /** JSON-pointer-like path of the bad field, e.g. `/tiers/SIMPLE/0/model`; `` for the root. */
  readonly path: string;
  /** What is wrong with it, e.g. `must be <= 1`. */
  readonly message: string;
}

/**
 * A configuration was rejected. `issues` lists every bad field; the message names the first ones,
 * so a user sees at once which key to fix.
 */
export class ConfigError extends TriageError {
  readonly issues: readonly ConfigIssue[];
  /** Where the configuration came from (a file path, or a name such as `tier router options`). */
  readonly source: string;

  constructor(source: string, issues: readonly ConfigIssue[]) {
    const shown = issues
      .slice(0, 5)
      .map((issue) => `${issue.path || '(root)'} ${issue.message}`)
      .join('; ');
    const more = issues.length > 5 ? ` (and ${issues.length - 5} more)` : '';
    super('config_invalid', `invalid ${source}: ${shown}${more}`);
    this.issues = issues;
    this.source = source;
  }
}

/** A decision function or classifier did not answer within its time limit. */
export class DecisionTimeoutError extends TriageError {
  readonly timeoutMs: number;

  constructor(what: string, timeoutMs: number, code = 'decision_timeout') {
    super(code, `${what} did not answer within ${timeoutMs} ms`);
    this.timeoutMs = timeoutMs;
  }
}

/** Describes any thrown value in one line, without assuming it is an Error. */
export function describeError(error: unknown): string {
  if (error instanceof Error) return `${error.name}: ${error.message}`;
  if (typeof error === 'string') return error;
  try {
    return JSON.stringify(error) ?? String(error);
  } catch {
    return String(error);
  }
}
