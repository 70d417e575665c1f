/**
 * The console's calls to its server: JSON requests and the live feed, with the client key (when
 * the server needs one) kept in this tab's session storage and sent as a bearer token. The feed is
 * read with fetch rather than EventSource, which cannot send a key.
 */

const KEY = 'triage-console-key';

/** Raised when the server wants a client key (401). */
export class KeyNeeded extends Error {}

function headers(extra: Record<string, string> = {}): Record<string, string> {
  const key = sessionStorage.getItem(KEY);
  return key ? { ...extra, authorization: `Bearer ${key}` } : extra;
}

/** Keeps the client key for this tab. */
export function setKey(key: string): void {
  sessionStorage.setItem(KEY, key);
}

/** GET or POST JSON. Throws {@link KeyNeeded} on 401, an Error with the server's message else. */
export async function callJson<T>(path: string, body?: unknown, signal?: AbortSignal): Promise<T> {
  const response = await fetch(path, {
    method: body === undefined ? 'GET' : 'POST',
    headers: headers(body === undefined ? {} : { 'content-type': 'application/json' }),
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    ...(signal ? { signal } : {}),
  });
  if (response.status === 401) throw new KeyNeeded('a client key is needed');
  const json = (await response.json()) as T & { error?: { message?: string } };
  if (!response.ok) throw new Error(json.error?.message ?? `HTTP ${response.status}`);
  return json;
}

/**
 * Reads a server-sent event stream, calling `onMessage` with each event's parsed data, until
 * `signal` aborts or the stream ends (then resolves).
 */
export async function readEvents(
  path: string,
  onMessage: (data: unknown) => void,
  signal: AbortSignal,
): Promise<void> {
  const response = await fetch(path, { headers: headers({ accept: 'text/event-stream' }), signal });
  if (response.status === 401) throw new KeyNeeded('a client key is needed');
  if (!response.ok || response.body === null) throw new Error(`HTTP ${response.status}`);
  const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
  let buffer = '';
  for (;;) {
    const { value, done } = await reader.read();
    if (done) return;
    buffer += value;
    let end = buffer.indexOf('\n\n');
    while (end >= 0) {
      const event = buffer.slice(0, end);
      buffer = buffer.slice(end + 2);
      const data = event
        .split('\n')
        .filter((line) => line.startsWith('data: '))
        .map((line) => line.slice(6))
        .join('\n');
      if (data) onMessage(JSON.parse(data));
      end = buffer.indexOf('\n\n');
    }
  }
}
