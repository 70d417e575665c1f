/**
 * Folding the noise out of strings, so that two tool calls or two error messages that differ only
 * in noise compare equal. All patterns are compiled once; inputs are cut to a bounded length first,
 * so the cost per string is bounded whatever the tool returned.
 */

/** Characters of an error message that are normalised; the rest is ignored. */
export const ERROR_MESSAGE_LIMIT = 1000;

const URL = /\b[a-z][a-z0-9+.-]*:\/\/\S+/gi;
const UUID = /\b[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\b/gi;
// Hex strings of 8+ characters with at least one digit and one letter: commit ids, hashes,
// request ids. Pure digit runs are numbers and handled below.
const HEX_ID = /\b(?:0x)?(?=[0-9a-f]*\d)(?=[0-9a-f]*[a-f])[0-9a-f]{8,}\b/gi;
// A path: at least one separator between path characters (`src/a.ts`, `/tmp/x`, `C:\a\b`).
// The inner class excludes separators, so the repetition cannot backtrack.
const PATH = /(?:[A-Za-z]:)?[\w.~@-]*(?:[\\/][\w.~@-]+)+[\\/]?/g;
const NUMBER = /\d+(?:[.,:]\d+)*/g;
const SPACES = /\s+/g;

/**
 * An error message with its noise folded: URLs, paths, ids and numbers become `<url>`, `<path>`,
 * `<id>` and `<n>`, white space collapses, and only the first {@link ERROR_MESSAGE_LIMIT}
 * characters count. `ENOENT: /tmp/a1/x.ts` and `ENOENT: /tmp/b2/y.ts` normalise alike.
 */
export function normaliseErrorMessage(message: string): string {
  const head =
    message.length > ERROR_MESSAGE_LIMIT ? message.slice(0, ERROR_MESSAGE_LIMIT) : message;
  return head
    .replace(URL, '<url>')
    .replace(UUID, '<id>')
    .replace(HEX_ID, '<id>')
    .replace(PATH, '<path>')
    .replace(NUMBER, '<n>')
    .replace(SPACES, ' ')
    .trim();
}

const BACKSLASH = /\\/g;
const REPEATED_SLASH = /\/{2,}/g;
const DOT_SLASH = /(^|[\s/=:"'(,])\.\/(?=[^/])/g;
const TRAILING_SLASH = /([^\s/])\/(?=\s|$)/g;
// A word with a digit in it (`42`, `v2`, `file1`, `3f9a0c`): counters, ports, ids, line numbers.
const DIGIT_WORD = /[A-Za-z_]*\d[\w]*/g;

// Anything one of the replacements below would change. Most params (`src`, `npm test`, a search
// pattern) have none of it, and skip the replacement chain and its allocations.
const PARAM_NOISE =
  /[\d\\]|\/\/|(?:^|[\s/=:"'(,])\.\/|[^\S ]| {2}|^ | $|[^\s/]\/(?=\s|$)|[0-9a-f]{8}-[0-9a-f]{4}-/i;

/**
 * A string parameter with its noise folded, for near-repeat detection: white space collapses,
 * path spelling is normalised (`./src//a/` = `src/a`, `\` = `/`), and ids and words with digits
 * become `#`. Unlike error messages, paths are kept: reading another file is another action.
 */
export function normaliseParam(value: string): string {
  return PARAM_NOISE.test(value) ? foldParamNoise(value) : value;
}

/** The replacements of {@link normaliseParam}, always applied (exported for its tests). */
export function foldParamNoise(value: string): string {
  return value
    .replace(BACKSLASH, '/')
    .replace(REPEATED_SLASH, '/')
    .replace(DOT_SLASH, '$1')
    .replace(TRAILING_SLASH, '$1')
    .replace(UUID, '#')
    .replace(DIGIT_WORD, '#')
    .replace(SPACES, ' ')
    .trim();
}
