/**
 * Reading the server-sent events of an upstream stream, as the translators need them: the
 * `event:` name and the `data:` text of each complete event in a piece of the stream (pieces
 * arrive cut at event boundaries by the proxy's framer), comments and other fields ignored.
 */

/** One event: its name (`''` when it has none) and its data lines joined by newlines. */
export interface SseEvent {
  readonly event: string;
  readonly data: string;
}

/** The events of `text`, which holds complete events only. */
export function sseEvents(text: string): SseEvent[] {
  const events: SseEvent[] = [];
  let event = '';
  let data: string[] | undefined;
  let at = 0;
  const length = text.length;
  while (at <= length) {
    let end = text.indexOf('\n', at);
    if (end < 0) end = length;
    let line = text.slice(at, end);
    if (line.endsWith('\r')) line = line.slice(0, -1);
    at = end + 1;
    if (line.length === 0) {
      if (data !== undefined) events.push({ event, data: data.join('\n') });
      event = '';
      data = undefined;
      continue;
    }
    if (line.charCodeAt(0) === 0x3a) continue; // a comment
    const colon = line.indexOf(':');
    const field = colon < 0 ? line : line.slice(0, colon);
    let value = colon < 0 ? '' : line.slice(colon + 1);
    if (value.charCodeAt(0) === 0x20) value = value.slice(1);
    if (field === 'data') {
      if (data === undefined) data = [value];
      else data.push(value);
    } else if (field === 'event') event = value;
  }
  if (data !== undefined) events.push({ event, data: data.join('\n') });
  return events;
}

/**
 * Where the parts of an event lie in a piece of a stream (offsets into its bytes), as
 * {@link readSimpleEvent} finds them.
 */
export interface EventSpan {
  /** The event's name (`nameStart` −1: no `event:` line). */
  nameStart: number;
  nameEnd: number;
  /** Its data. */
  dataStart: number;
  dataEnd: number;
  /** Where the next event starts. */
  next: number;
}

const EVENT_FIELD = Buffer.from('event: ');
const DATA_FIELD = Buffer.from('data: ');
const LF = 0x0a;

/**
 * Reads the event at `at` in `bytes` into `span` when it has the shape every streaming API
 * writes, `event: <name>\n` (optional) then `data: <data>\n` then a blank line, and returns
 * true; false for any other shape (comments, other fields, several data lines, a field without
 * its space, no blank line), which the general reader ({@link sseEvents}) reads. `bytes` must hold
 * no carriage return (a line end this reader does not follow). What it reads is what
 * {@link sseEvents} reads from the same event.
 */
export function readSimpleEvent(bytes: Buffer, at: number, span: EventSpan): boolean {
  let line = at;
  span.nameStart = -1;
  if (hasAt(bytes, line, EVENT_FIELD)) {
    const end = bytes.indexOf(LF, line);
    if (end < 0) return false;
    span.nameStart = line + EVENT_FIELD.length;
    span.nameEnd = end;
    line = end + 1;
  }
  if (!hasAt(bytes, line, DATA_FIELD)) return false;
  const end = bytes.indexOf(LF, line);
  if (end < 0 || bytes[end + 1] !== LF) return false;
  span.dataStart = line + DATA_FIELD.length;
  span.dataEnd = end;
  span.next = end + 2;
  return true;
}

/** Whether `bytes` holds `expected` at `at` (a loop: faster than a native call for a few bytes). */
export function hasAt(bytes: Buffer, at: number, expected: Buffer): boolean {
  if (at + expected.length > bytes.length) return false;
  for (let i = 0; i < expected.length; i++) if (bytes[at + i] !== expected[i]) return false;
  return true;
}

/** `data: <json>\n\n`: an OpenAI-style event. */
export function dataEvent(value: unknown): string {
  return `data: ${JSON.stringify(value)}\n\n`;
}

/** `event: <name>\ndata: <json>\n\n`: an Anthropic-style event (the name is the data's type). */
export function namedEvent(value: {
  readonly type: string;
  readonly [field: string]: unknown;
}): string {
  return `event: ${value.type}\ndata: ${JSON.stringify(value)}\n\n`;
}

/** Parses an event's data as a JSON object; `undefined` when it is not one. */
export function jsonData(data: string): Record<string, unknown> | undefined {
  try {
    const value: unknown = JSON.parse(data);
    return typeof value === 'object' && value !== null && !Array.isArray(value)
      ? (value as Record<string, unknown>)
      : undefined;
  } catch {
    return undefined;
  }
}
