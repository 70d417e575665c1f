/**
 * The fast path of stream translation: most events of a streamed answer are text deltas,
 * `{"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"…"}}`. Their text
 * is already a JSON string literal, escaped as a chat-completion chunk needs it, so it can be
 * spliced into the chunk without parsing the event and serialising the chunk again. Anything
 * that does not have exactly this shape is left to the general path (`undefined`).
 */

const HEAD = '{"type":"content_block_delta","index":';
const DELTA = ',"delta":{"type":"text_delta","text":"';

/** The JSON string literal (quotes included) of a text-delta event's text; `undefined` if not one. */
export function textDeltaLiteral(data: string): string | undefined {
  if (!data.startsWith(HEAD)) return undefined;
  let at = HEAD.length;
  while (at < data.length && isDigit(data.charCodeAt(at))) at++;
  if (at === HEAD.length || !data.startsWith(DELTA, at)) return undefined;
  const open = at + DELTA.length - 1; // the opening quote of the text
  let close = open + 1;
  for (;;) {
    const c = data.charCodeAt(close);
    if (Number.isNaN(c) || c < 0x20) return undefined; // cut short, or a raw control character
    if (c === 0x5c)
      close += 2; // an escape: skip the escaped character
    else if (c === 0x22) break;
    else close++;
  }
  // Exactly `}}` after the text: any other field means the general path.
  if (data.length !== close + 3 || data.charCodeAt(close + 1) !== 0x7d) return undefined;
  if (data.charCodeAt(close + 2) !== 0x7d) return undefined;
  return data.slice(open, close + 1);
}

function isDigit(c: number): boolean {
  return c >= 0x30 && c <= 0x39;
}
