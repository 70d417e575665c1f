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

// Timestamps: an ISO 8601 date with a time (`2024-05-01T10:00:03.120Z`, `2024-05-01 10:00`), a
// compact one (`20240501T100003Z`, `20240501-100003`), a time with seconds (`10:00:03`), and epoch
// seconds, milliseconds, microseconds or nanoseconds from 2001 to 2033 (`1714557603`). A date
// alone is kept: a report for another day is another action.
const ISO_DATETIME =
  /(?<!\d)\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}(?::\d{2}(?:[.,]\d+)?)?(?:Z|[+-]\d{2}:?\d{2})?(?![\w:])/gi;
const COMPACT_DATETIME = /(?<!\d)(?:19|20)\d{6}[T_-]?\d{6}(?!\d)Z?/gi;
const TIME_OF_DAY = /(?<![\d:])\d{1,2}:\d{2}:\d{2}(?:[.,]\d+)?(?![\d:])/g;
const EPOCH = /(?<![\d.])1\d{9}(?:\d{3}){0,3}(?:\.\d+)?(?!\d)/g;
// Ids generated per call: ULIDs and hex runs of 16+ digits with a letter and a digit (request and
// trace ids, hashes). Shorter hex (a 7-character commit) and words with digits (`file1`) are kept.
const ULID = /(?<![0-9A-Za-z])[0-7][0-9A-HJKMNP-TV-Z]{25}(?![0-9A-Za-z])/g;
const LONG_HEX = /(?<![0-9a-z])(?=[0-9a-f]*\d)(?=[0-9a-f]*[a-f])[0-9a-f]{16,}(?![0-9a-z])/gi;
// Temporary directories: below a temp root, a path segment with a digit or a `tmp` prefix was
// generated (`/tmp/build-1234/out.log`, `/tmp/tmp.Xa9bQ2/a`, `C:/Users/me/AppData/Local/Temp/x7`).
// The root and the other segments (`out.log`) are kept.
const TEMP_PATH =
  /(?<=^|[\s"'=:(,[{])((?:[A-Za-z]:)?(?:\/private)?(?:\/var)?\/(?:tmp|temp|dev\/shm|folders\/[^/\s]+\/[^/\s]+\/T)|[A-Za-z]:\/(?:Users\/[^/\s]+\/AppData\/Local|Windows)\/Temp)((?:\/[^/\s"'`]+)+)/gi;
const TEMP_SEGMENT = /\/(?:[^/]*\d[^/]*|tmp[^/]*)(?=\/|$)/gi;
// Durations: a number with a unit (`5s`, `250ms`, `2 minutes`), the seconds of `sleep` and
// `timeout`, and the value of flags that name a wait (`--timeout 30`, `--retry-delay=5`).
const DURATION =
  /\b\d+(?:\.\d+)?(?:ms|s|m|h|\s?(?:msecs?|millis(?:econds?)?|secs?|seconds?|mins?|minutes?|hrs?|hours?))\b/gi;
const SLEEP = /\b(sleep|timeout|wait)(\s+|\(\s*)\d+(?:\.\d+)?\b/gi;
const WAIT_FLAG =
  /(-[\w-]*(?:timeout|delay|sleep|wait|interval|ttl|deadline|backoff|duration)[\w-]*)(\s*=\s*|\s+)\d+(?:\.\d+)?\b/gi;

// Anything one of the replacements below would change. Most params (`src/a.ts`, `npm test`, a
// search pattern) have none of it, and skip the replacement chain and its allocations.
const PARAM_NOISE =
  /[\d\\]|\/\/|(?:^|[\s/=:"'(,])\.\/|[^\S ]| {2}|^ | $|[^\s/]\/(?=\s|$)|[0-9a-f]{8}-[0-9a-f]{4}-|\/t(?:e?mp)/i;

/**
 * A string parameter with its noise folded, for near-repeat detection: what changes from one run
 * of the same action to the next without changing the action. Timestamps, UUIDs and other
 * generated ids, the generated parts of temporary paths, and durations become `#`; white space
 * collapses; path spelling is normalised (`./src//a/` = `src/a`, `\` = `/`). What the action is
 * about is kept: another file (`src/file1.ts`, `src/file2.ts`), another offset or line, another
 * test (`test_1`, `test_2`), another URL or another search is another action.
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
    .replace(ISO_DATETIME, '#')
    .replace(COMPACT_DATETIME, '#')
    .replace(TIME_OF_DAY, '#')
    .replace(ULID, '#')
    .replace(LONG_HEX, '#')
    .replace(TEMP_PATH, foldTempPath)
    .replace(EPOCH, '#')
    .replace(WAIT_FLAG, '$1$2#')
    .replace(SLEEP, '$1$2#')
    .replace(DURATION, '#')
    .replace(SPACES, ' ')
    .trim();
}

function foldTempPath(_match: string, root: string, rest: string): string {
  return root + rest.replace(TEMP_SEGMENT, '/#');
}

// Keys whose value is noise whatever it is: generated ids, timestamps and waits.
const NOISE_KEY =
  /^(?:x)?(?:request|trace|span|correlation|idempotency|clientrequest)(?:id|key)$|^(?:nonce|timestamp|ts|cachebuster|attempt|attempts|retry|retries|retrycount|try)$|^(?:timeout|delay|sleep|wait|interval|pollinterval|duration|ttl|retryafter|retrydelay|backoff|deadline)(?:ms|millis|milliseconds|us|ns|s|sec|secs|seconds|mins?|minutes)?$/;
const KEY_SEPARATORS = /[\s_.-]+/g;
const noiseKeys = new Map<string, boolean>();
const NOISE_KEY_MEMORY = 1024;

/**
 * Whether a parameter's value is noise by its name: generated ids (`requestId`, `x-trace-id`,
 * `idempotency_key`, `nonce`), timestamps (`timestamp`, `ts`), retry counters (`attempt`) and
 * waits (`timeout`, `delay_ms`, `retryAfter`). `id`, `path`, `offset` and the like name what is acted on, and are not noise.
 */
export function isNoiseKey(key: string): boolean {
  let noise = noiseKeys.get(key);
  if (noise === undefined) {
    noise = key.length <= 40 && NOISE_KEY.test(key.toLowerCase().replace(KEY_SEPARATORS, ''));
    if (noiseKeys.size >= NOISE_KEY_MEMORY) noiseKeys.clear();
    noiseKeys.set(key, noise);
  }
  return noise;
}

/** Epoch seconds, milliseconds, microseconds or nanoseconds from 2001 to 2033. */
export function isEpochTimestamp(value: number): boolean {
  return (
    (value >= 1e9 && value < 2e9) ||
    (value >= 1e12 && value < 2e12) ||
    (value >= 1e15 && value < 2e15) ||
    (value >= 1e18 && value < 2e18)
  );
}
