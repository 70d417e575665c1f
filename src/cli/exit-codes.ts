/**
 * The exit codes of every `triage` command, one contract for scripts and CI:
 *
 * - `0` the command did what was asked (a check that found nothing to fail on included);
 * - `1` a check found what it was asked to fail on: `--fail-on` of `inject` and `guidance`, the
 *   thresholds of `eval` (`--min-accuracy`, `--min-f1`), a provider that failed `llm check`, a
 *   capability that could not be classified;
 * - `2` bad usage or bad input: an unknown option, a missing or unreadable file, empty or binary
 *   input, an invalid row or configuration. One line on standard error names the problem;
 * - `3` an unexpected internal error (a bug): the stack trace is printed.
 */
export const EXIT = { ok: 0, check: 1, usage: 2, internal: 3 } as const;

/** Marks the run as failed by a check (exit code 1) without ending it: output still flushes. */
export function failCheck(): void {
  process.exitCode = EXIT.check;
}
