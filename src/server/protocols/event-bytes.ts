import { bytesAt } from './json-bytes.js';

/**
 * Stream translation on the upstream's bytes: each complete event of a piece is read in place
 * (where its name and data lie), and the translator either writes the common events from their
 * bytes (a fast path: nothing decoded, nothing parsed) or hands the event to its general path as
 * text. An event of a shape the byte reader does not follow sends the rest of the piece to the
 * general path, which reads every shape; so does a piece with a carriage return.
 */

/** Where the parts of an event lie in a piece of a stream (offsets into its bytes). */
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

/** A stream translator with a fast path on bytes and a general path on text. */
export interface ByteTranslator {
  /**
   * Adds to `out` what the event at `span` translates to when the fast path knows it (true);
   * false leaves it to {@link event}. What it adds must be what {@link event} would write.
   */
  fastEvent(chunk: Buffer, span: EventSpan, out: TranslatedBytes): boolean;
  /** The general path for one event: its name (`''`: none) and data. */
  event(name: string, data: string): string;
  /** The general path for complete events in text. */
  push(text: string): string;
}

/** The pieces of a translated chunk, joined once at the end. */
export class TranslatedBytes {
  readonly pieces: Buffer[] = [];
  size = 0;

  add(piece: Buffer): void {
    if (piece.length === 0) return;
    this.pieces.push(piece);
    this.size += piece.length;
  }

  text(piece: string): void {
    if (piece.length > 0) this.add(Buffer.from(piece));
  }

  bytes(): Buffer {
    const { pieces } = this;
    if (pieces.length <= 1) return pieces[0] ?? EMPTY;
    return Buffer.concat(pieces, this.size);
  }
}

const EMPTY = Buffer.alloc(0);
const CR = 0x0d;

/**
 * What `translator` writes for `chunk` (complete events): byte for byte what its general path
 * writes for the same text. `span` is the translator's own, reused for each event.
 */
export function translateBytes(chunk: Buffer, span: EventSpan, translator: ByteTranslator): Buffer {
  const out = new TranslatedBytes();
  // A carriage return ends lines in a way the byte reader does not follow.
  if (chunk.indexOf(CR) >= 0) {
    out.text(translator.push(chunk.toString('utf8')));
    return out.bytes();
  }
  for (let at = 0; at < chunk.length; at = span.next) {
    if (!readSimpleEvent(chunk, at, span)) {
      out.text(translator.push(chunk.toString('utf8', at)));
      break;
    }
    if (translator.fastEvent(chunk, span, out)) continue;
    const name = span.nameStart < 0 ? '' : chunk.toString('utf8', span.nameStart, span.nameEnd);
    out.text(translator.event(name, chunk.toString('utf8', span.dataStart, span.dataEnd)));
  }
  return out.bytes();
}

const EVENT_FIELD = Buffer.from('event: ');
const DATA_FIELD = Buffer.from('data: ');
const LF = 0x0a;

/**
 * Reads the event at `at` in `bytes` into `span` when it has the shape every streaming API
 * writes, `event: <name>\n` (optional) then `data: <data>\n` then a blank line, and returns
 * true; false for any other shape (comments, other fields, several data lines, a field without
 * its space, no blank line), which the general reader (`sseEvents`) reads. `bytes` must hold no
 * carriage return (a line end this reader does not follow). What it reads is what `sseEvents`
 * reads from the same event.
 */
export function readSimpleEvent(bytes: Buffer, at: number, span: EventSpan): boolean {
  let line = at;
  span.nameStart = -1;
  if (bytesAt(bytes, line, EVENT_FIELD)) {
    const end = bytes.indexOf(LF, line);
    if (end < 0) return false;
    span.nameStart = line + EVENT_FIELD.length;
    span.nameEnd = end;
    line = end + 1;
  }
  if (!bytesAt(bytes, line, DATA_FIELD)) return false;
  const end = bytes.indexOf(LF, line);
  if (end < 0 || bytes[end + 1] !== LF) return false;
  span.dataStart = line + DATA_FIELD.length;
  span.dataEnd = end;
  span.next = end + 2;
  return true;
}

/** A span to reuse for every event of a stream. */
export function newSpan(): EventSpan {
  return { nameStart: -1, nameEnd: 0, dataStart: 0, dataEnd: 0, next: 0 };
}
