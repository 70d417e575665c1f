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
