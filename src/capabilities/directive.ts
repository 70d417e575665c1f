/**
 * The run-time switch of capability selection (the original design's `/caps:off` slash command).
 *
 * Semantics:
 * - `/caps:off` anywhere in the task text, as a word of its own (start of text or after white
 *   space, and followed by white space or the end), turns bypass **on**: every capability is
 *   selected without classification. `/caps:on` turns bypass **off**, even where the
 *   configuration enables it.
 * - Case does not matter (`/CAPS:OFF`). When both appear, the last one wins.
 * - Directives are removed from the task before it is classified or passed on.
 * - A directive applies to the selection it appears in. A caller that keeps a session (the agent
 *   state's `capabilityBypass`) stores the selection's `directive` so it holds for later tasks
 *   until the other directive is given; precedence is: directive in this task, then the
 *   session's setting, then the configuration.
 * - Anything else (`/caps:maybe`, `x/caps:off`, `/caps:offline`) is left in the text untouched.
 */

/** A directive found in a task. */
export type CapsDirective = 'on' | 'off';

/** A task with its directives removed. */
export interface ParsedTask {
  /** The task without directives (trimmed when a directive was removed). */
  readonly text: string;
  /** The last directive in the text, if any. */
  readonly directive?: CapsDirective;
}

const DIRECTIVE = /(^|\s)\/caps:(on|off)(?=\s|$)/gi;

/** Finds and removes `/caps:on` and `/caps:off` in `text`. */
export function parseCapsDirective(text: string): ParsedTask {
  if (!text.includes('/') || !/\/caps:/i.test(text)) return { text };
  let directive: CapsDirective | undefined;
  const stripped = text.replace(DIRECTIVE, (_match, before: string, value: string) => {
    directive = value.toLowerCase() as CapsDirective;
    return before;
  });
  if (directive === undefined) return { text };
  return { text: stripped.trim(), directive };
}

/** Where the bypass setting of a selection came from. */
export type BypassSource = 'directive' | 'session' | 'config' | 'default';

/**
 * Whether selection is bypassed: the directive in this task, else the session's setting, else
 * the configuration, else no.
 */
export function resolveBypass(
  directive: CapsDirective | undefined,
  session: boolean | undefined,
  config: boolean | undefined,
): { readonly bypass: boolean; readonly from: BypassSource } {
  if (directive !== undefined) return { bypass: directive === 'off', from: 'directive' };
  if (session !== undefined) return { bypass: session, from: 'session' };
  if (config !== undefined) return { bypass: config, from: 'config' };
  return { bypass: false, from: 'default' };
}
